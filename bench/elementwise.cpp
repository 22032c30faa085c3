// Elementwise engine benchmarks, N = 2^26 float32, beside the copy bandwidth.
#include <cudaTypedefs.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "bench/timing.hpp"
#include "codegen/core/limits.hpp"
#include "codegen/plan/kernel_plan.hpp"
#include "jet/jet.hpp"
#include "src/cache/memory_cache.hpp"
#include "src/device/launch.hpp"
#include "src/pipeline/evaluate.hpp"

namespace {

double gbps(double bytes, double ms) { return bytes / (ms * 1e-3) / 1e9; }

}  // namespace

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;

  const std::int64_t n = std::int64_t{1} << 26;
  const jet::array a = bench::random_floats({n}, 0.1f), b = bench::random_floats({n}, 0.2f),
                   c = bench::random_floats({n}, 0.3f);
  jet::array out = jet::empty({n}, jet::float32);

  const double axpy = bench::median_ms([&] { out(jet::ellipsis) = 2.5 * a + b; });
  std::printf("2.5*a + b: %.4f ms, %.0f GB/s, %.1f%% of copy\n", axpy, gbps(3.0 * n * 4, axpy),
              100 * gbps(3.0 * n * 4, axpy) / copy);
  bench::result("2.5*a+b (% of copy bandwidth)", 100 * gbps(3.0 * n * 4, axpy) / copy, "%",
                ">= 93");

  const double chain = bench::median_ms(
      [&] { out(jet::ellipsis) = jet::sin(a) * jet::cos(b) + jet::exp(-c * c) * 0.5; });
  std::printf("sin(a)*cos(b) + exp(-c*c)*0.5: %.4f ms, %.1f%% of copy\n", chain,
              100 * gbps(4.0 * n * 4, chain) / copy);
  bench::result("sin*cos+exp chain (ms)", chain, "ms", "<= torch.compile (same run)");
  bench::result("sin*cos+exp chain (% of copy bandwidth)", 100 * gbps(4.0 * n * 4, chain) / copy,
                "%", "~93");

  const std::int64_t m = 8192;
  const jet::array col = bench::random_floats({m, 1}, 0.4f),
                   row = bench::random_floats({1, m}, 0.5f);
  jet::array square = jet::empty({m, m}, jet::float32);
  const double bcast = bench::median_ms([&] { square(jet::ellipsis) = col + row; });
  std::printf("(8192,1) + (1,8192): %.4f ms\n", bcast);
  bench::result("(8192,1)+(1,8192) (ms)", bcast, "ms", "<= CuPy/3");

  const jet::array A = bench::random_floats({m, m}, 0.6f), B = bench::random_floats({m, m}, 0.7f);
  const double transposed = bench::median_ms([&] { square(jet::ellipsis) = A + B.T(); });
  std::printf("A + B.T at 8192^2: %.4f ms\n", transposed);
  bench::result("A+B.T 8192^2 (ms)", transposed, "ms", "<= 0.6x CuPy");

  // Host cost per call of a cached 7-op expression on 1024 elements, then its parts.
  const jet::array x = bench::random_floats({1024}, 0.8f), y = bench::random_floats({1024}, 0.9f);
  auto seven = [&] { return jet::sqrt(jet::abs(x * y + 1.0f)) - jet::sin(x) / y; };
  // The best of 5 rounds of 10,000 calls, as bench/kernels.cpp and compare.py (for CuPy) time
  // host costs: the first round after the large kernels above ran ~25% slower in one process
  // than the same calls later (6.9 against 5.5 us).
  const int calls = 10000;
  auto host_us = [&](auto&& call) {
    for (int i = 0; i < 10; ++i) call();
    double best = 1e30;
    for (int round = 0; round < 5; ++round) {
      jet::synchronize();
      const auto start = std::chrono::steady_clock::now();
      for (int i = 0; i < calls; ++i) call();
      jet::synchronize();
      best = std::min(
          best, std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
                        .count() /
                    calls);
    }
    return best;
  };
  const double per_call_us = host_us([&] { return jet::array(seven()); });
  std::printf("cached 7-op expression on 1024 elements: %.2f us per call (host)\n", per_call_us);
  bench::result("7-op expression, host cost per call (us)", per_call_us, "us", "<= 6");
  const jet::array target = jet::empty({1024}, jet::float32);
  std::printf(
      "  of which: building the expression %.2f us, allocating and freeing the output %.2f us,\n"
      "  evaluating into an existing array %.2f us\n",
      host_us(seven), host_us([] { return jet::empty({1024}, jet::float32); }),
      host_us([&] { jet::detail::evaluate(*seven().node(), target); }));

  // A memory-cache hit: lowering (IR build, collapse, classify, parameter table), key, find
  // (target: <= 1 us).
  const jet::expr e = seven();
  jet::ir::graph g;
  jet::codegen::kernel_plan plan;
  std::string key;
  const jet::detail::loaded_kernel* found = nullptr;
  const double lookup_us = host_us([&] {
    jet::codegen::lower(*e.node(), target, 0, g, plan);
    key.clear();
    jet::codegen::append_key(plan, key);
    found = jet::detail::kernels().find(key);
  });
  std::printf("key lookup alone: %.3f us (%s)\n", lookup_us, found ? "hit" : "miss");
  bench::result("memory-cache hit: key lookup (us)", lookup_us, "us", "<= 1");

  // The launch alone, through Jet and through the driver API directly: the floor under the
  // host cost.
  alignas(16) std::byte params[jet::codegen::max_param_bytes];
  if (!found) {
    std::fprintf(stderr, "bench_elementwise: the 7-op kernel is not in the memory cache\n");
    return 1;
  }
  plan.params.pack(params);
  const double launch_us =
      host_us([&] { jet::detail::launch_block(found->handle(), dim3(1), dim3(256), params); });
  void* launch_kernel = nullptr;
  bench::check(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &launch_kernel, 12000,
                                                cudaEnableDefault, nullptr),
               "cudaGetDriverEntryPointByVersion(cuLaunchKernel)");
  const auto function = reinterpret_cast<CUfunction>(found->handle());
  void* args[] = {params};
  const double driver_us = host_us([&] {
    const CUresult status = reinterpret_cast<PFN_cuLaunchKernel_v4000>(launch_kernel)(
        function, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr);
    if (status != CUDA_SUCCESS) {
      std::fprintf(stderr, "cuLaunchKernel failed with CUresult %d\n", static_cast<int>(status));
      std::exit(1);
    }
  });
  std::printf(
      "launch alone: %.2f us through jet::detail::launch_block, %.2f us through a bare "
      "cuLaunchKernel\n",
      launch_us, driver_us);
  return 0;
}
