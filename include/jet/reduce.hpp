// Reductions with NumPy's names, result dtypes and edge cases. Each returns a lazy expr:
// the elementwise input is fused into the reduction kernel, which writes straight into the
// array (or view) the result is assigned to. Full reductions give 0-d arrays.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "jet/axes.hpp"
#include "jet/expr.hpp"

namespace jet {

// Sums and products: bool and integers narrower than 64 bits accumulate in int64 (uint64
// for unsigned), float16 and bfloat16 in float32; `t` picks the dtype instead.
expr sum(const expr& a, axes axis = {}, bool keepdims = false);
expr sum(const expr& a, axes axis, dtype t, bool keepdims = false);
expr prod(const expr& a, axes axis = {}, bool keepdims = false);
expr prod(const expr& a, axes axis, dtype t, bool keepdims = false);
// Sum treating NaN as zero.
expr nansum(const expr& a, axes axis = {}, bool keepdims = false);
expr nansum(const expr& a, axes axis, dtype t, bool keepdims = false);
// Means: integers give float64; an empty reduction gives NaN.
expr mean(const expr& a, axes axis = {}, bool keepdims = false);
expr mean(const expr& a, axes axis, dtype t, bool keepdims = false);
// Mean of the non-NaN elements (NaN where there are none).
expr nanmean(const expr& a, axes axis = {}, bool keepdims = false);
expr nanmean(const expr& a, axes axis, dtype t, bool keepdims = false);
// Variance and standard deviation over n - ddof, in one numerically stable pass; complex
// input gives its real dtype.
expr var(const expr& a, axes axis = {}, int ddof = 0, bool keepdims = false);
expr std(const expr& a, axes axis = {}, int ddof = 0, bool keepdims = false);
// `var(x, 1, true)` would take true as ddof: name keepdims by passing ddof first.
expr var(const expr& a, axes axis, bool keepdims) = delete;
expr std(const expr& a, axes axis, bool keepdims) = delete;

// Extremes: NaN wins; an empty reduction is an error, as in NumPy.
expr min(const expr& a, axes axis = {}, bool keepdims = false);
expr max(const expr& a, axes axis = {}, bool keepdims = false);
inline expr amin(const expr& a, axes axis = {}, bool keepdims = false) {
  return min(a, axis, keepdims);
}
inline expr amax(const expr& a, axes axis = {}, bool keepdims = false) {
  return max(a, axis, keepdims);
}
// Extremes ignoring NaN (NaN where every element is NaN).
expr nanmin(const expr& a, axes axis = {}, bool keepdims = false);
expr nanmax(const expr& a, axes axis = {}, bool keepdims = false);
// max - min ("peak to peak").
expr ptp(const expr& a, axes axis = {}, bool keepdims = false);
// Index (int64) of the first extreme, or of the first NaN, along one axis or in the
// flattened array.
expr argmin(const expr& a, axes axis = {}, bool keepdims = false);
expr argmax(const expr& a, axes axis = {}, bool keepdims = false);
// argmin and argmax with NaN left out; a slice of nothing but NaN raises jet::value_error
// "All-NaN slice encountered" at the next synchronization, as any error found in the data.
expr nanargmin(const expr& a, axes axis = {}, bool keepdims = false);
expr nanargmax(const expr& a, axes axis = {}, bool keepdims = false);

// Truth tests (bool) and counting (int64).
expr all(const expr& a, axes axis = {}, bool keepdims = false);
expr any(const expr& a, axes axis = {}, bool keepdims = false);
expr count_nonzero(const expr& a, axes axis = {}, bool keepdims = false);

// Scans: each prefix's sum or product along `axis` (none, NumPy's default: of the flattened
// array, 1-D), in sum's dtypes (bool and narrower integers accumulate in int64, or uint64) or
// `t`. The nan-forms count NaN as 0 (sums) or 1 (products). Lazy like the reductions, and one
// pass: cumsum(a * b) computes a * b in the scan's kernel, which finds each tile's prefix by
// decoupled look-back; float sums associate in tiles, not left to right as NumPy's, and may
// differ from them in the last bits (float16 and bfloat16 accumulate in float32).
expr cumsum(const expr& a, std::optional<std::int64_t> axis = std::nullopt);
expr cumsum(const expr& a, std::optional<std::int64_t> axis, dtype t);
expr cumprod(const expr& a, std::optional<std::int64_t> axis = std::nullopt);
expr cumprod(const expr& a, std::optional<std::int64_t> axis, dtype t);
expr nancumsum(const expr& a, std::optional<std::int64_t> axis = std::nullopt);
expr nancumsum(const expr& a, std::optional<std::int64_t> axis, dtype t);
expr nancumprod(const expr& a, std::optional<std::int64_t> axis = std::nullopt);
expr nancumprod(const expr& a, std::optional<std::int64_t> axis, dtype t);

namespace linalg {
// The ord argument of norm, as NumPy's: none (`{}` or std::nullopt, NumPy's None), a number
// (`2`, `1.5`, `-INFINITY`), or a name (`"fro"`, `"nuc"`).
class norm_order {
 public:
  // Implicit, so that the ord is written as in NumPy: `norm(x, 2)`, `norm(x, "fro")`.
  norm_order() = default;
  norm_order(std::nullopt_t) {}
  norm_order(std::optional<double> p) : number_(p) {}
  template <class T>
  requires std::is_arithmetic_v<T> norm_order(T p) : number_(static_cast<double>(p)) {}
  template <class S>
  requires std::is_convertible_v<const S&, std::string_view> norm_order(const S& name)
      : name_(std::string_view(name)), named_(true) {}

  // The number given; empty for none and for a name.
  const std::optional<double>& number() const { return number_; }
  // True when a name was given, which name() holds.
  bool named() const { return named_; }
  const std::string& name() const { return name_; }

 private:
  std::optional<double> number_;
  std::string name_;
  bool named_ = false;
};

// numpy.linalg.norm. With no ord: the 2-norm of the input over `axis` (all axes by default;
// the Frobenius norm over two). Vector ords (one axis, or a 1-D input): inf, -inf, 0, 1, 2 and
// any other p. Matrix ords (two axes, or a 2-D input): "fro", 1, -1, inf, -inf; ord 2, -2 and
// "nuc" need singular values and raise jet::value_error. `norm(x, {}, 1)` is the 2-norm along
// axis 1.
expr norm(const expr& a, norm_order ord = {}, axes axis = {}, bool keepdims = false);
}  // namespace linalg

}  // namespace jet
