// Creation functions: zeros, ones, full, arange, linspace, eye and the *_like forms.
#include <cmath>
#include <string>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/stream_state.hpp"

namespace jet {
namespace {

array filled(const shape& s, const expr& value, dtype t) {
  array out = empty(s, t);
  std::move(out) = value;
  return out;
}

expr index_of(const shape& s) { return expr(detail::make_index(s)); }

}  // namespace

array zeros(const shape& s, dtype t) {
  array out = empty(s, t);
  if (out.nbytes() > 0)  // fresh: no work queued on the stream reads it
    detail::check_cuda(cudaMemsetAsync(out.data(), 0, static_cast<std::size_t>(out.nbytes()),
                                       detail::current_stream()),
                       "cudaMemsetAsync");
  return out;
}

array ones(const shape& s, dtype t) { return filled(s, 1, t); }
array full(const shape& s, const expr& value) { return filled(s, value, value.dtype()); }
array full(const shape& s, const expr& value, dtype t) { return filled(s, value, t); }
array empty_like(const array& a) { return empty(a.shape(), a.dtype()); }
array empty_like(const array& a, dtype t) { return empty(a.shape(), t); }
array zeros_like(const array& a) { return zeros(a.shape(), a.dtype()); }
array zeros_like(const array& a, dtype t) { return zeros(a.shape(), t); }
array ones_like(const array& a) { return ones(a.shape(), a.dtype()); }
array ones_like(const array& a, dtype t) { return ones(a.shape(), t); }
array full_like(const array& a, const expr& value) { return full(a.shape(), value, a.dtype()); }
array full_like(const array& a, const expr& value, dtype t) { return full(a.shape(), value, t); }

array detail::arange_integers(std::int64_t start, std::int64_t stop, std::int64_t step) {
  if (step == 0) throw value_error("arange: step must not be zero");
  const std::int64_t span = stop - start;
  const std::int64_t n = step > 0 ? (span > 0 ? (span + step - 1) / step : 0)
                                  : (span < 0 ? (-span + -step - 1) / -step : 0);
  const shape s{n};
  return filled(s, index_of(s) * step + start, int64);
}

array arange(double start, double stop, double step, dtype t) {
  if (step == 0) throw value_error("arange: step must not be zero");
  const double length = std::ceil((stop - start) / step);
  if (!std::isfinite(length)) throw value_error("arange: arange's length is not finite");
  const shape s{length > 0 ? static_cast<std::int64_t>(length) : 0};
  return filled(s, astype(index_of(s), float64) * step + start, t);
}

array linspace(double start, double stop, std::int64_t num, bool endpoint, dtype t) {
  if (num < 0)
    throw value_error("Number of samples, " + std::to_string(num) + ", must be non-negative.");
  const shape s{num};
  const std::int64_t div = endpoint ? num - 1 : num;
  const double step = div > 0 ? (stop - start) / static_cast<double>(div) : 0.0;
  const expr i = index_of(s);
  expr values = astype(i, float64) * step + start;
  if (endpoint && num > 1) values = where(i == num - 1, stop, values);
  return filled(s, values, t);
}

array eye(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, dtype t) {
  array out = zeros({n, m.value_or(n)}, t);
  out.diagonal_view(k) = 1;
  return out;
}

array identity(std::int64_t n, dtype t) { return eye(n, std::nullopt, 0, t); }

}  // namespace jet
