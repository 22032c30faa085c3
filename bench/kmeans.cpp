// k-means as CuPy's example runs it (2 clusters, 5,000,000 samples, at most 10 iterations):
// fit_xp (NumPy style, fancy indexing and masks on the device) and fit_custom (user kernels),
// on data both sides compute the same way, beside CuPy's figures (bench/compare.py).
#include <cstdio>

#include "bench/timing.hpp"
#include "examples/kmeans.hpp"

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;
  const std::int64_t num = 5000000, n_clusters = 2;
  const jet::array i = jet::arange(num).astype(jet::float64);
  jet::array X = jet::empty({num, 2}, jet::float64);
  X(jet::slice(), 0) = jet::sin(i * 12.9898);
  X(jet::slice(), 1) = jet::cos(i * 78.233);
  const jet::array start = jet::asarray<std::int64_t>({12345, 4000000});
  const kmeans::kernels k;
  int iterations = 0;
  const double xp = bench::median_ms(
      [&] { iterations = kmeans::fit_xp(X, n_clusters, 10, start).iterations; }, 10);
  std::printf("kmeans fit_xp, 5e6 x 2 float64: %.3f ms (%d iterations)\n", xp, iterations);
  bench::result("kmeans fit_xp 5e6 (ms)", xp, "ms", "<= CuPy/10");
  const double custom = bench::median_ms(
      [&] { iterations = kmeans::fit_custom(k, X, n_clusters, 10, start).iterations; }, 10);
  std::printf("kmeans fit_custom: %.3f ms (%d iterations)\n", custom, iterations);
  bench::result("kmeans fit_custom 5e6 (ms)", custom, "ms", "<= CuPy");

  // One fit_xp iteration, statement by statement.
  const jet::slice all;
  const kmeans::fit_result f = kmeans::fit_xp(X, n_clusters, 1, start);
  const jet::array centers = X(start), pred = f.pred;
  jet::array distances, new_pred, mask, sums, counts;
  const jet::array clusters = jet::arange(n_clusters);
  auto step = [&](const char* what, auto&& run) {
    std::printf("  fit_xp step %-44s %.4f ms\n", what, bench::median_ms(run, 10));
  };
  step("norm(X[:, None] - centers[None], axis=2)", [&] {
    distances =
        jet::linalg::norm(X(all, jet::newaxis, all) - centers(jet::newaxis, all, all), {}, 2);
  });
  step("argmin(distances, 1).astype(int32)",
       [&] { new_pred = jet::argmin(distances, 1).astype(jet::int32); });
  step("all(new_pred == pred) (waits)", [&] { (void)jet::all(new_pred == pred).item<bool>(); });
  step("mask = pred == i[:, None]", [&] { mask = pred == clusters(all, jet::newaxis); });
  step("sum(where(mask[:, :, None], X, 0), 1)",
       [&] { sums = jet::sum(jet::where(mask(all, all, jet::newaxis), X, 0), 1); });
  step("count_nonzero(mask, 1)", [&] { counts = jet::count_nonzero(mask, 1).reshape({2, 1}); });
  return 0;
}
