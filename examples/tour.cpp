// A tour of Jet: lazy expressions fused into one kernel, views, and the speedup over the CPU.
#include <jet/jet.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// Without a GPU, Jet still shows the CUDA C it generates, and NVRTC compiles it here.
void show_generated_kernel() {
  const jet::array x = jet::placeholder({4096, 4096}, jet::float32);
  const jet::array y = jet::placeholder({4096, 4096}, jet::float32);
  const jet::explanation e = jet::explain(jet::sin(x) * jet::cos(y) + jet::exp(-y * y) * 0.5);
  std::printf("The kernel Jet generates for sin(x)*cos(y) + exp(-y*y)*0.5 (%s):\n\n%s\n",
              e.kernel_name.c_str(), e.source.c_str());
  std::printf("Operands:\n%sBytes moved: %lld\n", e.operands.c_str(),
              static_cast<long long>(e.bytes));
  std::printf("NVRTC compiled it for %s in %.1f ms (%zu bytes of machine code).\n", e.arch.c_str(),
              e.compile_ms, e.binary_bytes);
}

void tour() {
  std::printf("Device: %s, %d SMs\n\n", jet::device::current().name.c_str(),
              jet::device::current().multiprocessors);

  // Arrays live on the GPU; arithmetic builds a lazy expression, evaluated as one kernel.
  const std::int64_t n = 1 << 24;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> hx(n), hy(n);
  for (std::int64_t i = 0; i < n; ++i) {
    hx[i] = dist(rng);
    hy[i] = dist(rng);
  }
  const jet::array x = jet::asarray(hx), y = jet::asarray(hy);
  const jet::expr e = jet::sin(x) * jet::cos(y) + jet::exp(-y * y) * 0.5;  // nothing ran yet
  std::printf("e = sin(x)*cos(y) + exp(-y*y)*0.5 is an expression of dtype %s, shape %s\n",
              std::string(jet::name(e.dtype())).c_str(), jet::to_string(e.shape()).c_str());

  jet::array z = e;  // compile once (NVRTC), then one fused kernel
  jet::synchronize();
  const int repeats = 20;
  auto start = std::chrono::steady_clock::now();
  for (int r = 0; r < repeats; ++r) z = e;
  jet::synchronize();
  const double gpu = seconds_since(start) / repeats;

  std::vector<float> hz(n);
  start = std::chrono::steady_clock::now();
  for (std::int64_t i = 0; i < n; ++i)
    hz[i] = std::sin(hx[i]) * std::cos(hy[i]) + std::exp(-hy[i] * hy[i]) * 0.5f;
  const double cpu = seconds_since(start);

  const std::vector<float> got = z.to_vector<float>();
  double worst = 0;
  for (std::int64_t i = 0; i < n; ++i) worst = std::max(worst, double(std::abs(got[i] - hz[i])));
  std::printf(
      "fused expression on %lld floats: CPU %.2f ms, Jet %.3f ms: %.0fx faster (max diff %.1e)\n",
      static_cast<long long>(n), cpu * 1e3, gpu * 1e3, cpu / gpu, worst);

  // Views never copy; assignment into a view runs in place.
  jet::array grid = jet::arange(12).reshape({3, 4});
  grid(jet::slice(), jet::slice(jet::none, jet::none, 2)) *= 10;
  std::printf("arange(12).reshape(3,4) with every other column times 10, transposed: ");
  for (std::int64_t v : grid.T().copy().to_vector<std::int64_t>())
    std::printf("%lld ", static_cast<long long>(v));
  std::printf("\n");
}

}  // namespace

int main() {
  std::printf("Jet tour\n========\n");
  if (!jet::device::available()) {
    std::printf("%s.\n\n", jet::device::unavailable_reason().c_str());
    show_generated_kernel();
    return 0;
  }
  try {
    tour();
  } catch (const jet::error& e) {
    std::fprintf(stderr, "jet error: %s\n", e.what());
    return 1;
  }
  return 0;
}
