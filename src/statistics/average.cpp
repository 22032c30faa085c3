// average (and with returned=True): the mean, or the weighted sum over the sum of the weights in
// NumPy's dtype, weights that sum to zero found by the kernel that divides.
#include <algorithm>
#include <numeric>
#include <string>

#include "codegen/core/axes.hpp"
#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "jet/statistics.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

struct weighted {
  expr average, weight_sum;
};

// NumPy's average with weights: `w` lined up with a (a's shape, or the shape of a's axes in the
// order given, transposed to a's order with unit axes elsewhere).
weighted weighted_average(const expr& a, const axes& axis, const expr& weights, bool keepdims) {
  dtype t = promote_types(a.dtype(), weights.dtype());
  if (!is_inexact(a.dtype())) t = promote_types(t, float64);
  expr w = weights;
  if (!(a.shape() == weights.shape())) {
    if (axis.all())
      throw dtype_error("Axis must be specified when shapes of a and weights differ.");
    shape along, wanted, order;
    for (std::int64_t d : axis.list()) along.push_back(normalize_axis(d, a.ndim()));
    for (std::int64_t d : along) wanted.push_back(a.shape()[d]);
    if (!(weights.shape() == wanted))
      throw value_error(
          "Shape of weights must be consistent with shape of a along specified axis.");
    std::vector<int> by_axis(along.size());
    std::iota(by_axis.begin(), by_axis.end(), 0);
    std::sort(by_axis.begin(), by_axis.end(), [&](int i, int j) { return along[i] < along[j]; });
    for (int i : by_axis) order.push_back(i);
    shape lined_up = shape::filled(a.ndim(), 1);
    for (std::int64_t d : along) lined_up[static_cast<int>(d)] = a.shape()[static_cast<int>(d)];
    w = weights.transpose(order).reshape(lined_up);
  }
  const expr total = sum(w, axis, t, keepdims);
  const expr avg = sum(a.astype(t) * w.astype(t), axis, keepdims) / total;
  const expr checked(
      detail::make_data_check(avg.node(), (total == 0.0).node(), detail::weights_sum_to_zero));
  return {checked, total};
}

// NumPy's average without weights: the mean, and the count of elements behind each (which
// NumPy computes even when not asked for, dividing by the result's size).
std::pair<expr, double> unweighted_average(const expr& a, const axes& axis, bool keepdims) {
  const expr avg = mean(a, axis, keepdims);
  if (avg.size() == 0) throw value_error("division by zero");
  return {avg, static_cast<double>(a.size()) / static_cast<double>(avg.size())};
}

// NumPy's average names the argument in its axis errors ("axis: axis 3 is out of bounds ...").
void check_axes(const expr& a, const axes& axis) {
  if (axis.all()) return;
  for (std::int64_t d : axis.list())
    if (d < -a.ndim() || d >= a.ndim())
      throw index_error("axis: axis " + std::to_string(d) +
                        " is out of bounds for array of dimension " + std::to_string(a.ndim()));
}

}  // namespace

expr average(const expr& a, axes axis, const std::optional<expr>& weights, bool keepdims) {
  check_axes(a, axis);
  if (!weights) return unweighted_average(a, axis, keepdims).first;
  return weighted_average(a, axis, *weights, keepdims).average;
}

std::pair<array, array> average_returned(const expr& a, axes axis,
                                         const std::optional<expr>& weights, bool keepdims) {
  check_axes(a, axis);
  if (!weights) {
    const auto [avg, count] = unweighted_average(a, axis, keepdims);
    return {avg, full(avg.shape(), count, avg.dtype())};
  }
  const weighted r = weighted_average(a, axis, *weights, keepdims);
  const array avg = r.average;
  array total = empty(avg.shape(), avg.dtype());
  total(ellipsis) = r.weight_sum;
  return {avg, total};
}

}  // namespace jet
