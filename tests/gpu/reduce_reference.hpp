// Host references for the reduction tests: NumPy's reductions computed in long double over the
// groups of elements an axis spec reduces, each with the error the device result may carry, and
// the comparison that allows for it.
#pragma once

#include <cfloat>
#include <cmath>
#include <complex>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "gpu/comparison.hpp"
#include "gpu/numpy_semantics.hpp"

namespace jet_test {

// ---- Axis specs --------------------------------------------------------------------------

// NumPy's axis= and keepdims= arguments: every axis, or the axes listed (negative allowed).
struct axis_spec {
  bool every = true;
  std::vector<int> list;
  bool keepdims = false;

  jet::axes to_jet() const {
    if (every) return {};
    switch (list.size()) {
      case 0: return jet::axes(std::initializer_list<int>{});
      case 1: return jet::axes(list[0]);
      case 2: return jet::axes({list[0], list[1]});
      default: return jet::axes({list[0], list[1], list[2]});
    }
  }
  std::string text() const {
    std::string s = "axis=";
    if (every) s += "None";
    for (std::size_t i = 0; i < list.size(); ++i) s += (i ? "," : "(") + std::to_string(list[i]);
    if (!list.empty()) s += ")";
    return s + (keepdims ? ", keepdims" : "");
  }
  // Which axes of an ndim-dimensional input are reduced.
  std::vector<bool> reduced(int ndim) const {
    std::vector<bool> out(static_cast<std::size_t>(ndim), every);
    for (int a : list) out[static_cast<std::size_t>(a < 0 ? a + ndim : a)] = true;
    return out;
  }
  jet::shape result_shape(const jet::shape& s) const {
    const std::vector<bool> r = reduced(s.size());
    jet::shape out;
    for (int d = 0; d < s.size(); ++d)
      if (!r[static_cast<std::size_t>(d)])
        out.push_back(s[d]);
      else if (keepdims)
        out.push_back(1);
    return out;
  }
  // Elements reduced into each output.
  std::int64_t group_size(const jet::shape& s) const {
    const std::vector<bool> r = reduced(s.size());
    std::int64_t n = 1;
    for (int d = 0; d < s.size(); ++d)
      if (r[static_cast<std::size_t>(d)]) n *= s[d];
    return n;
  }
};

inline axis_spec every_axis(bool keepdims = false) { return {true, {}, keepdims}; }
inline axis_spec along(std::vector<int> list, bool keepdims = false) {
  return {false, std::move(list), keepdims};
}

// For each output element in C order, the C-order flat indices of the elements it reduces.
inline std::vector<std::vector<std::int64_t>> groups(const jet::shape& s, const axis_spec& spec) {
  const std::vector<bool> r = spec.reduced(s.size());
  std::int64_t outputs = 1;
  for (int d = 0; d < s.size(); ++d)
    if (!r[static_cast<std::size_t>(d)]) outputs *= s[d];
  std::vector<std::vector<std::int64_t>> out(static_cast<std::size_t>(outputs));
  for (std::int64_t flat = 0; flat < s.product(); ++flat) {
    std::int64_t rest = flat, at = 0, stride = 1;
    for (int d = s.size() - 1; d >= 0; --d) {
      const std::int64_t i = rest % s[d];
      rest /= s[d];
      if (r[static_cast<std::size_t>(d)]) continue;
      at += i * stride;
      stride *= s[d];
    }
    out[static_cast<std::size_t>(at)].push_back(flat);
  }
  return out;
}

// ---- Result dtypes (NumPy 2) -------------------------------------------------------------

// sum, prod, nansum: bool and signed integers give int64, unsigned ones uint64.
template <class T>
using accumulated_t =
    std::conditional_t<std::is_same_v<T, bool> || (is_integer_v<T> && std::is_signed_v<T>),
                       std::int64_t, std::conditional_t<is_integer_v<T>, std::uint64_t, T>>;
// mean, nanmean: bool and integers give float64.
template <class T>
using averaged_t = std::conditional_t<std::is_integral_v<T>, double, T>;
// var, std, linalg.norm: also complex gives its real type.
template <class T>
using spread_t = std::conditional_t<std::is_integral_v<T>, double, typename real_of<T>::type>;

enum class yields { accumulated, averaged, spread, same, index, truth, count };

template <yields Y, class T>
using result_t = std::conditional_t<
    Y == yields::accumulated, accumulated_t<T>,
    std::conditional_t<
        Y == yields::averaged, averaged_t<T>,
        std::conditional_t<
            Y == yields::spread, spread_t<T>,
            std::conditional_t<Y == yields::same, T,
                               std::conditional_t<Y == yields::truth, bool, std::int64_t>>>>>;

// The unit roundoff Jet accumulates T in: float32 for the half types, float64 for integers.
template <class T>
double accumulation_eps() {
  if constexpr (is_half_v<T> || std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>>)
    return FLT_EPSILON / 2;
  else
    return DBL_EPSILON / 2;
}

// ---- Expected values ---------------------------------------------------------------------

// One output's reference value and the absolute error allowed on top of the result dtype's
// relative tolerance (the accumulated rounding of a sum, say).
template <class W>
struct expected {
  W value;
  double slack = 0;
};

using ldouble = long double;
using lcomplex = std::complex<long double>;

template <class W>
auto as_long(W x) {
  if constexpr (is_complex_v<W>)
    return lcomplex(x.real(), x.imag());
  else
    return static_cast<ldouble>(x);
}
inline ldouble square_magnitude(ldouble x) { return x * x; }
inline ldouble square_magnitude(lcomplex x) { return std::norm(x); }
template <class W>
ldouble square_magnitude(W x) {
  return square_magnitude(as_long(x));
}
// A long double (or complex) reference as the wide type of the result's host type R.
template <class R, class L>
wide_t<R> narrow_reference(L x) {
  if constexpr (is_complex_v<R>)
    return cdouble(static_cast<double>(x.real()), static_cast<double>(x.imag()));
  else if constexpr (is_complex_v<wide_t<L>>)
    return static_cast<wide_t<R>>(x.real());
  else
    return static_cast<wide_t<R>>(x);
}

// NumPy orders complex numbers by real part, then imaginary part.
template <class W>
bool ordered_before(W a, W b) {
  if constexpr (is_complex_v<W>)
    return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  else
    return a < b;
}

// ---- References over one group (the values an output reduces, in order) ------------------
//
// Each is called as f(type_tag<R>{}, values, eps): R the result's host type, values of the
// input's wide type, eps the unit roundoff Jet accumulates in.
namespace reduce_ref {

template <class W>
std::vector<W> without_nan(const std::vector<W>& x) {
  std::vector<W> out;
  for (W v : x)
    if (!ref::is_nan(v)) out.push_back(v);
  return out;
}

// The long double (or complex) sum of x and the sum of squared magnitudes.
template <class W>
auto sum_and_squares(const std::vector<W>& x) {
  decltype(as_long(W{})) s{};
  ldouble squares = 0;
  for (W v : x) {
    s += as_long(v);
    squares += square_magnitude(v);
  }
  return std::pair(s, squares);
}

// Sums: integers wrap modulo 2^64 as the int64/uint64 accumulator does; others in long double,
// allowing a rounding error that grows as sqrt(n) with the root sum of squares.
inline constexpr auto sum = []<class R, class W>(type_tag<R>, const std::vector<W>& x, double eps) {
  if constexpr (std::is_integral_v<R>) {
    std::uint64_t s = 0;
    for (W v : x) s += static_cast<std::uint64_t>(static_cast<R>(v));
    return expected<wide_t<R>>{static_cast<R>(s)};
  } else {
    const auto [s, squares] = sum_and_squares(x);
    const double n = static_cast<double>(x.size());
    return expected<wide_t<R>>{narrow_reference<R>(s),
                               4 * eps * std::sqrt(n) * static_cast<double>(std::sqrt(squares))};
  }
};
inline constexpr auto nansum = []<class R, class W>(type_tag<R> r, const std::vector<W>& x,
                                                    double eps) {
  return sum(r, without_nan(x), eps);
};
inline constexpr auto prod = []<class R, class W>(type_tag<R>, const std::vector<W>& x,
                                                  double eps) {
  if constexpr (std::is_integral_v<R>) {
    std::uint64_t p = 1;
    for (W v : x) p *= static_cast<std::uint64_t>(static_cast<R>(v));
    return expected<wide_t<R>>{static_cast<R>(p)};
  } else {
    decltype(as_long(W{})) p{1};
    for (W v : x) p *= as_long(v);
    const wide_t<R> value = narrow_reference<R>(p);
    return expected<wide_t<R>>{value, 2 * eps * static_cast<double>(x.size()) * std::abs(value)};
  }
};
// A sum divided by its count as NumPy's mean does: a complex sum by n + 0i, so that an
// infinite or NaN part makes the other part NaN.
template <class S>
S count_quotient(S s, ldouble n) {
  if constexpr (std::is_same_v<S, lcomplex>)
    return S(s.real() + s.imag() * 0.0L, s.imag() - s.real() * 0.0L) / n;
  else
    return s / n;
}

// Means divide an exact (non-wrapping) sum; no elements give NaN.
inline constexpr auto mean = []<class R, class W>(type_tag<R>, const std::vector<W>& x,
                                                  double eps) {
  const auto [s, squares] = sum_and_squares(x);
  const ldouble n = static_cast<ldouble>(x.size());
  return expected<wide_t<R>>{
      narrow_reference<R>(count_quotient(s, n)),
      static_cast<double>(4 * eps * std::sqrt(n) * std::sqrt(squares) / std::max<ldouble>(n, 1))};
};
inline constexpr auto nanmean = []<class R, class W>(type_tag<R> r, const std::vector<W>& x,
                                                     double eps) {
  return mean(r, without_nan(x), eps);
};

// Variance over n - ddof (NumPy: x / 0 gives inf, 0 / 0 NaN), two passes in long double.
template <class R, class W>
expected<wide_t<R>> variance(const std::vector<W>& x, double eps, int ddof) {
  const auto [s, squares] = sum_and_squares(x);
  const ldouble n = static_cast<ldouble>(x.size());
  const auto mu = s / n;
  ldouble deviations = 0;
  for (W v : x) deviations += square_magnitude(as_long(v) - mu);
  const ldouble divisor = std::max<ldouble>(n - ddof, 0);
  return {static_cast<wide_t<R>>(deviations / divisor),
          static_cast<double>(8 * eps * std::sqrt(n) * squares / std::max<ldouble>(divisor, 1))};
}
template <class R, class W>
expected<wide_t<R>> deviation(const std::vector<W>& x, double eps, int ddof) {
  const expected<wide_t<R>> v = variance<R>(x, eps, ddof);
  const double root = std::sqrt(static_cast<double>(v.value));
  // sqrt(v + d) - sqrt(v) is at most sqrt(d), and at most d / (2 sqrt(v)).
  return {static_cast<wide_t<R>>(root), std::min(std::sqrt(v.slack), v.slack / (2 * root))};
}
inline auto var_ddof(int ddof) {
  return [ddof]<class R, class W>(type_tag<R>, const std::vector<W>& x, double eps) {
    return variance<R>(x, eps, ddof);
  };
}
inline auto std_ddof(int ddof) {
  return [ddof]<class R, class W>(type_tag<R>, const std::vector<W>& x, double eps) {
    return deviation<R>(x, eps, ddof);
  };
}
inline const auto var = var_ddof(0);
inline const auto std_dev = std_ddof(0);

// The index of the first extreme, or of the first NaN (NaN wins); x is not empty.
template <bool Max, class W>
std::int64_t extreme_index(const std::vector<W>& x) {
  std::size_t best = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (ref::is_nan(x[i])) return static_cast<std::int64_t>(i);
    if (Max ? ordered_before(x[best], x[i]) : ordered_before(x[i], x[best])) best = i;
  }
  return static_cast<std::int64_t>(best);
}
template <class W>
W at(const std::vector<W>& x, std::int64_t i) {
  return x[static_cast<std::size_t>(i)];
}
inline constexpr auto min = []<class R, class W>(type_tag<R>, const std::vector<W>& x, double) {
  return expected<wide_t<R>>{at(x, extreme_index<false>(x))};
};
inline constexpr auto max = []<class R, class W>(type_tag<R>, const std::vector<W>& x, double) {
  return expected<wide_t<R>>{at(x, extreme_index<true>(x))};
};
inline constexpr auto argmin = []<class R, class W>(type_tag<R>, const std::vector<W>& x, double) {
  return expected<wide_t<R>>{extreme_index<false>(x)};
};
inline constexpr auto argmax = []<class R, class W>(type_tag<R>, const std::vector<W>& x, double) {
  return expected<wide_t<R>>{extreme_index<true>(x)};
};
// Extremes of the non-NaN elements; NaN when there are none.
inline constexpr auto nanmin = []<class R, class W>(type_tag<R> r, const std::vector<W>& x,
                                                    double eps) {
  const std::vector<W> kept = without_nan(x);
  return kept.empty() ? expected<wide_t<R>>{at(x, 0)} : min(r, kept, eps);
};
inline constexpr auto nanmax = []<class R, class W>(type_tag<R> r, const std::vector<W>& x,
                                                    double eps) {
  const std::vector<W> kept = without_nan(x);
  return kept.empty() ? expected<wide_t<R>>{at(x, 0)} : max(r, kept, eps);
};
// max - min in the input's dtype: integers wrap, as NumPy's do.
inline constexpr auto ptp = []<class R, class W>(type_tag<R>, const std::vector<W>& x, double) {
  return expected<wide_t<R>>{
      ref::subtract(at(x, extreme_index<true>(x)), at(x, extreme_index<false>(x)))};
};

inline constexpr auto all = []<class R, class W>(type_tag<R>, const std::vector<W>& x, double) {
  bool out = true;
  for (W v : x) out = out && ref::truth(v);
  return expected<bool>{out};
};
inline constexpr auto any = []<class R, class W>(type_tag<R>, const std::vector<W>& x, double) {
  bool out = false;
  for (W v : x) out = out || ref::truth(v);
  return expected<bool>{out};
};
inline constexpr auto count_nonzero = []<class R, class W>(type_tag<R>, const std::vector<W>& x,
                                                           double) {
  std::int64_t out = 0;
  for (W v : x) out += ref::truth(v) ? 1 : 0;
  return expected<std::int64_t>{out};
};

}  // namespace reduce_ref

// The reference of a reduction over `values` (the input's elements in C order, shape s).
template <class R, class W, class Ref>
std::vector<expected<wide_t<R>>> reduce_reference(const std::vector<W>& values, const jet::shape& s,
                                                  const axis_spec& spec, Ref&& reduce, double eps) {
  std::vector<expected<wide_t<R>>> out;
  std::vector<W> group;
  for (const std::vector<std::int64_t>& indices : groups(s, spec)) {
    group.clear();
    for (std::int64_t i : indices) group.push_back(values[static_cast<std::size_t>(i)]);
    out.push_back(reduce(type_tag<R>{}, group, eps));
  }
  return out;
}

template <class T>
std::vector<wide_t<T>> wide_values(const host_values<T>& h) {
  std::vector<wide_t<T>> out;
  out.reserve(static_cast<std::size_t>(h.size()));
  for (std::int64_t i = 0; i < h.size(); ++i) out.push_back(widen(h[i]));
  return out;
}

// ---- Comparison --------------------------------------------------------------------------

// "" when every element of `got` is within its expected value's allowance; else the first miss.
template <class R>
std::string reduce_mismatch(const jet::array& got, const std::vector<expected<wide_t<R>>>& want) {
  if (std::string m = dtype_or_size_mismatch<R>(got, want.size()); !m.empty()) return m;
  const host_values<R> host = download<R>(got);
  const double rtol = tolerance(got.dtype()), overflow = overflow_threshold(got.dtype());
  std::int64_t bad = 0, first = -1;
  for (std::int64_t i = 0; i < host.size(); ++i) {
    const expected<wide_t<R>>& w = want[static_cast<std::size_t>(i)];
    const wide_t<R> g = widen(host[i]);
    bool ok;
    if constexpr (std::is_integral_v<wide_t<R>>)
      ok = g == w.value;
    else if (ref::is_finite(w.value) && std::abs(w.value) < overflow)
      ok = std::abs(g - w.value) <= rtol * std::abs(w.value) + w.slack;
    else
      ok = close(g, w.value, rtol, 1.0, overflow);  // NaN and infinities match exactly
    if (!ok && bad++ == 0) first = i;
  }
  if (bad == 0) return {};
  const expected<wide_t<R>>& w = want[static_cast<std::size_t>(first)];
  std::ostringstream s;
  s << bad << " of " << host.size() << " elements differ; the first at "
    << multi_index(got.shape(), first) << ": got " << show(widen(host[first])) << ", want "
    << show(w.value) << " (" << jet::name(got.dtype()) << ", rtol " << rtol << ", slack " << w.slack
    << ")";
  return s.str();
}

// Evaluates `e` into a poisoned output of its shape, then checks every element.
template <class R>
void check_reduced(const jet::expr& e, const std::vector<expected<wide_t<R>>>& want) {
  CHECK(jet::name(e.dtype()) == jet::name(jet::dtype_of<R>()));
  if (e.dtype() != jet::dtype_of<R>()) return;
  for (const jet::expr& poison : poisons<R>()) {
    jet::array out = jet::full(e.shape(), poison, e.dtype());
    std::move(out) = e;
    const std::string m = reduce_mismatch<R>(out, want);
    INFO(m);
    CHECK(m.empty());
  }
}

// ---- The reductions under test -----------------------------------------------------------

using reduce_fn = jet::expr (*)(const jet::expr&, jet::axes, bool);

// One reduction: what it yields, the dtype kinds it takes (B | I | F | C), its reference and
// the inputs that exercise it.
template <yields Y, unsigned Kinds, class Ref>
struct reduction {
  std::string_view name;
  reduce_fn apply;
  Ref reference;
  domain inputs;
  bool one_axis = false;       // argmin, argmax: one axis or none
  bool refuses_empty = false;  // NumPy raises when an output has nothing to reduce
};
template <yields Y, unsigned Kinds, class Ref>
reduction<Y, Kinds, Ref> reducer(std::string_view name, reduce_fn apply, Ref reference,
                                 domain inputs = {}, bool one_axis = false,
                                 bool refuses_empty = false) {
  return {name, apply, reference, inputs, one_axis, refuses_empty};
}

// Products stay in range; small integers make ties; zeros turn up for the truth tests.
inline const domain product_inputs{
    .lo = 0.7, .hi = 1.4, .integers = int_range{-3, 3}, .nonzero = true};
inline const domain truth_inputs{
    .lo = -0.4, .hi = 6, .integral = true, .integers = int_range{0, 8}};

inline auto accumulating_reductions() {
  using namespace reduce_ref;
  constexpr unsigned all_kinds = B | I | F | C;
  return std::make_tuple(
      reducer<yields::accumulated, all_kinds>(
          "sum", [](const jet::expr& a, jet::axes x, bool k) { return jet::sum(a, x, k); }, sum),
      reducer<yields::accumulated, all_kinds>(
          "prod", [](const jet::expr& a, jet::axes x, bool k) { return jet::prod(a, x, k); }, prod,
          product_inputs),
      reducer<yields::accumulated, all_kinds>(
          "nansum", [](const jet::expr& a, jet::axes x, bool k) { return jet::nansum(a, x, k); },
          nansum),
      reducer<yields::averaged, all_kinds>(
          "mean", [](const jet::expr& a, jet::axes x, bool k) { return jet::mean(a, x, k); }, mean),
      reducer<yields::averaged, all_kinds>(
          "nanmean", [](const jet::expr& a, jet::axes x, bool k) { return jet::nanmean(a, x, k); },
          nanmean),
      reducer<yields::spread, all_kinds>(
          "var", [](const jet::expr& a, jet::axes x, bool k) { return jet::var(a, x, 0, k); }, var),
      reducer<yields::spread, all_kinds>(
          "std", [](const jet::expr& a, jet::axes x, bool k) { return jet::std(a, x, 0, k); },
          std_dev));
}

inline auto extreme_reductions() {
  using namespace reduce_ref;
  constexpr unsigned all_kinds = B | I | F | C;
  return std::make_tuple(
      reducer<yields::same, all_kinds>(
          "min", [](const jet::expr& a, jet::axes x, bool k) { return jet::min(a, x, k); }, min,
          small_integers, false, true),
      reducer<yields::same, all_kinds>(
          "max", [](const jet::expr& a, jet::axes x, bool k) { return jet::max(a, x, k); }, max,
          small_integers, false, true),
      reducer<yields::same, all_kinds>(
          "nanmin", [](const jet::expr& a, jet::axes x, bool k) { return jet::nanmin(a, x, k); },
          nanmin, small_integers, false, true),
      reducer<yields::same, all_kinds>(
          "nanmax", [](const jet::expr& a, jet::axes x, bool k) { return jet::nanmax(a, x, k); },
          nanmax, small_integers, false, true),
      reducer<yields::same, I | F | C>(
          "ptp", [](const jet::expr& a, jet::axes x, bool k) { return jet::ptp(a, x, k); }, ptp,
          domain{}, false, true),
      reducer<yields::index, all_kinds>(
          "argmin", [](const jet::expr& a, jet::axes x, bool k) { return jet::argmin(a, x, k); },
          argmin, small_integers, true, true),
      reducer<yields::index, all_kinds>(
          "argmax", [](const jet::expr& a, jet::axes x, bool k) { return jet::argmax(a, x, k); },
          argmax, small_integers, true, true));
}

inline auto truth_reductions() {
  using namespace reduce_ref;
  constexpr unsigned all_kinds = B | I | F | C;
  return std::make_tuple(
      reducer<yields::truth, all_kinds>(
          "all", [](const jet::expr& a, jet::axes x, bool k) { return jet::all(a, x, k); }, all,
          truth_inputs),
      reducer<yields::truth, all_kinds>(
          "any", [](const jet::expr& a, jet::axes x, bool k) { return jet::any(a, x, k); }, any,
          truth_inputs),
      reducer<yields::count, all_kinds>(
          "count_nonzero",
          [](const jet::expr& a, jet::axes x, bool k) { return jet::count_nonzero(a, x, k); },
          count_nonzero, truth_inputs));
}

// Calls f(op) for every reduction of the three tables.
template <class F>
void for_each_reduction(F&& f) {
  std::apply([&](const auto&... op) { (f(op), ...); }, accumulating_reductions());
  std::apply([&](const auto&... op) { (f(op), ...); }, extreme_reductions());
  std::apply([&](const auto&... op) { (f(op), ...); }, truth_reductions());
}

// Whether a reduction takes an axis spec: argmin and argmax take one axis or none.
template <class Op>
bool takes(const Op& op, const axis_spec& spec) {
  return !op.one_axis || spec.every || spec.list.size() == 1;
}

// ---- Inputs laid out as the tests need ---------------------------------------------------

enum class input_layout { contiguous, transposed, sliced, broadcast };

inline std::string_view name(input_layout l) {
  switch (l) {
    case input_layout::contiguous: return "contiguous";
    case input_layout::transposed: return "transposed";
    case input_layout::sliced: return "every other element, reversed";
    case input_layout::broadcast: return "broadcast along axis 1";
  }
  return "?";
}

// A device view of shape s with random elements, and those elements on the host in C order.
template <class T>
operand<T> reduction_input(std::mt19937& rng, const jet::shape& s, input_layout l,
                           const domain& d = {}) {
  switch (l) {
    case input_layout::contiguous: return random_operand<T>(rng, s, d);
    case input_layout::sliced: return make_operand<T>(rng, s, layout::every_other_reversed, d);
    case input_layout::transposed: {
      jet::shape base_shape, strides;
      for (int i = s.size() - 1; i >= 0; --i) base_shape.push_back(s[i]);
      const jet::shape c = c_strides(base_shape);
      for (int i = s.size() - 1; i >= 0; --i) strides.push_back(c[i]);
      const host_values<T> base = random_values<T>(rng, base_shape.product(), d);
      return {upload(base, base_shape).T(), gather(base, s, strides, 0)};
    }
    case input_layout::broadcast: {
      const int axis = s.size() >= 2 ? 1 : 0;
      jet::shape base_shape = s;
      base_shape[axis] = 1;
      jet::shape strides = c_strides(base_shape);
      strides[axis] = 0;
      const host_values<T> base = random_values<T>(rng, base_shape.product(), d);
      return {upload(base, base_shape).broadcast_to(s), gather(base, s, strides, 0)};
    }
  }
  return random_operand<T>(rng, s, d);
}

// One reduction of one input over one axis spec against the host reference; where NumPy
// raises (an output with nothing to reduce), that Jet raises jet::value_error.
template <yields Y, unsigned Kinds, class Ref, class T>
void check_case(const reduction<Y, Kinds, Ref>& op, const operand<T>& x, const axis_spec& spec) {
  using R = result_t<Y, T>;
  const jet::shape& s = x.device.shape();
  if (op.refuses_empty && spec.group_size(s) == 0 && spec.result_shape(s).product() > 0) {
    CHECK_THROWS_AS(jet::array(op.apply(x.device, spec.to_jet(), spec.keepdims)), jet::value_error);
    return;
  }
  const jet::expr e = op.apply(x.device, spec.to_jet(), spec.keepdims);
  CHECK(jet::to_string(e.shape()) == jet::to_string(spec.result_shape(s)));
  check_reduced<R>(
      e, reduce_reference<R>(wide_values(x.values), s, spec, op.reference, accumulation_eps<T>()));
}

}  // namespace jet_test
