// histogramdd and histogram2d: each axis's edges (given, or equal bins over the range NumPy
// reads from the data), each point's bin along each axis found by a search of its edges (one
// more bin on each side for the points outside), the bins' flat index counted by one kernel,
// the outside bins cut off.
#include <cmath>
#include <string>
#include <vector>

#include "jet/error.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "jet/sorting.hpp"
#include "jet/statistics.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/statistics/bins.hpp"

namespace jet {
namespace {

using range_t = std::optional<std::pair<double, double>>;

// The sample as N x D.
array points_of(const expr& sample) {
  const array s = detail::as_array(sample);
  if (s.ndim() == 1) return s.reshape({s.size(), 1});
  if (s.ndim() != 2) throw value_error("histogramdd takes N points of D coordinates (N x D)");
  return s;
}

// Equal bins over the range of coordinate `column`, as NumPy's histogramdd makes them.
array equal_edges(const array& column, std::int64_t bins, const range_t& range, int axis) {
  if (bins < 1)
    throw value_error("`bins[" + std::to_string(axis) + "]` must be positive, when an integer");
  double first = 0, last = 1;
  // Edges from a range are float64; from the data, in its dtype when that is floating.
  dtype t = range || !is_floating(column.dtype()) ? float64 : column.dtype();
  if (range) {
    std::tie(first, last) = *range;
    if (first > last) throw value_error("max must be larger than min in range parameter.");
    if (!std::isfinite(first) || !std::isfinite(last))
      throw value_error("supplied range of [" + detail::python_float(first) + ", " +
                        detail::python_float(last) + "] is not finite");
  } else if (column.size() > 0) {
    std::tie(first, last) = detail::extremes(column);
    if (!std::isfinite(first) || !std::isfinite(last))
      throw value_error("autodetected range of [" + detail::python_float(first) + ", " +
                        detail::python_float(last) + "] is not finite");
  } else {
    t = float64;
  }
  if (first == last) first -= 0.5, last += 0.5;
  return linspace(first, last, bins + 1, true, t);
}

// The histogram of `points` (N x D) over `edges` (one per axis).
histogramdd_result count_points(const array& points, std::vector<array> edges,
                                const std::optional<expr>& weights, bool density) {
  const int d = static_cast<int>(edges.size());
  if (weights && weights->size() != points.shape()[0])
    throw value_error("weights must have one value a point");
  shape sizes;  // each axis's bins and the two outside ones
  expr flat_bin = expr(std::int64_t{0});
  for (int k = 0; k < d; ++k) {
    const array& e = edges[k];
    if (e.ndim() != 1)
      throw value_error("`bins[" + std::to_string(k) + "]` must be 1d, when an array");
    if (detail::decreases(e))
      throw value_error("`bins[" + std::to_string(k) +
                        "]` must be monotonically increasing, when an array");
    const array column = points(slice(), k);
    expr at = searchsorted(e, column, "right");
    if (e.size() > 0) at = where(column == e(e.size() - 1), at - 1, at);  // the last edge closes
    flat_bin = flat_bin * (e.size() + 1) + at;
    sizes.push_back(e.size() + 1);
  }
  const array all =
      detail::add_into_bins(flat_bin, weights ? expr(weights->astype(float64)) : expr(1),
                            sizes.product(), float64)
          .reshape(sizes);
  std::vector<index_item> inside;
  for (int k = 0; k < d; ++k) inside.emplace_back(slice(1, -1));
  array hist = all.index(inside).copy();
  if (density) {
    const expr total = sum(hist);
    expr scaled = hist;
    for (int k = 0; k < d; ++k) {
      shape along = shape::filled(d, 1);
      along[k] = sizes[k] - 2;
      scaled = scaled / array(diff(edges[k]).astype(float64)).reshape(along);
    }
    hist = array(scaled / total);
  }
  return {hist, std::move(edges)};
}

}  // namespace

histogramdd_result histogramdd(const expr& sample, const std::vector<std::int64_t>& bins,
                               const std::vector<range_t>& range,
                               const std::optional<expr>& weights, bool density) {
  const array points = points_of(sample);
  const std::int64_t d = points.shape()[1];
  if (bins.size() != 1 && static_cast<std::int64_t>(bins.size()) != d)
    throw value_error("The dimension of bins must be equal to the dimension of the sample x.");
  if (!range.empty() && static_cast<std::int64_t>(range.size()) != d)
    throw value_error("range argument must have one entry per dimension");
  std::vector<array> edges;
  for (int k = 0; k < d; ++k)
    edges.push_back(equal_edges(points(slice(), k), bins.size() == 1 ? bins[0] : bins[k],
                                range.empty() ? range_t() : range[k], k));
  return count_points(points, std::move(edges), weights, density);
}

histogramdd_result histogramdd(const expr& sample, const std::vector<expr>& bin_edges,
                               const std::optional<expr>& weights, bool density) {
  const array points = points_of(sample);
  if (static_cast<std::int64_t>(bin_edges.size()) != points.shape()[1])
    throw value_error("The dimension of bins must be equal to the dimension of the sample x.");
  std::vector<array> edges;
  for (const expr& e : bin_edges) edges.push_back(detail::as_array(e));
  return count_points(points, std::move(edges), weights, density);
}

namespace {

array pairs_of(const expr& x, const expr& y) {
  if (x.ndim() != 1 || y.ndim() != 1 || x.size() != y.size())
    throw value_error("histogram2d takes x and y of one length, 1-D");
  return stack({x, y}, 1);
}

histogram2d_result as_2d(histogramdd_result r) { return {r.hist, r.edges[0], r.edges[1]}; }

}  // namespace

histogram2d_result histogram2d(const expr& x, const expr& y, const std::vector<std::int64_t>& bins,
                               const std::vector<range_t>& range,
                               const std::optional<expr>& weights, bool density) {
  return as_2d(histogramdd(pairs_of(x, y), bins, range, weights, density));
}

histogram2d_result histogram2d(const expr& x, const expr& y, const std::vector<expr>& bin_edges,
                               const std::optional<expr>& weights, bool density) {
  const std::vector<expr> both =
      bin_edges.size() == 1 ? std::vector<expr>{bin_edges[0], bin_edges[0]} : bin_edges;
  return as_2d(histogramdd(pairs_of(x, y), both, weights, density));
}

}  // namespace jet
