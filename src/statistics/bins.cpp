// bincount and histogram: each element's bin computed and added into the counts by one
// kernel (a scatter with atomics, into each block's bins in shared memory first where they fit
// there); the sizes and ranges NumPy reads from the data are read on the host first.
#include <cmath>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/indexing.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "jet/sorting.hpp"
#include "jet/statistics.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/statistics/bins.hpp"
#include "src/statistics/rounded.hpp"

namespace jet {
namespace detail {

array add_into_bins(const expr& bin, const expr& values, std::int64_t size, dtype t) {
  const array out = zeros({size}, t);
  // The counts seen over bin's shape with no strides: every element's own position is the
  // first count, and `bin` its offset from there.
  const array over(out.buffer(), t, bin.shape(), shape::filled(bin.ndim(), 0), out.offset());
  detail::evaluate_scatter(*values.astype(t).node(), *bin.astype(int64).node(), over,
                           detail::scatter_op::add, size);
  return out;
}

std::pair<double, double> extremes(const expr& a) {
  const std::vector<double> v = stack({min(a), max(a)}).astype(float64).to_vector<double>();
  return {v[0], v[1]};
}

bool decreases(const array& edges) {
  return edges.size() > 1 && any(edges(slice(none, -1)) > edges(slice(1, none))).item<bool>();
}

std::string python_float(double v) {
  std::string s = fmt::format("{}", v);
  if (std::isfinite(v) && s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace detail
namespace {

using detail::add_into_bins;
using detail::extremes;
using detail::python_float;

// NumPy's accumulator of weighted counts: float64 (complex128 for complex weights), cast to
// the weights' dtype at the end.
dtype weighted_sum_dtype(dtype w) { return is_complex(w) ? complex128 : float64; }

// The counts of `bin` (or the weights' sums) in `bins` bins, the bin `bins` taking what is
// left out; as NumPy's dtype.
array counts(const expr& bin, const std::optional<expr>& weights, std::int64_t bins) {
  if (!weights) return add_into_bins(bin, 1, bins + 1, int64)(slice(0, bins));
  const dtype t = weighted_sum_dtype(weights->dtype());
  return add_into_bins(bin, *weights, bins + 1, t)(slice(0, bins)).astype(weights->dtype());
}

histogram_result finished(array hist, array edges, bool density) {
  if (!density) return {std::move(hist), std::move(edges)};
  const expr widths = diff(edges).astype(float64);
  const expr total = sum(hist);
  return {(hist.astype(float64) / widths / total).eval(), std::move(edges)};
}

array flat(const expr& a) { return detail::as_array(a).ravel(); }

void check_weights(const expr& a, const std::optional<expr>& weights) {
  if (weights && !(weights->shape() == a.shape()))
    throw value_error("weights should have the same shape as a.");
}

}  // namespace

array bincount(const expr& x, const std::optional<expr>& weights, std::int64_t minlength) {
  if (x.ndim() > 1) throw value_error("object too deep for desired array");
  if (x.ndim() == 0) throw value_error("object of too small depth for desired array");
  if (x.dtype() != bool_ && !is_integer(x.dtype()))
    throw dtype_error("Cannot cast array data from dtype('" + std::string(name(x.dtype())) +
                      "') to dtype('int64') according to the rule 'safe'");
  if (minlength < 0) throw value_error("'minlength' must not be negative");
  if (weights && weights->size() != x.size())
    throw value_error("The weights and list don't have the same length.");
  if (weights && is_complex(weights->dtype()))
    throw dtype_error("Cannot cast array data from dtype('" + std::string(name(weights->dtype())) +
                      "') to dtype('float64') according to the rule 'safe'");
  std::int64_t size = minlength;
  if (x.size() > 0) {
    const auto [lo, hi] = extremes(x);
    if (lo < 0) throw value_error("'list' argument must have no negative elements");
    size = std::max(size, static_cast<std::int64_t>(hi) + 1);
  }
  if (!weights) return add_into_bins(x, 1, size, int64);
  return add_into_bins(x, weights->reshape({x.size()}), size, float64);
}

histogram_result histogram(const expr& a, std::int64_t bins,
                           std::optional<std::pair<double, double>> range,
                           const std::optional<expr>& weights, bool density) {
  check_weights(a, weights);
  if (bins < 1) throw value_error("`bins` must be positive, when an integer");
  // NumPy counts bools as uint8; its edges are floating, in a's dtype when a's is.
  const expr values = a.dtype() == bool_ ? a.astype(uint8) : a;
  const dtype edge_t = is_floating(values.dtype()) ? values.dtype() : float64;
  double first = 0, last = 1, width = 1;
  if (range) {
    std::tie(first, last) = *range;
    if (first > last) throw value_error("max must be larger than min in range parameter.");
    if (!std::isfinite(first) || !std::isfinite(last))
      throw value_error("supplied range of [" + python_float(first) + ", " + python_float(last) +
                        "] is not finite");
    width = last - first;
  } else if (a.size() > 0) {
    std::tie(first, last) = extremes(values);
    if (!std::isfinite(first) || !std::isfinite(last))
      throw value_error("autodetected range of [" + python_float(first) + ", " +
                        python_float(last) + "] is not finite");
    // NumPy's edges are then scalars of a's dtype, and their difference is taken in it.
    width = detail::rounded(detail::rounded(last, edge_t) - detail::rounded(first, edge_t), edge_t);
  }
  if (first == last) first -= 0.5, last += 0.5, width = 1;
  const array edges = linspace(first, last, bins + 1, true, edge_t);
  if (a.size() == 0)
    return finished(zeros({bins}, weights ? weights->dtype() : int64), edges, density);
  // NumPy's bin of each value: its position in the range scaled to the bins, corrected by
  // one where rounding put it past an edge; the last bin holds the right edge.
  const array x = flat(values);
  const expr position = (x.astype(edge_t) - first) / width * bins;
  expr bin = position.astype(int64);
  bin = where(bin == bins, bins - 1, bin);
  // The edges seen over x's shape with no strides, read at bin k (clipped: a value left out
  // may point anywhere).
  const array over(edges.buffer(), edge_t, x.shape(), shape::filled(x.ndim(), 0), edges.offset());
  const auto edge_at = [&](const expr& k) {
    const expr offset = clip(k, 0, bins) * edges.strides()[0];
    return expr(detail::make_gather(over, offset.astype(int64).node()));
  };
  bin = where(x.astype(edge_t) < edge_at(bin), bin - 1, bin);
  bin = where(logical_and(x.astype(edge_t) >= edge_at(bin + 1), bin != bins - 1), bin + 1, bin);
  const expr kept = logical_and(x >= first, x <= last);
  const std::optional<expr> w = weights ? std::optional<expr>(flat(*weights)) : std::nullopt;
  return finished(counts(where(kept, bin, bins), w, bins), edges, density);
}

histogram_result histogram(const expr& a, const expr& bin_edges, const std::optional<expr>& weights,
                           bool density) {
  check_weights(a, weights);
  if (bin_edges.ndim() != 1) throw value_error("`bins` must be 1d, when an array");
  const array edges = detail::as_array(bin_edges);
  if (detail::decreases(edges))
    throw value_error("`bins` must increase monotonically, when an array");
  const std::int64_t bins = edges.size() - 1;
  const expr values = a.dtype() == bool_ ? a.astype(uint8) : a;
  if (a.size() == 0 || bins < 1)
    return finished(zeros({std::max<std::int64_t>(bins, 0)}, weights ? weights->dtype() : int64),
                    edges, density);
  // The bin [e_i, e_i+1) of each value; the last edge closes the last bin.
  const array x = flat(values);
  const expr low = edges(0), high = edges(bins);
  expr bin = searchsorted(edges, x, "right") - 1;
  bin = where(x == high, bins - 1, bin);
  const expr kept = logical_and(x >= low, x <= high);
  const std::optional<expr> w = weights ? std::optional<expr>(flat(*weights)) : std::nullopt;
  return finished(counts(where(kept, bin, bins), w, bins), edges, density);
}

}  // namespace jet
