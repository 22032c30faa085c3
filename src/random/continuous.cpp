// Continuous distributions: cuRAND's uniform, normal and lognormal draws, transformed by one
// fused Jet kernel where NumPy's distribution is not cuRAND's own; gamma and beta by the
// random kernels. 16-bit floats are computed in float32 (gamma and beta in float64) and
// rounded at the end.
#include <fmt/format.h>

#include <cmath>

#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "src/random/kernels.hpp"
#include "src/random/state.hpp"

namespace jet::random {

array generator::rand(const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("rand", t);
  const std::int64_t n = detail::element_count(size);
  if (n == 0) return empty(size, t);
  if (compute != t) {
    // NumPy's construction at the 16-bit type's precision: the top `bits` bits of a word over
    // 2^bits. Every k / 2^bits is exact in float16 (11 bits) and bfloat16 (8 bits), so
    // rounding never makes 1.0.
    const int bits = t == float16 ? 11 : 8;
    const array words = detail::draw_words(*state_, n).reshape(size);
    return astype(astype(words >> (32 - bits), float32) * (1.0f / static_cast<float>(1 << bits)),
                  t);
  }
  array unit = detail::draw_unit(*state_, n, t).reshape(size);
  std::move(unit) = detail::half_open(unit);  // in place: each element reads only itself
  return unit;
}

array generator::uniform(double low, double high, const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("uniform", t);
  if (!std::isfinite(high - low))
    throw value_error(
        fmt::format("uniform: high - low is not finite (low {}, high {})", low, high));
  const std::int64_t n = detail::element_count(size);
  if (n == 0) return empty(size, t);
  const array unit = detail::draw_unit(*state_, n, compute).reshape(size);
  return astype(low + (high - low) * detail::half_open(unit), t);
}

array generator::randn(const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("randn", t);
  const array z = detail::draw_normal(*state_, size, compute, 0.0, 1.0, false);
  return compute == t ? z : z.astype(t);
}

array generator::normal(double loc, double scale, const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("normal", t);
  detail::check_non_negative("normal", "scale", scale, true);
  // No draw: cuRAND documents no stddev of zero.
  if (scale == 0) return full(size, loc, t);
  const array x = detail::draw_normal(*state_, size, compute, loc, scale, false);
  return compute == t ? x : x.astype(t);
}

array generator::lognormal(double mean, double sigma, const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("lognormal", t);
  detail::check_non_negative("lognormal", "sigma", sigma, true);
  if (sigma == 0) return full(size, std::exp(mean), t);
  const array x = detail::draw_normal(*state_, size, compute, mean, sigma, true);
  return compute == t ? x : x.astype(t);
}

array generator::exponential(double scale, const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("exponential", t);
  detail::check_non_negative("exponential", "scale", scale, true);
  const std::int64_t n = detail::element_count(size);
  if (n == 0) return empty(size, t);
  const array unit = detail::draw_unit(*state_, n, compute).reshape(size);
  // Inversion: -log(1 - u) with u in [0, 1) is finite, and log1p keeps small values exact.
  return astype(-log1p(-detail::half_open(unit)) * scale, t);
}

array generator::gamma(double k, double theta, const shape& size, dtype t) {
  detail::compute_dtype("gamma", t);
  detail::check_non_negative("gamma", "shape", k, false);
  detail::check_non_negative("gamma", "scale", theta, false);
  const std::int64_t n = detail::element_count(size);
  if (n == 0 || k == 0 || theta == 0) return zeros(size, t);
  const array x = empty(size, float64);
  detail::launch_gamma(x, detail::draw_key(*state_), k, theta);
  return t == float64 ? x : x.astype(t);
}

array generator::beta(double a, double b, const shape& size, dtype t) {
  detail::compute_dtype("beta", t);
  if (!(a > 0)) throw value_error(fmt::format("beta: a <= 0 (got {})", a));
  if (!(b > 0)) throw value_error(fmt::format("beta: b <= 0 (got {})", b));
  const std::int64_t n = detail::element_count(size);
  if (n == 0) return empty(size, t);
  const array x = empty(size, float64);
  detail::launch_beta(x, detail::draw_key(*state_), a, b);
  return t == float64 ? x : x.astype(t);
}

}  // namespace jet::random
