// Benchmark timing: CUDA events around each run, warm-up first, median of many runs, and the
// device-to-device copy bandwidth measured in the same process as the reference.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "jet/jet.hpp"

namespace bench {

inline void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

// Median milliseconds of `runs` executions of f on the current stream, after `warmup`.
template <class F>
double median_ms(F&& f, int runs = 30, int warmup = 3) {
  cudaStream_t s = jet::current_stream();
  for (int i = 0; i < warmup; ++i) f();
  jet::synchronize();  // with JET_ASYNC=1, the warm-up's kernels may still be compiling
  cudaEvent_t start, stop;
  check(cudaEventCreate(&start), "cudaEventCreate");
  check(cudaEventCreate(&stop), "cudaEventCreate");
  std::vector<float> times;
  for (int i = 0; i < runs; ++i) {
    check(cudaEventRecord(start, s), "cudaEventRecord");
    f();
    check(cudaEventRecord(stop, s), "cudaEventRecord");
    check(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    check(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::nth_element(times.begin(), times.begin() + runs / 2, times.end());
  return times[runs / 2];
}

// cudaMemcpyAsync device to device of 256 MiB, counting bytes read plus written, in GB/s.
inline double copy_bandwidth() {
  const std::size_t bytes = std::size_t{256} << 20;
  void *a = nullptr, *b = nullptr;
  check(cudaMalloc(&a, bytes), "cudaMalloc");
  check(cudaMalloc(&b, bytes), "cudaMalloc");
  check(cudaMemset(a, 1, bytes), "cudaMemset");
  const double ms = median_ms([&] {
    check(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, jet::current_stream()),
          "cudaMemcpyAsync");
  });
  cudaFree(a);
  cudaFree(b);
  return 2.0 * bytes / (ms * 1e-3) / 1e9;
}

// One headline line per figure: gpu-check.sh collects the RESULT lines into its summary.
inline void result(const char* name, double value, const char* unit, const char* target) {
  std::printf("RESULT %-44s %10.4f %-6s %s\n", name, value, unit, target);
}

// Deterministic, non-constant float32 data made on the device (no dependence on jet::random).
inline jet::array random_floats(const jet::shape& s, float seed) {
  const jet::array i = jet::arange(s.product()).reshape(s);
  return jet::sin(jet::astype(i, jet::float32) * 0.001f + seed) * 3.0f;
}

// The start of every benchmark program: false without a GPU (after saying so); else the copy
// bandwidth of this run, printed and reported, in GB/s.
inline bool start(double& copy) {
  if (!jet::device::available()) {
    std::printf("%s: benchmarks need a GPU\n", jet::device::unavailable_reason().c_str());
    return false;
  }
  copy = copy_bandwidth();
  std::printf("device-to-device copy bandwidth: %.0f GB/s\n", copy);
  result("copy bandwidth (GB/s)", copy, "GB/s", "reference");
  return true;
}

}  // namespace bench
