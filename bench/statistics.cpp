// Searching, sets, counting and order statistics, each beside the copy bandwidth of the same run
// (bench/compare.py times CuPy's under the same names): unique of 2^24 int32 with 2^16
// distinct values, searchsorted of 2^24 queries into 2^24 sorted values, histogram(x, 1024)
// and bincount of 2^26 elements, median of 2^26 float32.
#include <cstdio>

#include "bench/timing.hpp"
#include "jet/jet.hpp"

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;
  const std::int64_t m = std::int64_t{1} << 24, n = std::int64_t{1} << 26;
  // 2^16 distinct values, spread by a multiplicative hash.
  const jet::array keys = jet::astype((jet::arange(m) * 2654435761LL) % 65536, jet::int32);
  const jet::array distinct = jet::unique(keys);
  std::printf("unique of 2^24 int32: %lld distinct values\n",
              static_cast<long long>(distinct.size()));
  bench::result("unique 2^24 int32, 2^16 distinct (ms)",
                bench::median_ms([&] { const jet::array r = jet::unique(keys); }), "ms", "<= CuPy");

  // Uniform draws on [0, 1), as bench/compare.py gives CuPy: a histogram's adds collide as often
  // on both sides (smooth data, whose neighbours share a bin, collide far more).
  jet::random::generator g(2025);
  const jet::array sorted = jet::sort(g.rand({m}, jet::float32));
  const jet::array queries = g.rand({m}, jet::float32);
  bench::result("searchsorted 2^24 into 2^24 float32 (ms)",
                bench::median_ms([&] { const jet::array r = jet::searchsorted(sorted, queries); }),
                "ms", "<= CuPy");

  const jet::array x = g.rand({n}, jet::float32);
  bench::result("histogram(x, 1024) 2^26 float32 (ms)",
                bench::median_ms([&] { const jet::histogram_result r = jet::histogram(x, 1024); }),
                "ms", "<= CuPy");
  const jet::array small = jet::astype(jet::arange(n) % 1024, jet::int32);
  bench::result("bincount 2^26 int32 < 1024 (ms)",
                bench::median_ms([&] { const jet::array r = jet::bincount(small); }), "ms",
                "<= CuPy");
  bench::result("median 2^26 float32 (ms)",
                bench::median_ms([&] { const jet::array r = jet::median(x); }), "ms", "<= CuPy");
  return 0;
}
