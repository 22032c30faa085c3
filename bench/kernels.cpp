// User kernels, beside the copy bandwidth: the host cost of launching a cached
// raw_kernel against a bare cuLaunchKernel of the same code, Black-Scholes as plain Jet
// expressions against a hand-written elementwise_kernel, and the cold compile of a kernel
// that includes curand_kernel.h.
#include <cudaTypedefs.h>

#include <chrono>
#include <cstdio>

#include "bench/timing.hpp"
#include "examples/black_scholes.hpp"
#include "jet/jet.hpp"
#include "src/nvrtc/compile.hpp"
#include "src/user/arguments.hpp"

namespace {

const char* const small_source = R"(
extern "C" __global__ void touch(float* x, float a, long long n) {
  if (blockIdx.x == 0 && threadIdx.x == 0 && n > 0) x[0] += a;
}
)";

// Microseconds of host time per call of f, over `calls` calls, the queue drained between rounds.
template <class F>
double host_us(F&& f, int calls = 20000) {
  double best = 1e30;
  for (int round = 0; round < 5; ++round) {
    jet::synchronize();
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < calls; ++k) f();
    const double us =
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start)
            .count() /
        calls;
    best = std::min(best, us);
  }
  jet::synchronize();
  return best;
}

// Host cost of a launch: raw_kernel (cached after the first) against the bare driver call.
void launch_figures() {
  const jet::array x = jet::zeros({16}, jet::float32);
  const jet::raw_kernel touch(small_source, "touch");
  const std::int64_t n = 16;
  touch(1, 32, x, 1.0f, n);
  const double raw_us = host_us([&] { touch(1, 32, x, 1.0f, n); });
  const jet::detail::compiled_kernel compiled =
      jet::detail::compile({"touch", small_source}, jet::device::arch());
  cudaLibrary_t library = nullptr;
  cudaKernel_t kernel = nullptr;
  bench::check(cudaLibraryLoadData(&library, compiled.image.data(), nullptr, nullptr, 0, nullptr,
                                   nullptr, 0),
               "cudaLibraryLoadData");
  bench::check(cudaLibraryGetKernel(&kernel, library, "touch"), "cudaLibraryGetKernel");
  void* launch_kernel = nullptr;
  bench::check(cudaGetDriverEntryPointByVersion("cuLaunchKernel", &launch_kernel, 12000,
                                                cudaEnableDefault, nullptr),
               "cudaGetDriverEntryPointByVersion(cuLaunchKernel)");
  const auto bare = reinterpret_cast<PFN_cuLaunchKernel_v4000>(launch_kernel);
  void* pointer = x.data();
  float a = 1.0f;
  long long count = n;
  void* args[] = {&pointer, &a, &count};
  const double bare_us = host_us([&] {
    if (bare(reinterpret_cast<CUfunction>(kernel), 1, 1, 1, 32, 1, 1, 0, jet::current_stream(),
             args, nullptr) != CUDA_SUCCESS) {
      std::fprintf(stderr, "cuLaunchKernel failed\n");
      std::exit(1);
    }
  });
  jet::synchronize();
  cudaLibraryUnload(library);
  std::printf("launch: %.3f us through jet::raw_kernel, %.3f us through a bare cuLaunchKernel\n",
              raw_us, bare_us);
  bench::result("raw_kernel launch above bare cuLaunchKernel (us)", raw_us - bare_us, "us", "<= 1");
}

// Black-Scholes, 10^7 float64 options: the inputs, the outputs, and both ways of pricing.
struct options_book {
  static constexpr std::int64_t options = 10'000'000;
  static constexpr double r = 0.02, v = 0.3;
  jet::array s = black_scholes::uniform(options, 5.0, 30.0, 1);
  jet::array strike = black_scholes::uniform(options, 1.0, 100.0, 2);
  jet::array t = black_scholes::uniform(options, 0.25, 10.0, 3);
  jet::array call = jet::empty({options}), put = jet::empty({options});
  jet::elementwise_kernel both = black_scholes::kernel(), call_only = black_scholes::kernel(false);

  void plain_call() { call(jet::ellipsis) = black_scholes::call(s, strike, t, r, v); }
  void plain_both() {
    const black_scholes::call_and_put both = black_scholes::prices(s, strike, t, r, v);
    call(jet::ellipsis) = both.call;
    put(jet::ellipsis) = both.put;
  }
  void assign_both() {
    const black_scholes::call_and_put both = black_scholes::prices(s, strike, t, r, v);
    jet::assign({{call, both.call}, {put, both.put}});
  }
  void kernel_call() { call_only(s, strike, t, r, v, call); }
  void kernel_both() { both(s, strike, t, r, v, call, put); }
};

// One call at a time, as a program that waits for each result runs them. The call price alone
// is one kernel either way (Jet fuses the whole formula); both prices are two Jet kernels, or
// one with jet::assign, against one user kernel.
void black_scholes_figures(options_book& book, double copy) {
  const double plain_ms = bench::median_ms([&] { book.plain_both(); });
  const double both_ms = bench::median_ms([&] { book.kernel_both(); });
  const double together_ms = bench::median_ms([&] { book.assign_both(); });
  const double plain_call_ms = bench::median_ms([&] { book.plain_call(); });
  const double kernel_call_ms = bench::median_ms([&] { book.kernel_call(); });
  // Bytes the call price must move: three inputs read, one output written.
  const double bytes = 4.0 * 8 * static_cast<double>(options_book::options);
  std::printf(
      "black-scholes call: Jet expression %.4f ms, elementwise_kernel %.4f ms (%.0f%% of copy)\n",
      plain_call_ms, kernel_call_ms, 100 * bytes / (kernel_call_ms * 1e-3) / 1e9 / copy);
  std::printf(
      "black-scholes call and put: Jet expressions %.4f ms (2 kernels), elementwise_kernel %.4f ms "
      "(1 kernel)\n",
      plain_ms, both_ms);
  bench::result("black-scholes call: plain Jet / elementwise_kernel",
                plain_call_ms / kernel_call_ms, "x", "<= 1.10");
  bench::result("black-scholes call+put: plain Jet / elementwise_kernel", plain_ms / both_ms, "x",
                "report");
  std::printf("black-scholes call and put: jet::assign of both %.4f ms (1 kernel)\n", together_ms);
  bench::result("black-scholes call+put: jet::assign / elementwise_kernel", together_ms / both_ms,
                "x", "<= 1.05");
  bench::result("black-scholes call+put: jet::assign (ms)", together_ms, "ms",
                "CuPy's plain version / 30 (compare.py black_scholes)");
}

// One call at a time includes the host's work before each launch (building and lowering the
// Jet expression); ten queued calls overlap it with the kernel before, leaving the kernels.
// Then the host's work alone, 200 calls enqueued far ahead of the GPU.
void black_scholes_queued_figures(options_book& book) {
  constexpr int queued = 10;
  const auto ten = [&](void (options_book::*f)()) {
    return bench::median_ms([&] {
      for (int i = 0; i < queued; ++i) (book.*f)();
    });
  };
  const double plain_queued_ms = ten(&options_book::plain_call);
  const double kernel_queued_ms = ten(&options_book::kernel_call);
  std::printf(
      "black-scholes call, 10 queued calls: Jet expression %.4f ms, elementwise_kernel %.4f ms "
      "each\n",
      plain_queued_ms / queued, kernel_queued_ms / queued);
  bench::result("black-scholes call, 10 queued: plain Jet / elementwise_kernel",
                plain_queued_ms / kernel_queued_ms, "x", "info");
  bench::result("black-scholes call+put, 10 queued: jet::assign / elementwise_kernel",
                ten(&options_book::assign_both) / ten(&options_book::kernel_both), "x", "<= 1.05");
  bench::result("black-scholes call+put: jet::assign host time a call (us)",
                host_us([&] { book.assign_both(); }, 200), "us", "info");
  bench::result("black-scholes call+put: elementwise_kernel host time a call (us)",
                host_us([&] { book.kernel_both(); }, 200), "us", "info");
}

// A reduction_kernel runs on the body of Jet's own reductions: the sum of squares of 2^26
// float32 both ways, beside the copy bandwidth.
void reduction_kernel_figures(double copy) {
  const jet::reduction_kernel sum_squares("T x", "T y", "x * x", "a + b", "y = a", "0",
                                          "sum_squares");
  const jet::array values = bench::random_floats({std::int64_t{1} << 26}, 0.1f);
  const double user_sum_ms = bench::median_ms([&] { sum_squares(values); });
  const double jet_sum_ms = bench::median_ms([&] { jet::array total = jet::sum(values * values); });
  const double read_bytes = 4.0 * static_cast<double>(std::int64_t{1} << 26);
  std::printf(
      "sum of squares of 2^26 float32: reduction_kernel %.4f ms (%.1f%% of copy), jet::sum(x * x) "
      "%.4f ms\n",
      user_sum_ms, 100 * read_bytes / (user_sum_ms * 1e-3) / 1e9 / copy, jet_sum_ms);
  bench::result("reduction_kernel sum of squares / jet::sum(x*x)", user_sum_ms / jet_sum_ms, "x",
                "info");
}

// Cold compiles of kernels including curand_kernel.h (fresh sources: no cache). The first of
// the process parses the header; later ones reuse NVRTC's precompiled header of it.
double curand_compile_ms(const char* draw) {
  const std::string source =
      "#include <curand_kernel.h>\n// " +
      std::to_string(std::chrono::steady_clock::now().time_since_epoch().count()) +
      "\nextern \"C\" __global__ void draw(double* out, unsigned long long seed) {\n"
      "  curandStatePhilox4_32_10_t s;\n  curand_init(seed, threadIdx.x, 0, &s);\n"
      "  out[threadIdx.x] = " +
      std::string(draw) + "(&s);\n}\n";
  const auto start = std::chrono::steady_clock::now();
  jet::detail::compile({"draw", source}, jet::device::arch(), jet::detail::user_extras({}));
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

void curand_figures() {
  const double curand_ms = curand_compile_ms("curand_normal_double"),
               second_ms = curand_compile_ms("curand_uniform_double");
  std::printf(
      "cold NVRTC compile of a kernel including curand_kernel.h: %.0f ms, a second one in the "
      "process %.0f ms\n",
      curand_ms, second_ms);
  bench::result("curand_kernel.h kernel cold compile (ms)", curand_ms, "ms", "report");
  bench::result("curand_kernel.h second kernel of a process (ms)", second_ms, "ms", "report");
}

}  // namespace

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;
  launch_figures();
  options_book book;
  black_scholes_figures(book, copy);
  black_scholes_queued_figures(book);
  reduction_kernel_figures(copy);
  curand_figures();
  return 0;
}
