// median, quantile and percentile (and their nan-forms): each slice sorted (NaN last), then one
// kernel that picks or interpolates between the order statistics NumPy's method names, with
// NumPy's arithmetic and dtypes (its _quantile and _lerp).
#include <array>
#include <cmath>
#include <string>

#include "codegen/core/axes.hpp"
#include "jet/error.hpp"
#include "jet/indexing.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "jet/sorting.hpp"
#include "jet/statistics.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/statistics/rounded.hpp"

namespace jet {
namespace {

// The slices a reduction over `axis` sorts: `rows` (S, n) sorted along its rows, the kept shape
// and the shape keepdims gives.
struct sorted_slices {
  array rows;
  shape kept, with_ones;
  std::int64_t n = 0;
};

sorted_slices sort_slices(const expr& a, const axes& axis) {
  const std::uint32_t mask = detail::axis_mask(axis, a.ndim());
  shape order;
  sorted_slices s;
  s.with_ones = a.shape();
  for (int d = 0; d < a.ndim(); ++d)
    if (!(mask >> d & 1)) order.push_back(d), s.kept.push_back(a.shape()[d]);
  s.n = 1;
  for (int d = 0; d < a.ndim(); ++d)
    if (mask >> d & 1) order.push_back(d), s.n *= a.shape()[d], s.with_ones[d] = 1;
  const array moved = ascontiguousarray(detail::as_array(a).transpose(order));
  s.rows = sort(moved.reshape({s.kept.product(), s.n}), 1);
  return s;
}

// The order statistic at `k` (an int64 expression over the slices, (S, 1) or 0-d) of each
// sorted slice, as (S, 1).
expr at(const sorted_slices& s, const expr& k) {
  array positions = empty({s.kept.product(), 1}, int64);
  positions(ellipsis) = k.astype(int64);
  return take_along_axis(s.rows, positions, 1);
}

// Each slice's last value (S, 1): NaN when the slice holds one.
expr last(const sorted_slices& s) { return s.rows(slice(), slice(s.n - 1, s.n)); }

// ---- NumPy's quantile methods: each turns the count n of a slice and q into a virtual index,
// and either picks the order statistic at a whole index (discrete) or interpolates with gamma.

// NumPy's _compute_virtual_index: n q + (alpha + q (1 - alpha - beta)) - 1.
expr virtual_index(const expr& n, const expr& q, double alpha, double beta) {
  return n * q + (alpha + q * (1 - alpha - beta)) - 1;
}

// (n - 1) q, in q's dtype: NumPy's n is a Python int, exact until it meets q (n - 1 of Jet's
// scalars would be int64, which takes a float32 q to float64).
expr last_index_times(const expr& n, const expr& q) { return (n - 1).astype(q.dtype()) * q; }

// NumPy's _discrete_interpolation_to_boundaries: floor(index), or the next where `previous` does
// not hold; never below 0.
expr to_boundaries(const expr& index, bool odd_rule) {
  const expr previous = floor(index);
  const expr gamma = index - previous;
  const expr take_previous =
      odd_rule ? logical_and(gamma == 0, remainder(previous, 2) == 1) : gamma == 0;
  const expr k = where(take_previous, previous, previous + 1).astype(int64);
  return where(k < 0, 0, k);
}

struct method {
  std::string_view name;
  // The virtual index; for a discrete method the index itself (int64).
  expr (*index)(const expr& n, const expr& q);
  bool discrete;
  // gamma as the method fixes it (gamma, virtual index); null: unchanged.
  expr (*fix_gamma)(const expr& gamma, const expr& index) = nullptr;
};

const std::array<method, 13> methods = {{
    {"inverted_cdf", [](const expr& n, const expr& q) { return to_boundaries(n * q - 1, false); },
     true},
    {"averaged_inverted_cdf", [](const expr& n, const expr& q) { return n * q - 1; }, false,
     [](const expr& g, const expr&) { return where(g == 0, 0.5, 1.0).astype(g.dtype()); }},
    {"closest_observation",
     [](const expr& n, const expr& q) { return to_boundaries(n * q - 1 - 0.5, true); }, true},
    {"interpolated_inverted_cdf",
     [](const expr& n, const expr& q) { return virtual_index(n, q, 0, 1); }, false},
    {"hazen", [](const expr& n, const expr& q) { return virtual_index(n, q, 0.5, 0.5); }, false},
    {"weibull", [](const expr& n, const expr& q) { return virtual_index(n, q, 0, 0); }, false},
    {"linear", last_index_times, false},
    {"median_unbiased",
     [](const expr& n, const expr& q) { return virtual_index(n, q, 1 / 3.0, 1 / 3.0); }, false},
    {"normal_unbiased",
     [](const expr& n, const expr& q) { return virtual_index(n, q, 3 / 8.0, 3 / 8.0); }, false},
    {"lower",
     [](const expr& n, const expr& q) { return floor(last_index_times(n, q)).astype(int64); },
     true},
    {"higher",
     [](const expr& n, const expr& q) { return ceil(last_index_times(n, q)).astype(int64); }, true},
    {"midpoint",
     [](const expr& n, const expr& q) {
       return 0.5 * (floor(last_index_times(n, q)) + ceil(last_index_times(n, q)));
     },
     false,
     [](const expr& g, const expr& index) {
       return where(remainder(index, 1) == 0, 0.0, 0.5).astype(g.dtype());
     }},
    {"nearest",
     [](const expr& n, const expr& q) { return rint(last_index_times(n, q)).astype(int64); }, true},
}};

const method& method_named(std::string_view name) {
  for (const method& m : methods)
    if (m.name == name) return m;
  std::string names;
  for (const method& m : methods)
    names += (names.empty() ? "'" : ", '") + std::string(m.name) + "'";
  throw value_error("'" + std::string(name) + "' is not a valid method. Use one of: dict_keys([" +
                    names + "])");
}

// NumPy's _lerp: a + (b - a) t, or b - (b - a)(1 - t) where t >= 0.5.
expr lerp(const expr& a, const expr& b, const expr& t) {
  const expr step = b - a;
  return where(t >= 0.5, b - step * (1 - t), a + step * t);
}

// The quantile q (an expression of q's dtype) of each slice, whose count of values is `count`
// (NumPy's Python int n, or a slice's count of non-NaN values).
expr quantile_of(const sorted_slices& s, const method& m, const expr& q, const expr& count) {
  const expr index = m.index(count, q);
  if (m.discrete) return at(s, index);
  // NumPy's _get_indexes and _get_gamma: past the last value, the last (gamma counted from -1,
  // as NumPy's position -1); before the first, the first.
  const expr above = index >= count - 1, below = index < 0;
  const expr top = where(count > 0, count - 1, 0).astype(int64);
  const expr previous = floor(index);
  const expr lo = where(above, top, where(below, 0, previous.astype(int64)));
  const expr hi = where(above, top, where(below, 0, (previous + 1).astype(int64)));
  expr gamma = index - where(above, -1, where(below, 0, previous)).astype(index.dtype());
  if (m.fix_gamma) gamma = m.fix_gamma(gamma, index);
  return lerp(at(s, lo), at(s, hi), gamma);
}

// The dtype NumPy computes a quantile's q in: a's, for a float a and a scalar q (a Python
// float); float64 otherwise.
dtype q_dtype(const expr& a, bool scalar_q) {
  return scalar_q && is_floating(a.dtype()) ? a.dtype() : float64;
}

void check_real(const expr& a) {
  if (is_complex(a.dtype())) throw dtype_error("a must be an array of real numbers");
}

// What a quantile function takes q as: a fraction or a percentage (NumPy divides those by 100
// in q's dtype), of all values or of the non-NaN ones.
struct quantile_kind {
  bool skip_nan;
  double scale;
  const char* range_error;
};
constexpr quantile_kind fractions{false, 1, "Quantiles must be in the range [0, 1]"};
constexpr quantile_kind nan_fractions{true, 1, "Quantiles must be in the range [0, 1]"};
constexpr quantile_kind percents{false, 100, "Percentiles must be in the range [0, 100]"};
constexpr quantile_kind nan_percents{true, 100, "Percentiles must be in the range [0, 100]"};

// Quantiles of `a` over `axis` at each q, as `kind` takes them.
array quantiles(const expr& a, const std::vector<double>& q, bool scalar_q, const axes& axis,
                std::string_view method_name, bool keepdims, const quantile_kind& kind) {
  check_real(a);
  const dtype t = q_dtype(a, scalar_q);
  std::vector<double> fractions;
  for (double v : q) {
    const double f = detail::rounded(detail::rounded(v, t) / kind.scale, t);
    if (!(f >= 0 && f <= 1)) throw value_error(kind.range_error);
    fractions.push_back(f);
  }
  const method& m = method_named(method_name);
  if (a.dtype() == bool_ && !m.discrete)
    throw dtype_error(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
        "operator, or the logical_xor function instead.");
  const sorted_slices s = sort_slices(a, axis);
  const bool nan_aware = is_inexact(a.dtype());
  const shape& kept = keepdims ? s.with_ones : s.kept;
  shape out{static_cast<std::int64_t>(q.size())};
  for (std::int64_t e : kept) out.push_back(e);
  if (s.n == 0) {  // NumPy indexes the empty slices (an error), or gives NaN for no values
    if (!kind.skip_nan || !nan_aware)
      throw index_error("index -1 is out of bounds for axis 0 with size 0");
    return full(scalar_q ? kept : out, NAN, a.dtype());
  }
  const expr count =
      kind.skip_nan && nan_aware ? count_nonzero(!isnan(s.rows), 1, true).astype(t) : expr(s.n);
  std::vector<expr> results;
  for (double f : fractions) {
    expr r = quantile_of(s, m, expr(f).astype(t), count);
    if (nan_aware && kind.skip_nan)
      r = where(count == 0, NAN, r);
    else if (nan_aware)
      r = where(isnan(last(s)), last(s), r);
    results.push_back(r);
  }
  if (scalar_q) return results[0].eval().reshape(kept);
  return stack(results).reshape(out);
}

}  // namespace

array quantile(const expr& a, double q, axes axis, std::string_view method, bool keepdims) {
  return quantiles(a, {q}, true, axis, method, keepdims, fractions);
}
array quantile(const expr& a, const std::vector<double>& q, axes axis, std::string_view method,
               bool keepdims) {
  return quantiles(a, q, false, axis, method, keepdims, fractions);
}
array nanquantile(const expr& a, double q, axes axis, std::string_view method, bool keepdims) {
  return quantiles(a, {q}, true, axis, method, keepdims, nan_fractions);
}
array nanquantile(const expr& a, const std::vector<double>& q, axes axis, std::string_view method,
                  bool keepdims) {
  return quantiles(a, q, false, axis, method, keepdims, nan_fractions);
}
array percentile(const expr& a, double q, axes axis, std::string_view method, bool keepdims) {
  return quantiles(a, {q}, true, axis, method, keepdims, percents);
}
array percentile(const expr& a, const std::vector<double>& q, axes axis, std::string_view method,
                 bool keepdims) {
  return quantiles(a, q, false, axis, method, keepdims, percents);
}
array nanpercentile(const expr& a, double q, axes axis, std::string_view method, bool keepdims) {
  return quantiles(a, {q}, true, axis, method, keepdims, nan_percents);
}
array nanpercentile(const expr& a, const std::vector<double>& q, axes axis, std::string_view method,
                    bool keepdims) {
  return quantiles(a, q, false, axis, method, keepdims, nan_percents);
}

array median(const expr& a, axes axis, bool keepdims) {
  const sorted_slices s = sort_slices(a, axis);
  // NumPy's mean of the one or two middle values, NaN where a slice holds NaN.
  const std::int64_t lo = s.n > 0 ? (s.n - 1) / 2 : 0, hi = s.n / 2 + (s.n > 0);
  expr m = mean(s.rows(slice(), slice(lo, hi)), 1, true);
  if (is_inexact(a.dtype()) && s.n > 0) m = where(isnan(last(s)), last(s), m);
  return m.eval().reshape(keepdims ? s.with_ones : s.kept);
}

array nanmedian(const expr& a, axes axis, bool keepdims) {
  if (!is_inexact(a.dtype())) return median(a, axis, keepdims);
  const sorted_slices s = sort_slices(a, axis);
  if (s.n == 0) return median(a, axis, keepdims);  // NaN, as NumPy's mean of nothing
  // The one or two middle values of each slice's non-NaN ones (NaN sorts last).
  const expr count = count_nonzero(!isnan(s.rows), 1, true);
  const expr lo = where(count > 0, floor_divide(count - 1, 2), 0);
  const expr hi = floor_divide(count, 2);
  const expr low = at(s, lo), high = at(s, where(count > 0, hi, 0));
  // As NumPy's mean of the two: float16 and bfloat16 add in float32.
  const dtype t = mean(s.rows, 1).dtype();
  const dtype sum_t = t == float16 || t == bfloat16 ? float32 : t;
  const expr both = ((low.astype(sum_t) + high.astype(sum_t)) / 2).astype(t);
  const expr m = where(count == 0, NAN, where(lo == hi, low.astype(t), both));
  return m.eval().reshape(keepdims ? s.with_ones : s.kept);
}

}  // namespace jet
