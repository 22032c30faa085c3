// CuPy's examples/finance/monte_carlo.py in Jet: call prices of European options by Monte
// Carlo, checked against Black-Scholes. CuPy's sample writes its random numbers by hand in an
// ElementwiseKernel, each thread looping over its samples; here the samples are a
// jet::random::randn expression, drawn inside the one reduction kernel that averages every
// option's payoffs, so no sample touches memory.
//
//   option_prices [options] [samples per option]   (CuPy's defaults: 1000 and 10^8)
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include <jet/jet.hpp>

#include "black_scholes.hpp"
#include "example_main.hpp"

namespace {

// The discounted mean payoff of each option over `samples` lognormal prices at expiry.
jet::array option_prices(const jet::array& s, const jet::array& x, const jet::array& t, double r,
                         double v, std::int64_t samples) {
  const jet::array column_s = s.expand_dims(1), column_x = x.expand_dims(1);
  const jet::array column_t = t.expand_dims(1);
  const jet::expr z = jet::random::randn({s.size(), samples});
  const jet::expr price =
      column_s * jet::exp((r - v * v / 2) * column_t + v * jet::sqrt(column_t) * z);
  return jet::exp(-r * t) * jet::mean(jet::maximum(price - column_x, 0.0), 1);
}

// CuPy's rand_range: `n` float64 values uniform in [low, high).
jet::array rand_range(std::int64_t n, double low, double high) {
  return low + (high - low) * jet::random::rand({n});
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  jet::synchronize();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

int run(std::int64_t options, std::int64_t samples) {
  jet::random::seed(0);
  const jet::array s = rand_range(options, 5, 30), x = rand_range(options, 1, 100);
  const jet::array t = rand_range(options, 0.25, 10);
  const double r = 0.02, v = 0.3;
  std::printf("options: %lld, samples per option: %lld\n", static_cast<long long>(options),
              static_cast<long long>(samples));
  jet::synchronize();
  auto start = std::chrono::steady_clock::now();
  jet::array call = option_prices(s, x, t, r, v, samples);
  std::printf("GPU (Jet, Monte Carlo method), first call:\t%f sec\n", seconds_since(start));
  start = std::chrono::steady_clock::now();
  call = option_prices(s, x, t, r, v, samples);
  const double warm = seconds_since(start);
  std::printf("GPU (Jet, Monte Carlo method):\t%f sec\n", warm);
  std::printf("RESULT %-44s %10.4f ms     reference\n", "option prices (examples/option_prices)",
              1e3 * warm);
  const double error =
      jet::array(jet::std(call - black_scholes::call(s, x, t, r, v))).item<double>();
  std::printf("Error: %f\n", error);
  // The payoffs' standard deviation is below 40 (30 sqrt(exp(0.3^2 10) - 1) = 36.7 at most),
  // so each price's standard error is below 40 / sqrt(samples); the polynomial CDF's is 1e-5.
  if (!(error < 5 * 40 / std::sqrt(static_cast<double>(samples)) + 1e-5)) {
    std::printf("FAILED: the Monte Carlo prices are too far from Black-Scholes\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::int64_t options = argc > 1 ? std::atoll(argv[1]) : 1000;
  const std::int64_t samples = argc > 2 ? std::atoll(argv[2]) : 100'000'000;
  return example_main("option_prices", [&] { return run(options, samples); });
}
