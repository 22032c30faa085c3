// Random number benchmarks: 2^26 float32 draws (and int32 for randint) from the
// default generator, each beside the copy bandwidth of the same run; bench/compare.py times
// CuPy's same calls under the same names.
//
// Every timed statement is `jet::array r = jet::random::rand({n}, jet::float32);`: the
// result's allocation is part of what a user pays, as it is for
// `cupy.random.rand(n, dtype=cupy.float32)`.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/timing.hpp"
#include "jet/jet.hpp"

namespace {

// Mean and variance of the draws on the host, beside the distribution's, so that a fast but
// wrong generator shows here before anyone reads its time.
void print_check(const char* what, const jet::array& draws, double mean, double variance) {
  const std::vector<double> x = draws.to_vector<double>();
  double sum = 0, squares = 0;
  for (double v : x) sum += v;
  const double m = sum / static_cast<double>(x.size());
  for (double v : x) squares += (v - m) * (v - m);
  std::printf("check %-8s mean %.6f (want %.6f), variance %.6f (want %.6f)\n", what, m, mean,
              squares / static_cast<double>(x.size()), variance);
}

// Times `draw`, printed with the bytes it writes as a share of the copy bandwidth (which
// counts bytes read and written), and reports the milliseconds against the target.
template <class F>
double figure(const std::string& name, F&& draw, double bytes_written, double copy,
              const char* target) {
  const double ms = bench::median_ms(draw);
  std::printf("%s: %.4f ms, output written at %.1f%% of copy\n", name.c_str(), ms,
              100 * bytes_written / (ms * 1e-3) / 1e9 / copy);
  bench::result((name + " (ms)").c_str(), ms, "ms", target);
  return ms;
}

// Draws fused into the kernels that use them: rand * 2 - 1 written by one kernel, against a
// fill of the same bytes (the write bandwidth), and Monte Carlo pi as one reduction.
void fused_figures(std::int64_t n, double copy) {
  const double fill = figure(
      "random fill 2^26 float32 (write bandwidth)",
      [&] { jet::array r = jet::full({n}, 1.0f, jet::float32); }, 4.0 * n, copy, "reference");
  const double scaled = figure(
      "random rand*2-1 2^26 float32",
      [&] { jet::array r = jet::random::rand({n}, jet::float32) * 2 - 1; }, 4.0 * n, copy,
      "reference");
  bench::result("random rand*2-1 2^26 float32 (% of write bandwidth)", 100 * fill / scaled, "%",
                ">= 90");
  print_check("rand*2-1", jet::random::rand({n}, jet::float32) * 2 - 1, 0, 1.0 / 3);
  const std::int64_t samples = std::int64_t{1} << 30;
  auto pi = [&] {
    const jet::expr x = jet::random::rand({samples}), y = jet::random::rand({samples});
    return jet::array(jet::mean(x * x + y * y < 1));
  };
  std::printf("check pi: %.6f (want %.6f)\n", 4 * pi().item<double>(), M_PI);
  const double ms = bench::median_ms([&] { pi(); });
  bench::result("random Monte Carlo pi 2^30 float64 (ms)", ms, "ms", "reference");
  bench::result("random Monte Carlo pi 2^30 float64 (Gsamples/s)",
                static_cast<double>(samples) / (ms * 1e-3) / 1e9, "G/s", ">= 100");
}

}  // namespace

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;

  const std::int64_t n = std::int64_t{1} << 26;
  jet::random::seed(2026);
  print_check("rand", jet::random::rand({n}, jet::float32), 0.5, 1.0 / 12);
  print_check("randn", jet::random::randn({n}, jet::float32), 0, 1);
  print_check("randint", jet::random::randint(0, 1000, {n}, jet::int32), 499.5, (1e6 - 1) / 12);

  figure(
      "random rand 2^26 float32", [&] { jet::array r = jet::random::rand({n}, jet::float32); },
      4.0 * n, copy, "<= 0.61 (CuPy's)");
  figure(
      "random randn 2^26 float32", [&] { jet::array r = jet::random::randn({n}, jet::float32); },
      4.0 * n, copy, "<= 1.07 (CuPy's)");
  figure(
      "random randint 2^26 int32",
      [&] { jet::array r = jet::random::randint(0, 1000, {n}, jet::int32); }, 4.0 * n, copy,
      "<= CuPy's");
  // Beyond the targets: float64 and the kernels of Jet's own samplers.
  figure(
      "random rand 2^26 float64", [&] { jet::array r = jet::random::rand({n}); }, 8.0 * n, copy,
      "reference");
  figure(
      "random randn 2^26 float64", [&] { jet::array r = jet::random::randn({n}); }, 8.0 * n, copy,
      "reference");
  figure(
      "random gamma(2.5) 2^26 float32",
      [&] { jet::array r = jet::random::gamma(2.5, 1.0, {n}, jet::float32); }, 4.0 * n, copy,
      "reference");
  figure(
      "random permutation 2^20",
      [&] { jet::array r = jet::random::permutation(std::int64_t{1} << 20); }, 8.0 * (1 << 20),
      copy, "reference");
  fused_figures(n, copy);
  return 0;
}
