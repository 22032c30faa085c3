// Advanced indexing benchmarks: x[idx] through 2^26 random int64 positions, alone and fused
// into sin(x[idx]) * 2 + y, beside the copy bandwidth and CuPy's figures (bench/compare.py).
#include <cstdio>

#include "bench/timing.hpp"
#include "jet/jet.hpp"

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;
  const std::int64_t n = std::int64_t{1} << 26;
  const jet::array x = bench::random_floats({n}, 0.1f), y = bench::random_floats({n}, 0.2f);
  // Positions spread over all of x: a multiplicative hash of the element index.
  const jet::array idx = (jet::arange(n) * 2654435761LL) % n;
  jet::array out = jet::empty({n}, jet::float32);

  const double gather = bench::median_ms([&] { out(jet::ellipsis) = x(idx); });
  // Reads idx (8 bytes) and x (4, scattered), writes 4, per element.
  std::printf("x[idx], 2^26 float32: %.4f ms, %.1f%% of copy bandwidth (16 bytes an element)\n",
              gather, 100 * 16.0 * n / (gather * 1e-3) / 1e9 / copy);
  bench::result("x[idx] gather 2^26 (ms)", gather, "ms", "<= CuPy");
  const double fused = bench::median_ms([&] { out(jet::ellipsis) = jet::sin(x(idx)) * 2.0f + y; });
  std::printf("sin(x[idx]) * 2 + y: %.4f ms\n", fused);
  bench::result("sin(x[idx])*2+y 2^26 (ms)", fused, "ms", "<= CuPy/2");
  return 0;
}
