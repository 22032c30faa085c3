// Random numbers with NumPy's names and defaults, drawn on the GPU.
//
// A jet::random::generator is a bit generator (Philox4x32-10 unless another is chosen) with a
// seed and an offset: the same seed and offset give the same numbers in every run and process,
// and different seeds or offsets give independent streams. The free functions draw from the
// default generator of the current device and stream, seeded from JET_SEED when it is set,
// else from the system's entropy; jet::random::seed(n) reseeds them. Draws are asynchronous on
// the current stream, like everything else in Jet.
//
// With Philox4x32-10, rand, random, uniform, randn, standard_normal, normal, lognormal and
// exponential return a lazy expression: the numbers are made by the kernel that uses them, so
// `jet::mean(rand({n}) * rand({n}) < 0.5)` or `rand({n}) * 2 - 1` never writes them to memory.
// Element e of a draw (in C order) is a function of (seed, the generator's counter when it
// drew, e) alone: fused into any expression or converted to jet::array, it is the same number,
// and each draw advances the generator when it is made, by ceil(size / N) Philox counters (N =
// 2 values a counter for float64, 4 for the others). The cuRAND generators (xorwow, mrg32k3a,
// mt19937) draw into memory as the call is made and return the array as an expression.
#pragma once

#include <concepts>
#include <cstdint>
#include <limits>
#include <memory>
#include <string_view>
#include <type_traits>
#include <vector>

#include "jet/array.hpp"
#include "jet/dtype.hpp"
#include "jet/expr.hpp"
#include "jet/shape.hpp"

namespace jet::random {

// cuRAND's bit generators. MT19937 cannot start at an offset.
enum class algorithm : std::uint8_t { philox4x32_10, xorwow, mrg32k3a, mt19937 };
// "philox4x32_10", "xorwow", "mrg32k3a", "mt19937".
std::string_view name(algorithm a);

namespace detail {
struct generator_state;
// An integer bound of randint as written: int64, or a uint64 above INT64_MAX.
struct integer_bound {
  std::int64_t bits = 0;
  bool above_int64 = false;  // the value is (uint64_t)bits
};
template <std::integral T>
integer_bound bound(T v) {
  if constexpr (std::is_unsigned_v<T>)
    return {static_cast<std::int64_t>(v),
            v > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())};
  else
    return {static_cast<std::int64_t>(v), false};
}
}  // namespace detail

class generator {
 public:
  // Nothing touches the device until the first draw.
  explicit generator(std::uint64_t seed, algorithm kind = algorithm::philox4x32_10,
                     std::uint64_t offset = 0);
  ~generator();
  generator(generator&&) noexcept;
  generator& operator=(generator&&) noexcept;
  generator(const generator&) = delete;
  generator& operator=(const generator&) = delete;

  // The seed, the offset it started at, and the bit generator.
  std::uint64_t seed() const;
  std::uint64_t offset() const;
  algorithm kind() const;
  // Restarts the stream of `seed` at `offset`: Philox4x32-10's counter (a counter makes four
  // 32-bit words), or cuRAND's absolute position in the sequence of the others. Generators that
  // differ in seed or offset draw independent streams.
  void seed(std::uint64_t seed, std::uint64_t offset = 0);

  // Uniform on [0, 1) (1.0 is never produced).
  expr rand(const shape& size = {}, dtype t = float64);
  expr random(const shape& size = {}, dtype t = float64) { return rand(size, t); }
  // Uniform on [low, high).
  expr uniform(double low = 0.0, double high = 1.0, const shape& size = {}, dtype t = float64);
  // Standard normal.
  expr randn(const shape& size = {}, dtype t = float64);
  expr standard_normal(const shape& size = {}, dtype t = float64) { return randn(size, t); }
  // Normal with mean `loc` and standard deviation `scale` >= 0.
  expr normal(double loc = 0.0, double scale = 1.0, const shape& size = {}, dtype t = float64);
  // exp of a normal with mean `mean` and standard deviation `sigma` >= 0.
  expr lognormal(double mean = 0.0, double sigma = 1.0, const shape& size = {}, dtype t = float64);
  // Exponential with mean `scale` >= 0.
  expr exponential(double scale = 1.0, const shape& size = {}, dtype t = float64);
  // Gamma with shape `k` >= 0 and scale `theta` >= 0 (mean k * theta); float32 and 16-bit
  // results are computed in single precision, as NumPy's float32 gamma is.
  array gamma(double k, double theta = 1.0, const shape& size = {}, dtype t = float64);
  // Beta with a > 0 and b > 0.
  array beta(double a, double b, const shape& size = {}, dtype t = float64);
  // Poisson counts (int64) with mean `lam` >= 0.
  array poisson(double lam = 1.0, const shape& size = {});
  // Successes (int64) in `n` >= 0 trials of probability 0 <= p <= 1.
  array binomial(std::int64_t n, double p, const shape& size = {});

  // Integers on [low, high) of any integer dtype (or bool), int64 by default.
  template <std::integral L, std::integral H>
  array randint(L low, H high, const shape& size = {}, dtype t = int64) {
    return randint_bounds(detail::bound(low), detail::bound(high), size, t);
  }
  // Integers on [0, high).
  template <std::integral H>
  array randint(H high, const shape& size = {}, dtype t = int64) {
    return randint_bounds(detail::bound(0), detail::bound(high), size, t);
  }
  template <std::integral L, std::integral H>
  array integers(L low, H high, const shape& size = {}, dtype t = int64) {
    return randint(low, high, size, t);
  }

  // Samples from arange(a), or from the elements of the 1-D array `a`; without replacement no
  // element is taken twice; `p`, when given, holds each element's probability.
  array choice(std::int64_t a, const shape& size = {}, bool replace = true,
               const std::vector<double>& p = {});
  array choice(const array& a, const shape& size = {}, bool replace = true,
               const std::vector<double>& p = {});
  // A random ordering of arange(n) (int64), or a copy of `a` with its first axis shuffled.
  array permutation(std::int64_t n);
  array permutation(const array& a);
  // Shuffles the elements of `a` (an array or a view) along its first axis, in place.
  void shuffle(const array& a);

 private:
  array randint_bounds(detail::integer_bound low, detail::integer_bound high, const shape& size,
                       dtype t);
  std::unique_ptr<detail::generator_state> state_;
};

// The default generator of the current device and stream, made on first use; a jet::stream's
// is destroyed with the stream (a later one starts afresh, with the next derived seed).
generator& default_generator();
// Reseeds every default generator: the one of device 0's legacy stream takes `n` itself, so
// that it draws what generator(n) draws; the others take seeds derived from `n`.
void seed(std::uint64_t n);

// The same draws from the default generator.
inline expr rand(const shape& size = {}, dtype t = float64) {
  return default_generator().rand(size, t);
}
inline expr random(const shape& size = {}, dtype t = float64) {
  return default_generator().rand(size, t);
}
inline expr uniform(double low = 0.0, double high = 1.0, const shape& size = {},
                    dtype t = float64) {
  return default_generator().uniform(low, high, size, t);
}
inline expr randn(const shape& size = {}, dtype t = float64) {
  return default_generator().randn(size, t);
}
inline expr standard_normal(const shape& size = {}, dtype t = float64) {
  return default_generator().randn(size, t);
}
inline expr normal(double loc = 0.0, double scale = 1.0, const shape& size = {},
                   dtype t = float64) {
  return default_generator().normal(loc, scale, size, t);
}
inline expr lognormal(double mean = 0.0, double sigma = 1.0, const shape& size = {},
                      dtype t = float64) {
  return default_generator().lognormal(mean, sigma, size, t);
}
inline expr exponential(double scale = 1.0, const shape& size = {}, dtype t = float64) {
  return default_generator().exponential(scale, size, t);
}
inline array gamma(double k, double theta = 1.0, const shape& size = {}, dtype t = float64) {
  return default_generator().gamma(k, theta, size, t);
}
inline array beta(double a, double b, const shape& size = {}, dtype t = float64) {
  return default_generator().beta(a, b, size, t);
}
inline array poisson(double lam = 1.0, const shape& size = {}) {
  return default_generator().poisson(lam, size);
}
inline array binomial(std::int64_t n, double p, const shape& size = {}) {
  return default_generator().binomial(n, p, size);
}
template <std::integral L, std::integral H>
array randint(L low, H high, const shape& size = {}, dtype t = int64) {
  return default_generator().randint(low, high, size, t);
}
template <std::integral H>
array randint(H high, const shape& size = {}, dtype t = int64) {
  return default_generator().randint(high, size, t);
}
template <std::integral L, std::integral H>
array integers(L low, H high, const shape& size = {}, dtype t = int64) {
  return default_generator().randint(low, high, size, t);
}
inline array choice(std::int64_t a, const shape& size = {}, bool replace = true,
                    const std::vector<double>& p = {}) {
  return default_generator().choice(a, size, replace, p);
}
inline array choice(const array& a, const shape& size = {}, bool replace = true,
                    const std::vector<double>& p = {}) {
  return default_generator().choice(a, size, replace, p);
}
inline array permutation(std::int64_t n) { return default_generator().permutation(n); }
inline array permutation(const array& a) { return default_generator().permutation(a); }
inline void shuffle(const array& a) { default_generator().shuffle(a); }

}  // namespace jet::random
