// k-means on 2-D points, as CuPy's examples/kmeans/kmeans.py (its defaults: 2 clusters,
// 5,000,000 samples, 10 iterations), with both of its fits; each checked against the same
// algorithm on the host. The plotting step's selection, X[pred == i], is printed instead.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "example_main.hpp"
#include "kmeans.hpp"

namespace {

// The host reference: labels and centers after the same iterations from the same start.
struct host_fit {
  std::vector<double> centers;
  std::vector<std::int32_t> pred;
};

host_fit reference(const std::vector<double>& x, std::int64_t k, int max_iter,
                   const std::vector<std::int64_t>& initial) {
  const std::size_t n = x.size() / 2;
  host_fit f{{}, std::vector<std::int32_t>(n, 0)};
  for (std::int64_t c : initial) f.centers.insert(f.centers.end(), {x[2 * c], x[2 * c + 1]});
  for (int it = 0; it < max_iter; ++it) {
    std::vector<std::int32_t> next(n);
    for (std::size_t p = 0; p < n; ++p) {
      double best = INFINITY;
      for (std::int64_t c = 0; c < k; ++c) {
        const double d =
            std::hypot(x[2 * p] - f.centers[2 * c], x[2 * p + 1] - f.centers[2 * c + 1]);
        if (d < best) best = d, next[p] = static_cast<std::int32_t>(c);
      }
    }
    if (next == f.pred) break;
    f.pred = next;
    std::vector<double> sums(2 * k, 0.0), counts(k, 0.0);
    for (std::size_t p = 0; p < n; ++p) {
      sums[2 * f.pred[p]] += x[2 * p], sums[2 * f.pred[p] + 1] += x[2 * p + 1];
      counts[f.pred[p]] += 1;
    }
    for (std::int64_t c = 0; c < 2 * k; ++c) f.centers[c] = sums[c] / counts[c / 2];
  }
  return f;
}

// Labels equal but for points on the boundary (distances tied within rounding), centers close.
bool matches(const char* name, const kmeans::fit_result& got, const host_fit& want) {
  const std::vector<std::int32_t> pred = got.pred.to_vector<std::int32_t>();
  std::size_t differ = 0;
  for (std::size_t p = 0; p < pred.size(); ++p) differ += pred[p] != want.pred[p];
  const std::vector<double> centers = got.centers.to_vector<double>();
  double worst = 0;
  for (std::size_t c = 0; c < centers.size(); ++c)
    worst = std::max(worst, std::abs(centers[c] - want.centers[c]));
  std::printf("%s: %d iterations, %zu of %zu labels differ from the host's, centers within %.2g\n",
              name, got.iterations, differ, pred.size(), worst);
  return differ <= pred.size() / 1000000 + 1 && worst < 1e-6;
}

template <class F>
double ms_of(F&& f) {
  const auto start = std::chrono::steady_clock::now();
  f();
  jet::synchronize();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

int run() {
  const std::int64_t n_clusters = 2, num = 5000000;
  const int max_iter = 10;
  std::mt19937_64 rng(0);
  std::normal_distribution<double> randn;
  std::vector<double> samples(2 * num);
  for (double& s : samples) s = randn(rng);
  std::vector<std::int64_t> initial(n_clusters);
  std::uniform_int_distribution<std::int64_t> pick(0, num - 1);
  for (std::int64_t& i : initial) i = pick(rng);
  if (initial[0] == initial[1]) initial[1] = (initial[0] + 1) % num;  // without replacement

  const jet::array X = jet::asarray(samples, {num, 2});
  const jet::array start = jet::asarray(initial);
  const host_fit want = reference(samples, n_clusters, max_iter, initial);
  const kmeans::kernels k;
  kmeans::fit_result xp, custom;
  kmeans::fit_xp(X, n_clusters, max_iter, start);  // compiles the kernels
  kmeans::fit_custom(k, X, n_clusters, max_iter, start);
  const double xp_ms = ms_of([&] { xp = kmeans::fit_xp(X, n_clusters, max_iter, start); });
  const double custom_ms =
      ms_of([&] { custom = kmeans::fit_custom(k, X, n_clusters, max_iter, start); });
  std::printf("fit_xp %.1f ms, fit_custom %.1f ms (warm)\n", xp_ms, custom_ms);
  const bool ok = matches("fit_xp", xp, want) && matches("fit_custom", custom, want);
  // What the example plots: the samples of each cluster, selected by a mask.
  for (std::int64_t i = 0; i < n_clusters; ++i) {
    const jet::array labels = X(xp.pred == i);
    std::printf("cluster %lld: %lld points, center (%.4f, %.4f)\n", static_cast<long long>(i),
                static_cast<long long>(labels.size() / 2), xp.centers(i, 0).item<double>(),
                xp.centers(i, 1).item<double>());
  }
  if (!ok) std::printf("FAILED: a fit differs from the host reference\n");
  return ok ? 0 : 1;
}

}  // namespace

int main() { return example_main("kmeans", run); }
