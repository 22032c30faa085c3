// The CuPy introduction, step by step, in Jet: what a CuPy user writes first, with the NumPy
// output each step prints beside Jet's. Each step says what it does as it goes; the program
// exits non-zero when a result differs from the expected one.
#include <jet/jet.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "example_main.hpp"

#ifdef JET_EXAMPLE_OPENBLAS
#include <cblas.h>
#endif

namespace {

int failures = 0;

void step(const char* title) { std::printf("\n== %s\n", title); }

// Prints Jet's text beside what NumPy prints for the same code, and counts a difference.
void same(const std::string& jet_text, const std::string& numpy_text) {
  std::printf("jet:   %s\nnumpy: %s\n", jet_text.c_str(), numpy_text.c_str());
  if (jet_text != numpy_text) {
    std::printf("  ^ differs\n");
    ++failures;
  }
}

void check(bool ok, const char* what) {
  std::printf("%s %s\n", ok ? "ok:" : "WRONG:", what);
  if (!ok) ++failures;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

void basics() {
  step("x = cp.arange(10) + 1; print(x)");
  same(jet::array_str(jet::arange(10) + 1), "[ 1  2  3  4  5  6  7  8  9 10]");
  same(jet::array_repr(jet::arange(6.0).reshape({2, 3}) / 4),
       "array([[0.  , 0.25, 0.5 ],\n       [0.75, 1.  , 1.25]])");

  step("cp.asarray(host) and cp.asnumpy(x): copies both ways");
  const std::vector<float> host{1.5f, -2.0f, 3.25f};
  const jet::array x = jet::asarray(host);
  check(x.to_vector<float>() == host, "asarray then to_vector gives the host values back");

  step("cp.sin of a random matrix");
  const jet::array m = jet::random::rand({3, 3});
  const jet::array s = jet::sin(m);
  check(jet::all(s >= 0 && s <= std::sin(1.0)).item<bool>(), "sin of U[0,1) lies in [0, sin 1]");
  std::printf("%s\n", jet::array_str(s).c_str());
}

void creation_and_reductions() {
  step("zeros, ones, random.rand, reshape, sum, mean");
  const jet::array z = jet::zeros({2, 3}, jet::float32);
  const jet::array o = jet::ones({6}).reshape({2, 3});
  same(jet::array_repr(z), "array([[0., 0., 0.],\n       [0., 0., 0.]], dtype=float32)");
  same(jet::array_str(jet::sum(o, 1)), "[3. 3.]");
  const jet::array r = jet::random::rand({1000, 1000});
  const double mean = jet::mean(r).item<double>();
  std::printf("mean of 10^6 U[0,1) draws: %.4f\n", mean);
  check(std::abs(mean - 0.5) < 0.01, "the mean is near 0.5");

  step("cp.dot and cp.linalg.norm");
  const jet::array a = jet::arange(6.0).reshape({2, 3});
  same(jet::array_str(jet::dot(a, a.T())), "[[ 5. 14.]\n [14. 50.]]");
  same(jet::array_str(jet::linalg::norm(jet::asarray({3.0, 4.0}))), "5.0");

  step("broadcasting: a (3, 1) column plus a (4,) row");
  const jet::array col = jet::arange(3).reshape({3, 1});
  const jet::array row = jet::arange(4) * 10;
  same(jet::array_str(col + row), "[[ 0 10 20 30]\n [ 1 11 21 31]\n [ 2 12 22 32]]");
}

void raw_kernel_and_memory() {
  step("cp.RawKernel: a kernel from a CUDA C string");
  const jet::raw_kernel square(R"(
extern "C" __global__ void square(const float* x, float* y, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = x[i] * x[i];
})",
                               "square");
  const jet::array x = jet::arange(5.0).astype(jet::float32);
  const jet::array y = jet::empty_like(x);
  square(jet::dims{1}, jet::dims{32}, x, y, 5);
  same(jet::array_str(y), "[ 0.  1.  4.  9. 16.]");

  step("the memory pool: cp.get_default_memory_pool().used_bytes()");
  const jet::memory::statistics before = jet::memory::stats();
  {
    const jet::array big = jet::zeros({1 << 20}, jet::float32);
    const jet::memory::statistics during = jet::memory::stats();
    std::printf("in use %zu bytes, pool holds %zu bytes\n", during.in_use, during.reserved);
    check(during.in_use >= before.in_use + (std::size_t{4} << 20), "4 MiB more in use");
  }
  check(jet::memory::stats().in_use == before.in_use, "freed when the array goes");
}

void matrix_product_timing() {
  step("a 10000 x 10000 float32 dot on the GPU against the CPU");
  const std::int64_t n = 10000;
  const jet::array a = jet::random::rand({n, n}, jet::float32);
  const jet::array b = jet::random::rand({n, n}, jet::float32);
  jet::array c = jet::dot(a, b);  // warm-up: cuBLAS's first call
  jet::synchronize();
  jet::event start, stop;
  start.record();
  c = jet::dot(a, b);
  stop.record();
  const double gpu_ms = jet::elapsed_ms(start, stop);
  std::printf("GPU (cuBLAS through jet::dot): %.1f ms, %.1f TFLOP/s\n", gpu_ms,
              2.0 * n * n * n / (gpu_ms * 1e-3) / 1e12);
#ifdef JET_EXAMPLE_OPENBLAS
  const std::vector<float> ha = a.to_vector<float>(), hb = b.to_vector<float>();
  std::vector<float> hc(static_cast<std::size_t>(n * n));
  const auto t0 = std::chrono::steady_clock::now();
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, ha.data(), n, hb.data(), n,
              0.0f, hc.data(), n);
  const double cpu_ms = seconds_since(t0) * 1e3;
  std::printf("CPU (OpenBLAS cblas_sgemm): %.1f ms: the GPU is %.0fx faster\n", cpu_ms,
              cpu_ms / gpu_ms);
  const float corner = c(n - 1, n - 1).item<float>();
  check(std::abs(corner - hc.back()) <= 1e-3f * std::abs(hc.back()), "GPU and CPU agree");
#else
  (void)seconds_since;
  std::printf(
      "CPU timing skipped: OpenBLAS was not found when this example was built "
      "(apt-get install libopenblas-dev, then rebuild).\n");
#endif
}

}  // namespace

int main() {
  return example_main("from_cupy", [] {
    basics();
    creation_and_reductions();
    raw_kernel_and_memory();
    matrix_product_timing();
    std::printf("\n%s\n", failures == 0 ? "every step as NumPy/CuPy" : "some steps differ");
    return failures == 0 ? 0 : 1;
  });
}
