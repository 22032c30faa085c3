// Black-Scholes for 10^7 float64 options: plain Jet expressions (both prices by one
// jet::evaluate) against a hand-written elementwise_kernel, both timed with CUDA events, their
// prices compared.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "black_scholes.hpp"
#include "example_main.hpp"

namespace {

template <class F>
float milliseconds(F&& f) {
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  f();  // warm-up: compiles or loads the kernels
  cudaEventRecord(start, jet::current_stream());
  for (int k = 0; k < 10; ++k) f();
  cudaEventRecord(stop, jet::current_stream());
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  return ms / 10;
}

int run() {
  const std::int64_t n = 10'000'000;
  const double r = 0.02, v = 0.3;
  const jet::array s = black_scholes::uniform(n, 5.0, 30.0, 1);
  const jet::array x = black_scholes::uniform(n, 1.0, 100.0, 2);
  const jet::array t = black_scholes::uniform(n, 0.25, 10.0, 3);
  jet::array call_jet, put_jet;
  // Both prices from one kernel, which computes what the two formulas share once.
  const float jet_ms = milliseconds([&] {
    const black_scholes::call_and_put both = black_scholes::prices(s, x, t, r, v);
    auto [call, put] = jet::evaluate(both.call, both.put);
    call_jet = call;
    put_jet = put;
  });
  const jet::elementwise_kernel k = black_scholes::kernel();
  jet::kernel_outputs prices;
  const float kernel_ms = milliseconds([&] { prices = k(s, x, t, r, v); });
  std::printf("10^7 options, float64: jet::evaluate of both %.3f ms, elementwise_kernel %.3f ms\n",
              jet_ms, kernel_ms);

  const double call_error = jet::max(jet::absolute(call_jet - prices[0])).eval().item<double>();
  const double put_error = jet::max(jet::absolute(put_jet - prices[1])).eval().item<double>();
  // Put-call parity holds for exact prices: C - P = S - X e^{-rT}.
  const double parity = jet::max(jet::absolute(prices[0] - prices[1] - (s - x * jet::exp(-r * t))))
                            .eval()
                            .item<double>();
  std::printf("largest differences: call %.3g, put %.3g; put-call parity off by %.3g\n", call_error,
              put_error, parity);
  if (call_error > 1e-9 || put_error > 1e-9 || parity > 1e-4) {
    std::printf("FAILED: the two versions disagree\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main() { return example_main("black_scholes", run); }
