// Continuous distributions: expressions over the generator's uniform and normal draws, which
// the kernel that reads them makes (Philox4x32-10) or cuRAND draws into memory; gamma and beta
// by the random kernels. 16-bit floats are computed in float32 (beta in float64) and rounded
// at the end.
#include <fmt/format.h>

#include <cmath>

#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "src/random/kernels.hpp"
#include "src/random/state.hpp"

namespace jet::random {

namespace {
using jet::detail::random_dist;
}

expr generator::rand(const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("rand", t);
  if (compute != t) {
    // NumPy's construction at the 16-bit type's precision: the top `bits` bits of a word over
    // 2^bits. Every k / 2^bits is exact in float16 (11 bits) and bfloat16 (8 bits), so
    // rounding never makes 1.0.
    const int bits = t == float16 ? 11 : 8;
    const expr words = detail::draw(*state_, random_dist::words, size, uint32);
    return astype(astype(words >> (32 - bits), float32) * (1.0f / static_cast<float>(1 << bits)),
                  t);
  }
  return detail::draw(*state_, random_dist::uniform, size, t);
}

expr generator::uniform(double low, double high, const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("uniform", t);
  if (!std::isfinite(high - low))
    throw value_error(
        fmt::format("uniform: high - low is not finite (low {}, high {})", low, high));
  const expr unit = detail::draw(*state_, random_dist::uniform, size, compute);
  return astype(low + (high - low) * unit, t);
}

expr generator::randn(const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("randn", t);
  return astype(detail::draw(*state_, random_dist::normal, size, compute), t);
}

expr generator::normal(double loc, double scale, const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("normal", t);
  detail::check_non_negative("normal", "scale", scale, true);
  const expr z = detail::draw(*state_, random_dist::normal, size, compute);
  return astype(loc + scale * z, t);
}

expr generator::lognormal(double mean, double sigma, const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("lognormal", t);
  detail::check_non_negative("lognormal", "sigma", sigma, true);
  const expr z = detail::draw(*state_, random_dist::normal, size, compute);
  return astype(exp(mean + sigma * z), t);
}

expr generator::exponential(double scale, const shape& size, dtype t) {
  const dtype compute = detail::compute_dtype("exponential", t);
  detail::check_non_negative("exponential", "scale", scale, true);
  const expr unit = detail::draw(*state_, random_dist::uniform, size, compute);
  // Inversion: -log(1 - u) with u in [0, 1) is finite, and log1p keeps small values exact.
  return astype(-log1p(-unit) * scale, t);
}

array generator::gamma(double k, double theta, const shape& size, dtype t) {
  detail::compute_dtype("gamma", t);
  detail::check_non_negative("gamma", "shape", k, false);
  detail::check_non_negative("gamma", "scale", theta, false);
  const std::int64_t n = detail::element_count(size);
  if (n == 0 || k == 0 || theta == 0) return zeros(size, t);
  if (t == float64) {
    const array x = empty(size, float64);
    detail::launch_gamma(x, detail::draw_key(*state_), k, theta);
    return x;
  }
  const array x = empty(size, float32);  // single precision for float32 and 16-bit results
  detail::launch_gamma_f32(x, detail::draw_key(*state_), k, theta);
  return t == float32 ? x : x.astype(t);
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
