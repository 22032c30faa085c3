// NumPy's sort order on the host, for the GPU tests of sorts and selections: the stable
// argsort of values along an axis (or flattened) and the values it orders.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numeric>
#include <optional>
#include <vector>

#include "gpu/samples.hpp"

namespace jet_test {

// Ties, zeros of both signs, infinities and NaN among the values.
inline const domain ties{
    .lo = -3, .hi = 3, .integral = true, .specials = true, .integers = int_range{-3, 3}};

// NumPy's sort order: NaN last; complex numbers by their NaN class (R + Rj, R + nan j,
// nan + Rj, nan + nan j), then by the parts that are not NaN, real first.
inline bool numpy_less(cdouble a, cdouble b, bool complex) {
  if (!complex) {
    if (std::isnan(a.real())) return false;
    if (std::isnan(b.real())) return true;
    return a.real() < b.real();
  }
  const auto nan_class = [](cdouble z) { return 2 * std::isnan(z.real()) + std::isnan(z.imag()); };
  const int ca = nan_class(a), cb = nan_class(b);
  if (ca != cb) return ca < cb;
  if (ca == 0) return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  if (ca == 1) return a.real() < b.real();
  if (ca == 2) return a.imag() < b.imag();
  return false;
}

// The stable argsort of `values` (C order over `s`) along `axis` (none: flattened), as NumPy
// lays it out: positions along the axis in a's shape, or flat positions.
inline std::vector<std::int64_t> reference_argsort(const std::vector<cdouble>& values,
                                                   const jet::shape& s, std::optional<int> axis,
                                                   bool complex) {
  const auto less = [&](std::int64_t i, std::int64_t j) {
    return numpy_less(values[i], values[j], complex);
  };
  std::vector<std::int64_t> out(values.size());
  if (!axis) {
    std::iota(out.begin(), out.end(), 0);
    std::stable_sort(out.begin(), out.end(), less);
    return out;
  }
  const std::int64_t length = s[*axis],
                     inner = jet::shape(s).product() / std::max<std::int64_t>(1, s[*axis]);
  std::int64_t stride = 1;
  for (int d = s.size() - 1; d > *axis; --d) stride *= s[d];
  for (std::int64_t row = 0; row < inner; ++row) {
    const std::int64_t base = row / stride * stride * length + row % stride;
    std::vector<std::int64_t> p(length);
    for (std::int64_t k = 0; k < length; ++k) p[k] = base + k * stride;
    std::stable_sort(p.begin(), p.end(), less);
    for (std::int64_t k = 0; k < length; ++k) out[base + k * stride] = (p[k] - base) / stride;
  }
  return out;
}

// The values in the order `order` gives them (as reference_argsort lays it out).
inline std::vector<cdouble> reordered(const std::vector<cdouble>& values, const jet::shape& s,
                                      std::optional<int> axis,
                                      const std::vector<std::int64_t>& order) {
  if (!axis) {
    std::vector<cdouble> out;
    for (std::int64_t p : order) out.push_back(values[p]);
    return out;
  }
  std::int64_t stride = 1;
  for (int d = s.size() - 1; d > *axis; --d) stride *= s[d];
  std::vector<cdouble> out(values.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::int64_t k = static_cast<std::int64_t>(i) / stride % s[*axis];
    out[i] = values[i + (order[i] - k) * stride];
  }
  return out;
}

inline std::vector<std::int64_t> positions(const jet::array& a) {
  return a.astype(jet::int64).to_vector<std::int64_t>();
}

}  // namespace jet_test
