// Discrete distributions: integers on [low, high) of every integer dtype, Poisson and binomial
// counts.
#include <fmt/format.h>

#include <cmath>
#include <string>

#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "src/random/kernels.hpp"
#include "src/random/state.hpp"

namespace jet::random {
namespace {

// Bounds and ranges of randint span 65 bits: [-2^63, 2^64].
__extension__ using wide = __int128;

wide value_of(detail::integer_bound b) {
  return b.above_int64 ? static_cast<wide>(static_cast<std::uint64_t>(b.bits))
                       : static_cast<wide>(b.bits);
}

std::string to_text(wide v) {
  if (v < 0) return std::to_string(static_cast<std::int64_t>(v));
  return std::to_string(static_cast<std::uint64_t>(v));
}

// The smallest and largest value of an integer (or bool) dtype.
std::pair<wide, wide> limits(dtype t) {
  if (t == bool_) return {0, 1};
  const int bits = 8 * itemsize(t);
  if (kind(t) == dtype_kind::unsigned_int) return {0, (static_cast<wide>(1) << bits) - 1};
  return {-(static_cast<wide>(1) << (bits - 1)), (static_cast<wide>(1) << (bits - 1)) - 1};
}

// NumPy's largest Poisson mean: beyond it the counts would not fit in int64.
constexpr double poisson_lam_max = 9.223372006484771e18;

}  // namespace

array generator::randint_bounds(detail::integer_bound low_bound, detail::integer_bound high_bound,
                                const shape& size, dtype t) {
  if (!is_integer(t) && t != bool_)
    throw dtype_error("randint: dtype " + std::string(name(t)) +
                      " is not supported; use an integer dtype or bool");
  const wide low = value_of(low_bound), high = value_of(high_bound);
  const auto [lowest, highest] = limits(t);
  const std::string type(name(t));
  if (low < lowest)
    throw value_error("randint: low " + to_text(low) + " is out of bounds for " + type);
  if (high > highest + 1)
    throw value_error("randint: high " + to_text(high) + " is out of bounds for " + type);
  if (low >= high)
    throw value_error("randint: low >= high (low " + to_text(low) + ", high " + to_text(high) +
                      ")");
  const std::int64_t n = detail::element_count(size);
  if (n == 0) return empty(size, t);
  const wide range = high - low;
  // Sums are taken modulo 2^64 and cast to `t`, which is exact for every value in [low, high).
  const auto low_bits = static_cast<std::uint64_t>(low);
  if (range <= (static_cast<wide>(1) << 32)) {
    // floor(w * range / 2^64) of a 64-bit word w, from its 32-bit halves in one fused kernel:
    // a value's share of words differs from 1/range by under 2^-32 relative, far below what
    // any test of 2^64 / 2^32 draws could see, and with no rejection loop.
    const auto r = static_cast<std::uint64_t>(range);
    const expr w = detail::draw_words64(*state_, n).reshape(size);
    const expr below = ((w >> 32) * r + (((w & 0xffffffffull) * r) >> 32)) >> 32;
    return astype(below + low_bits, t);
  }
  // Wider ranges (64-bit dtypes only): Lemire's exact rejection in a random kernel.
  const array x = empty(size, uint64);
  detail::launch_below(
      x, detail::draw_key(*state_), low_bits,
      range == (static_cast<wide>(1) << 64) ? 0 : static_cast<std::uint64_t>(range));
  return t == uint64 ? x : x.astype(t);
}

// cuRAND's own Poisson (curandGeneratePoisson) caps lambda at 400,000 and approximates large
// means by a rounded normal, which a chi-square test at 10^7 draws rejects; Jet's kernel is
// exact at every mean NumPy accepts.
array generator::poisson(double lam, const shape& size) {
  if (!(lam >= 0)) throw value_error(fmt::format("poisson: lam < 0 or lam is NaN (got {})", lam));
  if (lam > poisson_lam_max)
    throw value_error(fmt::format("poisson: lam value too large (got {})", lam));
  const std::int64_t n = detail::element_count(size);
  if (n == 0 || lam == 0) return zeros(size, int64);
  const array k = empty(size, int64);
  detail::launch_poisson(k, detail::draw_key(*state_), lam);
  return k;
}

array generator::binomial(std::int64_t n, double p, const shape& size) {
  if (n < 0) throw value_error("binomial: n < 0 (got " + std::to_string(n) + ")");
  if (!(p >= 0 && p <= 1))
    throw value_error(fmt::format("binomial: p < 0, p > 1 or p is NaN (got {})", p));
  const std::int64_t count = detail::element_count(size);
  if (count == 0 || n == 0 || p == 0) return zeros(size, int64);
  if (p == 1) return full(size, n, int64);
  const array k = empty(size, int64);
  detail::launch_binomial(k, detail::draw_key(*state_), n, p);
  return k;
}

}  // namespace jet::random
