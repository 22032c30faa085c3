// CuPy's examples/finance/monte_carlo_multigpu.py in Jet: European call prices by Monte Carlo
// on every GPU at once (`--gpus 0 1 ...`, all by default), each GPU drawing its own paths for
// every option. Where CuPy copies each GPU's prices to the host and averages them there, Jet
// averages on each GPU and combines the GPUs' averages with one NCCL all-reduce; the error
// against the Black-Scholes closed form (examples/black_scholes.hpp) is printed and checked.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include <jet/jet.hpp>

#include "black_scholes.hpp"
#include "example_main.hpp"

namespace {

namespace dist = jet::distributed;

struct options {
  std::vector<int> gpus;
  std::int64_t n_options = 1000;
  int samples_per_thread = 1000;
  std::int64_t threads_per_option = 10000;
};

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--gpus")
      while (i + 1 < argc && argv[i + 1][0] != '-') o.gpus.push_back(std::atoi(argv[++i]));
    else if (arg == "--n-options" && i + 1 < argc)
      o.n_options = std::atoll(argv[++i]);
    else if (arg == "--n-samples-per-thread" && i + 1 < argc)
      o.samples_per_thread = std::atoi(argv[++i]);
    else if (arg == "--n-threads-per-option" && i + 1 < argc)
      o.threads_per_option = std::atoll(argv[++i]);
  }
  return o;
}

// One thread's average discounted payoff over `n_samples` paths of its own Philox
// subsequence (the GPU's seed apart from the other GPUs').
jet::elementwise_kernel monte_carlo_kernel() {
  return jet::elementwise_kernel("T s, T x, T t, T r, T v, int32 n_samples, uint64 seed", "T call",
                                 R"(
    curandStatePhilox4_32_10_t state;
    curand_init(seed, i, 0, &state);
    const T drift = (r - 0.5 * v * v) * t, spread = v * sqrt(t);
    T total = 0;
    for (int k = 0; k < n_samples; ++k) {
      const T end = s * exp(drift + spread * curand_normal_double(&state));
      total += end > x ? end - x : 0;
    }
    call = exp(-r * t) * total / n_samples;
  )",
                                 "monte_carlo_kernel", "#include <curand_kernel.h>");
}

int run(const options& o) {
  std::printf("initializing...\n");
  const jet::array stock = black_scholes::uniform(o.n_options, 5, 30, 1);
  const jet::array strike = black_scholes::uniform(o.n_options, 1, 100, 2);
  const jet::array years = black_scholes::uniform(o.n_options, 0.25, 10, 3);
  const double risk_free = 0.02, volatility = 0.3;
  const std::vector<dist::communicator> comms = dist::communicator::local(o.gpus);
  const int n = static_cast<int>(comms.size());
  std::printf(
      "start computation\n    # of gpus: %d\n    # of options: %lld\n"
      "    # of samples per option: %lld\n",
      n, static_cast<long long>(o.n_options),
      static_cast<long long>(n * o.samples_per_thread * o.threads_per_option));
  // The inputs on every GPU, and the kernel compiled there before the timing starts.
  const jet::elementwise_kernel kernel = monte_carlo_kernel();
  std::vector<jet::array> s(n), x(n), t(n), prices(n), averages(n);
  for (int g = 0; g < n; ++g) {
    const jet::device_guard on(comms[g].device());
    s[g] = stock.to_device(comms[g].device());
    x[g] = strike.to_device(comms[g].device());
    t[g] = years.to_device(comms[g].device());
    prices[g] = jet::empty({o.n_options, o.threads_per_option}, jet::float64);
    kernel(s[g](jet::slice(0, 1), jet::newaxis), x[g](jet::slice(0, 1), jet::newaxis),
           t[g](jet::slice(0, 1), jet::newaxis), risk_free, volatility, 1, std::uint64_t{0},
           prices[g](jet::slice(0, 1), jet::slice(0, 1)));
  }
  for (int g = 0; g < n; ++g) {
    const jet::device_guard on(comms[g].device());
    jet::synchronize();
  }
  const auto start = std::chrono::steady_clock::now();
  for (int g = 0; g < n; ++g) {
    // Each GPU's paths, then each option's average over them, on that GPU.
    const jet::device_guard on(comms[g].device());
    kernel(s[g](jet::slice(), jet::newaxis), x[g](jet::slice(), jet::newaxis),
           t[g](jet::slice(), jet::newaxis), risk_free, volatility, o.samples_per_thread,
           static_cast<std::uint64_t>(g), prices[g]);
    averages[g] = jet::mean(prices[g], 1);
  }
  std::vector<jet::array> call_mc(n);
  dist::group([&] {
    for (int g = 0; g < n; ++g)
      call_mc[g] = dist::all_reduce(comms[g], averages[g], dist::reduce_op::avg);
  });
  for (int g = 0; g < n; ++g) {
    const jet::device_guard on(comms[g].device());
    jet::synchronize();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("GPU (Jet, Monte Carlo method):\t%f sec\n", seconds);
  // The error against the closed form, on the first GPU.
  const jet::device_guard on(comms[0].device());
  const jet::array call_bs = black_scholes::call(s[0], x[0], t[0], risk_free, volatility);
  const double error = jet::std(call_mc[0] - call_bs).item<double>();
  std::printf("Error: %f\n", error);
  if (!(error < 0.05)) {
    std::printf("FAILED: the Monte Carlo prices are further from the closed form than expected\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const options o = parse(argc, argv);
  return example_main("monte_carlo_multigpu", [&] {
    if (!dist::available()) {
      std::printf("%s: monte_carlo_multigpu skipped.\n", dist::unavailable_reason().c_str());
      return 0;
    }
    return run(o);
  });
}
