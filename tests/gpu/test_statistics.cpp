// Statistics on a GPU beyond NumPy's table (test_statistics_table.cpp): errors found in the data
// raised at the next synchronization with the next evaluation still right, and large inputs
// against host references (counts into bins, quantiles, covariance).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "gpu/samples.hpp"

namespace {

using namespace jet_test;

std::vector<double> uniform(std::mt19937& rng, std::size_t n, double lo, double hi) {
  std::uniform_real_distribution<double> d(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = d(rng);
  return v;
}

}  // namespace

TEST_CASE("errors found in the data: all-NaN slices and weights that sum to zero",
          "[gpu][statistics]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const jet::array a = jet::asarray(std::vector<double>{1, nan, 4, nan, nan, nan}, {2, 3});
  const jet::array found = jet::nanargmin(a, 1);  // the second row is all NaN
  CHECK_THROWS_WITH(jet::synchronize(), "All-NaN slice encountered");
  const jet::array b = jet::asarray(std::vector<double>{1, nan, 3, nan, 2, 2}, {2, 3});
  CHECK(jet::nanargmax(b, 0).eval().to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{0, 1, 0});
  CHECK(jet::nanargmin(b).item<std::int64_t>() == 0);
  const jet::array x = jet::asarray(std::vector<double>{1, 2, 3});
  const jet::array w = jet::asarray(std::vector<double>{1, 0, -1});
  const jet::array avg = jet::average(x, {}, jet::expr(w));
  CHECK_THROWS_WITH(jet::synchronize(), "Weights sum to zero, can't be normalized");
  CHECK(jet::average(x, {}, jet::expr(w * w)).item<double>() == 2.0);
}

TEST_CASE("histogram and bincount of a million values against host counts", "[gpu][statistics]") {
  std::mt19937 rng(20261205);
  const std::vector<double> v = uniform(rng, 1 << 20, -3, 5);
  const jet::array x = jet::asarray(v);
  const jet::histogram_result h = jet::histogram(x, 1000, std::pair(-2.0, 4.0));
  const std::vector<double> edges = h.bin_edges.to_vector<double>();
  std::vector<std::int64_t> want(1000);
  for (double e : v) {
    if (e < edges.front() || e > edges.back()) continue;
    const auto bin = std::upper_bound(edges.begin(), edges.end(), e) - edges.begin() - 1;
    ++want[std::min<std::size_t>(static_cast<std::size_t>(bin), 999)];
  }
  CHECK(h.hist.to_vector<std::int64_t>() == want);
  // Edges given: the same bins through the binary search.
  CHECK(jet::histogram(x, h.bin_edges).hist.to_vector<std::int64_t>() == want);
  std::vector<std::int64_t> small(v.size()), counts(1000);
  for (std::size_t k = 0; k < v.size(); ++k) {
    small[k] = static_cast<std::int64_t>((v[k] + 3) * 100) % 1000;
    ++counts[static_cast<std::size_t>(small[k])];
  }
  // As NumPy's: as many bins as the largest value needs.
  counts.resize(static_cast<std::size_t>(*std::max_element(small.begin(), small.end())) + 1);
  CHECK(jet::bincount(jet::asarray(small)).to_vector<std::int64_t>() == counts);
  // Weighted sums (added in each block's shared bins first), and more bins than those hold.
  const std::vector<double> weights = uniform(rng, v.size(), -1, 1);
  std::vector<double> sums(counts.size());
  std::vector<std::int64_t> spread(v.size()), spread_counts(counts.size() * 7);
  for (std::size_t k = 0; k < v.size(); ++k) {
    sums[static_cast<std::size_t>(small[k])] += weights[k];
    spread[k] = small[k] * 7;
    ++spread_counts[static_cast<std::size_t>(spread[k])];
  }
  const std::vector<double> got =
      jet::bincount(jet::asarray(small), jet::expr(jet::asarray(weights))).to_vector<double>();
  REQUIRE(got.size() == sums.size());
  for (std::size_t b = 0; b < sums.size(); ++b) CHECK(std::abs(got[b] - sums[b]) <= 1e-9);
  spread_counts.resize(static_cast<std::size_t>(spread_counts.size() - 6));
  CHECK(jet::bincount(jet::asarray(spread)).to_vector<std::int64_t>() == spread_counts);
}

TEST_CASE("quantiles and the median of 100001 values against a host sort", "[gpu][statistics]") {
  std::mt19937 rng(7);
  std::vector<double> v = uniform(rng, 100001, -1, 1);
  const jet::array x = jet::asarray(v);
  std::sort(v.begin(), v.end());
  CHECK(jet::median(x).item<double>() == v[50000]);
  for (double q : {0.0, 0.1234, 0.5, 0.99, 1.0}) {
    INFO("q " << q);
    const double index = (v.size() - 1) * q;
    const std::size_t lo = static_cast<std::size_t>(std::floor(index));
    const std::size_t hi = std::min(lo + 1, v.size() - 1);
    const double t = index - std::floor(index);
    const double want = v[lo] + (v[hi] - v[lo]) * t;
    CHECK(std::abs(jet::quantile(x, q).item<double>() - want) <= 1e-12);
    CHECK(jet::quantile(x, q, {}, "lower").item<double>() == v[lo]);
  }
}

TEST_CASE("cov and corrcoef of 5 variables of 1000 observations against the host",
          "[gpu][statistics]") {
  std::mt19937 rng(11);
  const std::size_t vars = 5, n = 1000;
  const std::vector<double> v = uniform(rng, vars * n, -2, 2);
  const jet::array m = jet::asarray(v, {5, 1000});
  const std::vector<double> c = jet::cov(m).to_vector<double>();
  const std::vector<double> r = jet::corrcoef(m).to_vector<double>();
  std::vector<double> mean(vars);
  for (std::size_t i = 0; i < vars; ++i)
    for (std::size_t k = 0; k < n; ++k) mean[i] += v[i * n + k] / n;
  for (std::size_t i = 0; i < vars; ++i)
    for (std::size_t j = 0; j < vars; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < n; ++k) s += (v[i * n + k] - mean[i]) * (v[j * n + k] - mean[j]);
      CHECK(std::abs(c[i * vars + j] - s / (n - 1)) <= 1e-12);
    }
  for (std::size_t i = 0; i < vars; ++i)
    for (std::size_t j = 0; j < vars; ++j)
      CHECK(std::abs(r[i * vars + j] -
                     c[i * vars + j] / std::sqrt(c[i * vars + i] * c[j * vars + j])) <= 1e-12);
}
