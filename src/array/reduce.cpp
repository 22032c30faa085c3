// include/jet/reduce.hpp: NumPy's reductions as reduce nodes over (cast) producers.
#include "jet/reduce.hpp"

#include <cmath>
#include <string>

#include "codegen/core/axes.hpp"
#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/ops.hpp"

namespace jet {
namespace {

using detail::reduce_op;
using detail::reduce_post;

// NumPy's accumulator for sums and products: at least 64 bits for bool and integers.
dtype sum_dtype(dtype t) {
  if (t == dtype::bool_) return dtype::int64;
  if (kind(t) == dtype_kind::signed_int) return dtype::int64;
  if (kind(t) == dtype_kind::unsigned_int) return dtype::uint64;
  return t;
}

dtype inexact_dtype(dtype t) { return is_inexact(t) ? t : dtype::float64; }

// `a` converted to `input`, reduced by `op` to `result`.
expr reduction(const expr& a, reduce_op op, const axes& axis, bool keepdims, dtype input,
               dtype result, reduce_post post = reduce_post::none, double post_arg = 0) {
  detail::reduce_spec spec;
  spec.op = op;
  spec.axes = detail::axis_mask(axis, a.ndim());
  spec.keepdims = keepdims;
  spec.post = post;
  spec.post_arg = post_arg;
  detail::node_ptr in = a.dtype() == input ? a.node() : detail::make_cast(a.node(), input);
  return expr(detail::make_reduce(std::move(in), spec, result));
}

expr same_dtype(const expr& a, reduce_op op, const axes& axis, bool keepdims) {
  return reduction(a, op, axis, keepdims, a.dtype(), a.dtype());
}

expr arg_reduction(const expr& a, reduce_op op, const axes& axis, bool keepdims) {
  if (!axis.all() && axis.list().size() != 1)
    throw value_error(std::string(detail::reduce_name(op)) + " takes one axis or none, not " +
                      std::to_string(axis.list().size()));
  return reduction(a, op, axis, keepdims, a.dtype(), dtype::int64);
}

expr variance(const expr& a, const axes& axis, int ddof, bool keepdims, reduce_post post) {
  const dtype t = inexact_dtype(a.dtype());
  return reduction(a, reduce_op::var, axis, keepdims, t, real_dtype(t), post, ddof);
}

}  // namespace

expr sum(const expr& a, axes axis, bool keepdims) {
  return sum(a, axis, sum_dtype(a.dtype()), keepdims);
}
expr sum(const expr& a, axes axis, dtype t, bool keepdims) {
  return reduction(a, reduce_op::sum, axis, keepdims, t, t);
}
expr prod(const expr& a, axes axis, bool keepdims) {
  return prod(a, axis, sum_dtype(a.dtype()), keepdims);
}
expr prod(const expr& a, axes axis, dtype t, bool keepdims) {
  return reduction(a, reduce_op::prod, axis, keepdims, t, t);
}
expr nansum(const expr& a, axes axis, bool keepdims) {
  return nansum(a, axis, sum_dtype(a.dtype()), keepdims);
}
expr nansum(const expr& a, axes axis, dtype t, bool keepdims) {
  return reduction(a, reduce_op::nansum, axis, keepdims, t, t);
}
expr mean(const expr& a, axes axis, bool keepdims) {
  return mean(a, axis, inexact_dtype(a.dtype()), keepdims);
}
expr mean(const expr& a, axes axis, dtype t, bool keepdims) {
  return reduction(a, reduce_op::mean, axis, keepdims, t, t);
}
expr nanmean(const expr& a, axes axis, bool keepdims) {
  return nanmean(a, axis, inexact_dtype(a.dtype()), keepdims);
}
expr nanmean(const expr& a, axes axis, dtype t, bool keepdims) {
  if (is_inexact(a.dtype()) && !is_inexact(t))
    throw dtype_error("If a is inexact, then dtype must be inexact");
  return reduction(a, reduce_op::nanmean, axis, keepdims, t, t);
}
expr var(const expr& a, axes axis, int ddof, bool keepdims) {
  return variance(a, axis, ddof, keepdims, reduce_post::none);
}
expr std(const expr& a, axes axis, int ddof, bool keepdims) {
  return variance(a, axis, ddof, keepdims, reduce_post::sqrt);
}
expr min(const expr& a, axes axis, bool keepdims) {
  return same_dtype(a, reduce_op::min, axis, keepdims);
}
expr max(const expr& a, axes axis, bool keepdims) {
  return same_dtype(a, reduce_op::max, axis, keepdims);
}
expr nanmin(const expr& a, axes axis, bool keepdims) {
  return same_dtype(a, reduce_op::nanmin, axis, keepdims);
}
expr nanmax(const expr& a, axes axis, bool keepdims) {
  return same_dtype(a, reduce_op::nanmax, axis, keepdims);
}
expr ptp(const expr& a, axes axis, bool keepdims) {
  if (a.dtype() == dtype::bool_) {
    // NumPy's ptp is max(a) - min(a): an empty max raises before the subtraction does.
    static_cast<void>(max(a, axis, keepdims));
    throw dtype_error(
        "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
        "operator, or the logical_xor function instead.");
  }
  return same_dtype(a, reduce_op::ptp, axis, keepdims);
}
expr argmin(const expr& a, axes axis, bool keepdims) {
  return arg_reduction(a, reduce_op::argmin, axis, keepdims);
}
expr argmax(const expr& a, axes axis, bool keepdims) {
  return arg_reduction(a, reduce_op::argmax, axis, keepdims);
}
namespace {

// NumPy's nanargmin and nanargmax: NaN replaced by the extreme that never wins (+inf for the
// minimum), then an error where a slice held nothing but NaN.
expr nan_arg_reduction(const expr& a, reduce_op op, axes axis, bool keepdims) {
  if (!is_inexact(a.dtype())) return arg_reduction(a, op, axis, keepdims);
  const double never = op == reduce_op::argmin ? INFINITY : -INFINITY;
  const expr found = arg_reduction(where(isnan(a), never, a), op, axis, keepdims);
  const expr all_nan = all(isnan(a), axis, keepdims);
  return expr(detail::make_data_check(found.node(), all_nan.node(), detail::all_nan_slice));
}

}  // namespace

expr nanargmin(const expr& a, axes axis, bool keepdims) {
  return nan_arg_reduction(a, reduce_op::argmin, axis, keepdims);
}
expr nanargmax(const expr& a, axes axis, bool keepdims) {
  return nan_arg_reduction(a, reduce_op::argmax, axis, keepdims);
}
expr all(const expr& a, axes axis, bool keepdims) {
  return reduction(a, reduce_op::all, axis, keepdims, a.dtype(), dtype::bool_);
}
expr any(const expr& a, axes axis, bool keepdims) {
  return reduction(a, reduce_op::any, axis, keepdims, a.dtype(), dtype::bool_);
}
expr count_nonzero(const expr& a, axes axis, bool keepdims) {
  return reduction(a, reduce_op::count_nonzero, axis, keepdims, a.dtype(), dtype::int64);
}

namespace {

// The scan by `op` of `a` converted to `t`: along one axis, or of the flattened `a`.
expr scan(const expr& a, reduce_op op, std::optional<std::int64_t> axis, dtype t) {
  const expr in = a.dtype() == t ? a : astype(a, t);
  detail::reduce_spec spec;
  spec.op = op;
  spec.scan = true;
  std::int64_t length = a.size();
  if (axis && a.ndim() == 0) {
    normalize_axis(*axis, 1);  // as NumPy: a 0-d operand scans as 1-D
    axis.reset();
  }
  if (axis) {
    const int d = normalize_axis(*axis, a.ndim());
    spec.axes = 1u << d;
    length = a.shape()[d];
  } else {
    spec.axes = (1u << a.ndim()) - 1;
  }
  // A prefix of one element is the element (but flattening makes a new shape).
  if (length <= 1 && (axis || a.ndim() == 1)) return in;
  return expr(detail::make_reduce(in.node(), spec, t));
}

// NaN as `identity`, for the nan-forms of the scans.
expr without_nan(const expr& a, double identity) {
  return is_inexact(a.dtype()) ? where(isnan(a), identity, a) : a;
}

}  // namespace

expr cumsum(const expr& a, std::optional<std::int64_t> axis) {
  return cumsum(a, axis, sum_dtype(a.dtype()));
}
expr cumsum(const expr& a, std::optional<std::int64_t> axis, dtype t) {
  return scan(a, reduce_op::sum, axis, t);
}
expr cumprod(const expr& a, std::optional<std::int64_t> axis) {
  return cumprod(a, axis, sum_dtype(a.dtype()));
}
expr cumprod(const expr& a, std::optional<std::int64_t> axis, dtype t) {
  return scan(a, reduce_op::prod, axis, t);
}
expr nancumsum(const expr& a, std::optional<std::int64_t> axis) {
  return nancumsum(a, axis, sum_dtype(a.dtype()));
}
expr nancumsum(const expr& a, std::optional<std::int64_t> axis, dtype t) {
  return cumsum(without_nan(a, 0), axis, t);
}
expr nancumprod(const expr& a, std::optional<std::int64_t> axis) {
  return nancumprod(a, axis, sum_dtype(a.dtype()));
}
expr nancumprod(const expr& a, std::optional<std::int64_t> axis, dtype t) {
  return cumprod(without_nan(a, 1), axis, t);
}

#define JET_REDUCTION_MEMBER_DEFINITIONS(type)                                                     \
  expr type::sum(axes axis, bool keepdims) const { return jet::sum(*this, axis, keepdims); }       \
  expr type::prod(axes axis, bool keepdims) const { return jet::prod(*this, axis, keepdims); }     \
  expr type::mean(axes axis, bool keepdims) const { return jet::mean(*this, axis, keepdims); }     \
  expr type::var(axes axis, int ddof, bool keepdims) const {                                       \
    return jet::var(*this, axis, ddof, keepdims);                                                  \
  }                                                                                                \
  expr type::std(axes axis, int ddof, bool keepdims) const {                                       \
    return jet::std(*this, axis, ddof, keepdims);                                                  \
  }                                                                                                \
  expr type::min(axes axis, bool keepdims) const { return jet::min(*this, axis, keepdims); }       \
  expr type::max(axes axis, bool keepdims) const { return jet::max(*this, axis, keepdims); }       \
  expr type::ptp(axes axis, bool keepdims) const { return jet::ptp(*this, axis, keepdims); }       \
  expr type::argmin(axes axis, bool keepdims) const { return jet::argmin(*this, axis, keepdims); } \
  expr type::argmax(axes axis, bool keepdims) const { return jet::argmax(*this, axis, keepdims); } \
  expr type::all(axes axis, bool keepdims) const { return jet::all(*this, axis, keepdims); }       \
  expr type::any(axes axis, bool keepdims) const { return jet::any(*this, axis, keepdims); }       \
  expr type::count_nonzero(axes axis, bool keepdims) const {                                       \
    return jet::count_nonzero(*this, axis, keepdims);                                              \
  }
JET_REDUCTION_MEMBER_DEFINITIONS(array)
JET_REDUCTION_MEMBER_DEFINITIONS(expr)
#undef JET_REDUCTION_MEMBER_DEFINITIONS

namespace linalg {
namespace {

// |x| in the input's inexact dtype (real for complex), as numpy.linalg.norm computes it.
expr magnitude(const expr& a) { return absolute(astype(a, inexact_dtype(a.dtype()))); }

dtype norm_dtype(const expr& a) { return real_dtype(inexact_dtype(a.dtype())); }

// The 2-norm (or Frobenius norm) over `axis`: sqrt of the sum of squared magnitudes.
expr two_norm(const expr& a, const axes& axis, bool keepdims) {
  const dtype t = norm_dtype(a);
  return reduction(square(magnitude(a)), reduce_op::sum, axis, keepdims, t, t, reduce_post::sqrt);
}

expr vector_norm(const expr& a, double ord, const axes& axis, bool keepdims) {
  const dtype t = norm_dtype(a);
  if (std::isinf(ord))
    return reduction(magnitude(a), ord > 0 ? reduce_op::max : reduce_op::min, axis, keepdims, t, t);
  if (ord == 0) return reduction(astype(a != 0, t), reduce_op::sum, axis, keepdims, t, t);
  if (ord == 1) return reduction(magnitude(a), reduce_op::sum, axis, keepdims, t, t);
  if (ord == 2) return two_norm(a, axis, keepdims);
  return reduction(power(magnitude(a), ord), reduce_op::sum, axis, keepdims, t, t,
                   reduce_post::power, 1 / ord);
}

// Matrix norms over axes (row, col): sums of magnitudes along one axis, extreme along the other.
expr matrix_norm(const expr& a, double ord, int row, int col, bool keepdims) {
  if (ord == 2 || ord == -2)
    throw value_error("matrix norm ord=" + std::to_string(static_cast<int>(ord)) +
                      " needs singular values, which Jet does not compute");
  const bool by_columns = ord == 1 || ord == -1;
  if (!by_columns && !std::isinf(ord)) throw value_error("Invalid norm order for matrices.");
  const dtype t = norm_dtype(a);
  // ord +-1: sum over rows, extreme over columns; ord +-inf: the other way round.
  const int summed = by_columns ? row : col;
  const expr sums = reduction(magnitude(a), reduce_op::sum, summed, true, t, t);
  return reduction(sums, ord > 0 ? reduce_op::max : reduce_op::min, {row, col}, keepdims, t, t);
}

// The axes a norm with an explicit ord runs over: one for vectors, two for matrices.
shape norm_axes(const expr& a, const axes& axis) {
  shape list;
  if (axis.all()) {
    for (int d = 0; d < a.ndim(); ++d) list.push_back(d);
  } else {
    for (std::int64_t d : axis.list()) list.push_back(normalize_axis(d, a.ndim()));
  }
  if (list.size() < 1 || list.size() > 2)
    throw value_error("Improper number of dimensions to norm.");
  if (list.size() == 2 && list[0] == list[1]) throw value_error("Duplicate axes given.");
  return list;
}

expr numeric_norm(const expr& a, std::optional<double> ord, const axes& axis, bool keepdims) {
  if (!ord) {
    if (!axis.all()) norm_axes(a, axis);  // one or two axes, as for an explicit ord
    return two_norm(a, axis, keepdims);
  }
  const shape list = norm_axes(a, axis);
  if (list.size() == 1) return vector_norm(a, *ord, static_cast<int>(list[0]), keepdims);
  return matrix_norm(a, *ord, static_cast<int>(list[0]), static_cast<int>(list[1]), keepdims);
}

expr named_norm(const expr& a, std::string_view ord, const axes& axis, bool keepdims) {
  const shape list = norm_axes(a, axis);
  if (list.size() == 1)
    throw value_error("Invalid norm order '" + std::string(ord) + "' for vectors");
  if (ord == "fro")
    return two_norm(a, {static_cast<int>(list[0]), static_cast<int>(list[1])}, keepdims);
  if (ord == "nuc")
    throw value_error("matrix norm ord='nuc' needs singular values, which Jet does not compute");
  throw value_error("Invalid norm order '" + std::string(ord) + "' for matrices");
}

}  // namespace

expr norm(const expr& a, norm_order ord, axes axis, bool keepdims) {
  if (ord.named()) return named_norm(a, ord.name(), axis, keepdims);
  return numeric_norm(a, ord.number(), axis, keepdims);
}

}  // namespace linalg
}  // namespace jet
