// Monte Carlo pricing of a European call with cuRAND's device API inside an
// elementwise_kernel: each element is one path, drawn from its own Philox subsequence.
// (CuPy's own Monte Carlo example writes its RNG by hand, because curand_kernel.h does not
// compile in CuPy's user kernels; Jet passes NVRTC the toolkit's include folders.)
#include <chrono>
#include <cmath>
#include <cstdio>

#include <jet/jet.hpp>

#include "example_main.hpp"

namespace {

double closed_form_call(double s, double x, double t, double r, double v) {
  const double d1 = (std::log(s / x) + (r + 0.5 * v * v) * t) / (v * std::sqrt(t));
  const double d2 = d1 - v * std::sqrt(t);
  const auto n = [](double d) { return 0.5 * std::erfc(-d / std::sqrt(2.0)); };
  return s * n(d1) - x * std::exp(-r * t) * n(d2);
}

int run() {
  const double s = 100, x = 105, t = 1.5, r = 0.03, v = 0.25;
  const std::int64_t paths = 1 << 24;
  const jet::elementwise_kernel payoff(
      "float64 s, float64 x, float64 t, float64 r, float64 v, uint64 seed", "float64 discounted",
      R"(
    curandStatePhilox4_32_10_t state;
    curand_init(seed, i, 0, &state);
    const double z = curand_normal_double(&state);
    const double end = s * exp((r - 0.5 * v * v) * t + v * sqrt(t) * z);
    discounted = exp(-r * t) * (end > x ? end - x : 0.0);
  )",
      "call_payoff", "#include <curand_kernel.h>");
  const auto start = std::chrono::steady_clock::now();
  const jet::array values =
      payoff(s, x, t, r, v, std::uint64_t{2024}, jet::empty({paths}, jet::float64));
  const double mean = jet::mean(values).eval().item<double>();
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const double spread =
      jet::std(values).eval().item<double>() / std::sqrt(static_cast<double>(paths));
  const double exact = closed_form_call(s, x, t, r, v);
  std::printf("%lld paths: %.5f +- %.5f (closed form %.5f), %.1f ms including the first compile\n",
              static_cast<long long>(paths), mean, spread, exact, ms);
  if (!(std::abs(mean - exact) < 5 * spread)) {
    std::printf(
        "FAILED: the Monte Carlo price is more than 5 standard errors from the closed form\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main() { return example_main("monte_carlo", run); }
