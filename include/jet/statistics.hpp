// Statistics with NumPy's names, result dtypes and edge cases: comparing arrays, averages,
// medians and quantiles (by Jet's sorts), counting into bins (add_at's atomics, the bin of each
// element computed in the same kernel), covariance and correlation (cuBLAS). Functions that
// return a C++ bool, and those whose result's size depends on the data (bincount, histogram
// without a range), read what they need on the host: they wait for the GPU, as NumPy's answer
// is then a host value or a shape.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "jet/array.hpp"
#include "jet/axes.hpp"
#include "jet/expr.hpp"

namespace jet {

// ---- Comparing arrays

// numpy.isclose: |a - b| <= atol + rtol * |b| where b is finite, or a == b; with `equal_nan`
// NaN is close to NaN. b takes a floating dtype first (result_type(b, 1.0)), as in NumPy.
expr isclose(const expr& a, const expr& b, double rtol = 1e-5, double atol = 1e-8,
             bool equal_nan = false);
// numpy.allclose: whether isclose holds for every element (waits for the GPU).
bool allclose(const expr& a, const expr& b, double rtol = 1e-5, double atol = 1e-8,
              bool equal_nan = false);
// numpy.array_equal: the same shape and equal elements; with `equal_nan` NaN equals NaN
// (waits for the GPU).
bool array_equal(const expr& a, const expr& b, bool equal_nan = false);
// numpy.array_equiv: shapes that broadcast together and equal elements (waits for the GPU).
bool array_equiv(const expr& a, const expr& b);

// ---- Averages

// numpy.average: the mean over `axis`, or with `weights` (a's shape, or 1-D along the one axis
// given) sum(a * w) / sum(w), in NumPy's dtype (float64 for integers). Weights that sum to zero
// raise jet::value_error at the next synchronization, as any error found in the data.
expr average(const expr& a, axes axis = {}, const std::optional<expr>& weights = std::nullopt,
             bool keepdims = false);
// numpy.average with returned=True: the average and the sum of the weights (the count of
// elements without weights), of the average's shape and dtype.
std::pair<array, array> average_returned(const expr& a, axes axis = {},
                                         const std::optional<expr>& weights = std::nullopt,
                                         bool keepdims = false);

// ---- Medians and quantiles: a sort along the axes, then a kernel that picks or interpolates.
// NumPy's 13 methods ("linear" by default; "lower", "higher", "nearest", "midpoint",
// "inverted_cdf", "averaged_inverted_cdf", "closest_observation", "interpolated_inverted_cdf",
// "hazen", "weibull", "median_unbiased", "normal_unbiased"). A slice holding NaN gives NaN; the
// nan-forms leave NaN out (NaN where a slice holds nothing else). The quantile axes come first
// in a result for several quantiles. A scalar q is weak (a float32 input gives float32); a list
// of them is a float64 array, as in NumPy.
array median(const expr& a, axes axis = {}, bool keepdims = false);
array nanmedian(const expr& a, axes axis = {}, bool keepdims = false);
array quantile(const expr& a, double q, axes axis = {}, std::string_view method = "linear",
               bool keepdims = false);
array quantile(const expr& a, const std::vector<double>& q, axes axis = {},
               std::string_view method = "linear", bool keepdims = false);
array nanquantile(const expr& a, double q, axes axis = {}, std::string_view method = "linear",
                  bool keepdims = false);
array nanquantile(const expr& a, const std::vector<double>& q, axes axis = {},
                  std::string_view method = "linear", bool keepdims = false);
// q in percent.
array percentile(const expr& a, double q, axes axis = {}, std::string_view method = "linear",
                 bool keepdims = false);
array percentile(const expr& a, const std::vector<double>& q, axes axis = {},
                 std::string_view method = "linear", bool keepdims = false);
array nanpercentile(const expr& a, double q, axes axis = {}, std::string_view method = "linear",
                    bool keepdims = false);
array nanpercentile(const expr& a, const std::vector<double>& q, axes axis = {},
                    std::string_view method = "linear", bool keepdims = false);

// ---- Counting into bins

// numpy.bincount: how often each value of the 1-D non-negative integer `x` occurs (int64), or
// the sum of its `weights` (float64), in max(x) + 1 bins and at least `minlength`. Reads the
// largest and smallest value on the host.
array bincount(const expr& x, const std::optional<expr>& weights = std::nullopt,
               std::int64_t minlength = 0);
// numpy.histogram's answer: the counts (or, with `density`, the density) and the bin edges.
struct histogram_result {
  array hist, bin_edges;
};
// numpy.histogram with `bins` equal bins over `range` (default: the data's smallest and
// largest value, read on the host); values outside the range are left out, the last bin
// includes its right edge. Counts are int64, or with `weights` of their dtype.
histogram_result histogram(const expr& a, std::int64_t bins = 10,
                           std::optional<std::pair<double, double>> range = std::nullopt,
                           const std::optional<expr>& weights = std::nullopt, bool density = false);
// numpy.histogram with the bin edges given (1-D, increasing; read on the host to check).
histogram_result histogram(const expr& a, const expr& bin_edges,
                           const std::optional<expr>& weights = std::nullopt, bool density = false);

// numpy.histogramdd's answer: the counts (float64; with `density`, the density) over D axes and
// each axis's edges.
struct histogramdd_result {
  array hist;
  std::vector<array> edges;
};
// numpy.histogramdd of `sample`, N points of D coordinates (N x D; 1-D: D = 1): `bins` equal
// bins per axis (one count for every axis, or one each) over `range` per axis (none: the
// data's extremes, read on the host); each point's bin found by a search of each axis's edges,
// all counted by one kernel.
histogramdd_result histogramdd(
    const expr& sample, const std::vector<std::int64_t>& bins = {10},
    const std::vector<std::optional<std::pair<double, double>>>& range = {},
    const std::optional<expr>& weights = std::nullopt, bool density = false);
// numpy.histogramdd with each axis's edges given (1-D, increasing).
histogramdd_result histogramdd(const expr& sample, const std::vector<expr>& bin_edges,
                               const std::optional<expr>& weights = std::nullopt,
                               bool density = false);
// numpy.histogram2d of the points (x, y): histogramdd of their two coordinates.
struct histogram2d_result {
  array hist, xedges, yedges;
};
histogram2d_result histogram2d(
    const expr& x, const expr& y, const std::vector<std::int64_t>& bins = {10},
    const std::vector<std::optional<std::pair<double, double>>>& range = {},
    const std::optional<expr>& weights = std::nullopt, bool density = false);
// The same with the edges given: one array for both axes, or one each.
histogram2d_result histogram2d(const expr& x, const expr& y, const std::vector<expr>& bin_edges,
                               const std::optional<expr>& weights = std::nullopt,
                               bool density = false);

// ---- Covariance and correlation, through cuBLAS

// numpy.cov: the covariance matrix of the variables in the rows of `m` (the columns, without
// `rowvar`), and of y's with them. Normalized by N - 1 (N with `bias`, N - ddof with a `ddof`);
// fweights (integer repeats) and aweights (importance) per observation. float64 unless `m` is
// of a floating or complex dtype (or `t` is given). A single variable gives a 0-d array.
struct cov_options {
  bool rowvar = true;
  bool bias = false;
  std::optional<std::int64_t> ddof = std::nullopt;
  std::optional<expr> fweights = std::nullopt;
  std::optional<expr> aweights = std::nullopt;
  std::optional<dtype> t = std::nullopt;
};
array cov(const expr& m, const std::optional<expr>& y = std::nullopt, const cov_options& o = {});
// numpy.corrcoef: the correlation coefficients, cov / sqrt(diag x diag), clipped to [-1, 1].
array corrcoef(const expr& x, const std::optional<expr>& y = std::nullopt, bool rowvar = true,
               std::optional<dtype> t = std::nullopt);

}  // namespace jet
