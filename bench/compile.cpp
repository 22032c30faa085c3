// NVRTC time per kernel kind: every kind of kernel Jet generates, compiled as the pipeline
// compiles it (with the options its plan gives it), the least and the median of several
// compiles each, as a table; and the first NVRTC call of a process (run in child processes, so
// that each is really the first). Arguments are NVRTC options to add to every compile, to
// measure what they save. Jet's own kinds come from jet::explain over placeholders and the
// random kernels from their fixed sources, so the table needs no GPU; user kernels compile
// through the pipeline and need one. Last, 16 compiles of one kernel on 1, 2, 4 and 16 threads
// and in 16 processes: whether NVRTC compiles side by side on this machine, beside a plain
// CPU-bound loop on as many threads and the cgroup's CPU quota (whether the machine gives the
// cores it reports).
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "bench/timing.hpp"
#include "codegen/plan/kernel_plan.hpp"
#include "jet/jet.hpp"
#include "src/nvrtc/compile.hpp"
#include "src/random/kernels.hpp"

namespace {

constexpr int compiles_per_kind = 5;

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

struct row {
  std::string kind;
  std::size_t source_bytes = 0;
  double min_ms = 0, median_ms = 0;
};

// NVRTC options to try beside Jet's own: the program's arguments.
std::vector<std::string> trial;

// Compiles `source` with the options its plan gives it and the trial's.
row timed_row(const std::string& kind, const jet::codegen::kernel_source& source,
              const jet::detail::compile_extras& own) {
  jet::detail::compile_extras extras = own;
  extras.options.insert(extras.options.end(), trial.begin(), trial.end());
  std::vector<double> times;
  for (int i = 0; i < compiles_per_kind; ++i)
    times.push_back(jet::detail::compile(source, "sm_90", extras).milliseconds);
  return {kind, source.source.size(), *std::min_element(times.begin(), times.end()), median(times)};
}

row expression_row(const std::string& kind, const jet::expr& e) {
  const jet::explanation x = jet::explain(e);
  return timed_row(kind, {x.kernel_name, x.source}, jet::codegen::jet_kernel_extras());
}

// Jet's own kernel kinds, over placeholders.
std::vector<row> jet_rows() {
  using jet::placeholder;
  const jet::array v = placeholder({1 << 20}, jet::float32);
  const jet::array m = placeholder({4096, 4096}, jet::float32);
  const jet::array col = placeholder({4096, 1}, jet::float32);
  const jet::array d = placeholder({1 << 20}, jet::float64);
  const jet::array h = placeholder({1 << 20}, jet::float16);
  const jet::array b = placeholder({1 << 20}, jet::bfloat16);
  const jet::array c = placeholder({1 << 20}, jet::complex64);
  const jet::array t = placeholder({64, 512, 256}, jet::float32);
  const jet::array ints = placeholder({1 << 20}, jet::int32);
  return {
      expression_row("elementwise, contiguous (2.5*a+b)", 2.5f * v + v),
      expression_row("elementwise, transcendental (sin*cos+exp)",
                     jet::sin(v) * jet::cos(v) + jet::exp(v)),
      expression_row("elementwise, float64 (sqrt(a)/b)", jet::sqrt(d) / d),
      expression_row("elementwise, integer power (a**3)", jet::power(ints, 3)),
      expression_row("broadcast ((4096,1)+(4096,4096))", col + m),
      expression_row("transposed tiles (A+B.T)", m + m.T()),
      expression_row("float16 (a*b+1)", h * h + 1),
      expression_row("bfloat16 (exp(a))", jet::exp(b)),
      expression_row("complex64 (exp(z)*z)", jet::exp(c) * c),
      expression_row("reduction, full (sum)", jet::sum(v)),
      expression_row("reduction, inner axis (sum axis -1)", jet::sum(m, -1)),
      expression_row("reduction, outer axis (sum axis 0)", jet::sum(m, 0)),
      expression_row("reduction, middle axis (sum axis 1 of 3-D)", jet::sum(t, 1)),
      expression_row("reduction, fused producer (sum(exp(a)*b))", jet::sum(jet::exp(v) * v)),
      expression_row("reduction, mean axis -1", jet::mean(m, -1)),
      expression_row("argmax, full", jet::argmax(v)),
      expression_row("argmin, axis 0", jet::argmin(m, 0)),
      expression_row("var, axis -1", jet::var(m, -1)),
      expression_row("reduction, float16 (sum)", jet::sum(h)),
      expression_row("reduction, complex64 (sum)", jet::sum(c)),
  };
}

std::vector<row> random_rows() {
  std::vector<row> rows;
  for (const std::string& name : jet::random::detail::kernel_names()) {
    rows.push_back(timed_row("random: " + name, jet::random::detail::kernel_source(name),
                             jet::codegen::fixed_kernel_extras()));
  }
  return rows;
}

// A user kernel compiled through the pipeline, `compiles_per_kind` distinct ones (their names
// differ), timed by the cache's own NVRTC counter.
row user_row(const std::string& kind, const std::function<void(int)>& compile_one) {
  std::vector<double> times;
  for (int i = 0; i < compiles_per_kind; ++i) {
    const double before = jet::cache::stats().compile_ms;
    compile_one(i);
    times.push_back(jet::cache::stats().compile_ms - before);
  }
  return {kind, 0, *std::min_element(times.begin(), times.end()), median(times)};
}

// The two user kernels, each with the user's NVRTC `options` (the table's rows add -minimal,
// which Jet's own kernels take, to see what the user kernels' lack of it costs).
std::vector<row> user_rows(const std::string& label, const std::vector<std::string>& options) {
  const jet::array x = jet::ones({1 << 20}, jet::float32);
  return {
      user_row("user elementwise_kernel" + label,
               [&](int i) {
                 jet::elementwise_kernel k(
                     "T x, T y", "T z", "z = x * y + 1",
                     "user_ew" + std::to_string(options.size()) + "_" + std::to_string(i), "",
                     options);
                 jet::array z = k(x, x);
               }),
      user_row("user reduction_kernel" + label,
               [&](int i) {
                 jet::reduction_kernel k(
                     "T x", "T y", "x * x", "a + b", "y = a", "0",
                     "user_red" + std::to_string(options.size()) + "_" + std::to_string(i), "", "",
                     options);
                 jet::array y = k(x);
               }),
  };
}

// The first compile of a child process: NVRTC's start-up included.
double first_compile_of_a_process() {
  std::vector<double> firsts;
  for (int i = 0; i < compiles_per_kind; ++i) {
    int fds[2];
    if (pipe(fds) != 0) std::exit(1);
    const pid_t pid = fork();
    if (pid == 0) {
      close(fds[0]);
      const jet::array v = jet::placeholder({1 << 20}, jet::float32);
      const double ms = jet::explain(2.5f * v + v).compile_ms;
      if (write(fds[1], &ms, sizeof ms) != sizeof ms) _exit(1);
      _exit(0);
    }
    close(fds[1]);
    double ms = 0;
    const bool got = read(fds[0], &ms, sizeof ms) == sizeof ms;
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (!got || !WIFEXITED(status) || WEXITSTATUS(status) != 0) std::exit(1);
    firsts.push_back(ms);
  }
  return median(firsts);
}

// Side by side: 16 compiles of one small kernel, one after another on one thread, spread over
// threads of this process, and spread over child processes (each child's first NVRTC call
// included): whether NVRTC compiles faster side by side on this machine, which decides
// whether compile threads (JET_ASYNC=1) can shorten a first run.
constexpr int side_by_side = 16;

double wall_ms(const std::function<void()>& run) {
  const auto start = std::chrono::steady_clock::now();
  run();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

jet::codegen::kernel_source small_kernel() {
  const jet::array v = jet::placeholder({1 << 20}, jet::float32);
  const jet::explanation x = jet::explain(2.5f * v + v);
  return {x.kernel_name, x.source};
}

void compile_times(const jet::codegen::kernel_source& source, int times) {
  for (int i = 0; i < times; ++i)
    jet::detail::compile(source, "sm_90", jet::codegen::jet_kernel_extras());
}

double on_threads_ms(const jet::codegen::kernel_source& source, int threads) {
  return wall_ms([&] {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([&] { compile_times(source, side_by_side / threads); });
    for (std::thread& t : pool) t.join();
  });
}

// Forks before this process has run NVRTC or made a CUDA context, as a compile helper would
// start.
double in_processes_ms(int processes) {
  return wall_ms([&] {
    std::vector<pid_t> children;
    for (int p = 0; p < processes; ++p) {
      const pid_t pid = fork();
      if (pid == 0) {
        const jet::codegen::kernel_source source = small_kernel();  // explain compiles it once
        compile_times(source, side_by_side / processes - 1);
        _exit(0);
      }
      children.push_back(pid);
    }
    for (const pid_t pid : children) {
      int status = 0;
      if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        std::exit(1);
    }
  });
}

void side_by_side_results(double processes_ms) {
  const jet::codegen::kernel_source source = small_kernel();
  const double one = on_threads_ms(source, 1);
  const std::string what = std::to_string(side_by_side) + " compiles of 2.5*a+b";
  bench::result((what + ", 1 thread (ms)").c_str(), one, "ms", "reference");
  for (const int threads : {2, 4, side_by_side}) {
    const double ms = on_threads_ms(source, threads);
    bench::result((what + ", " + std::to_string(threads) + " threads (ms)").c_str(), ms, "ms",
                  "info");
  }
  bench::result((what + ", " + std::to_string(side_by_side) + " processes (ms)").c_str(),
                processes_ms, "ms", "info");
}

// A CPU-bound loop of fixed length on `threads` threads at once, wall milliseconds: what the
// machine's cores give any program, NVRTC aside.
double spin_ms(int threads) {
  return wall_ms([&] {
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
      pool.emplace_back([] {
        volatile std::uint64_t x = 1;
        for (int i = 0; i < 200'000'000; ++i) x = x * 6364136223846793005ULL + 1;
      });
    for (std::thread& t : pool) t.join();
  });
}

void cpu_parallelism() {
  std::ifstream quota("/sys/fs/cgroup/cpu.max");
  std::string line = "(no /sys/fs/cgroup/cpu.max)";
  if (quota) std::getline(quota, line);
  std::printf("cores reported: %u; cgroup cpu.max: %s\n", std::thread::hardware_concurrency(),
              line.c_str());
  const double one = spin_ms(1);
  for (const int threads : {1, 2, 4, side_by_side}) {
    const double ms = threads == 1 ? one : spin_ms(threads);
    std::printf(
        "CPU-bound loop on %2d threads: %.0f ms, %.2fx one thread's time for %dx its work\n",
        threads, ms, ms / one, threads);
  }
}

}  // namespace

int main(int argc, char** argv) {
  trial.assign(argv + 1, argv + argc);
  // The child processes fork before this process has made a CUDA context or run NVRTC.
  const double first = first_compile_of_a_process();
  const double processes_ms = in_processes_ms(side_by_side);
  std::vector<row> rows = jet_rows();
  const std::vector<row> random = random_rows();
  rows.insert(rows.end(), random.begin(), random.end());
  // The target holds for the kernels Jet generates; user kernels' sources are the user's.
  double slowest = 0;
  for (const row& r : rows) slowest = std::max(slowest, r.min_ms);
  if (jet::device::available()) {
    // An -I naming an empty folder made user kernels compile 2-5x faster in one run (NOTES.md).
    char empty_folder[] = "/tmp/jet-bench-empty-XXXXXX";
    const std::string include_empty =
        std::string("-I") + (mkdtemp(empty_folder) ? empty_folder : "/nonexistent");
    for (const auto& [label, options] : {std::pair<std::string, std::vector<std::string>>{"", {}},
                                         {", -minimal", {"-minimal"}},
                                         {", -I an empty folder", {include_empty}}}) {
      const std::vector<row> user = user_rows(label, options);
      rows.insert(rows.end(), user.begin(), user.end());
    }
  } else {
    std::printf("%s: user kernels are not timed\n", jet::device::unavailable_reason().c_str());
  }
  std::string extra;
  for (const std::string& o : trial) extra += " " + o;
  std::printf("NVRTC %s, sm_90, %d compiles each, options beside Jet's:%s\n",
              jet::detail::nvrtc_version().c_str(), compiles_per_kind,
              extra.empty() ? " none" : extra.c_str());
  std::printf("| %-48s | %12s | %8s | %8s |\n", "kernel kind", "source bytes", "min ms", "median");
  std::printf("|%s|%s|%s|%s|\n", std::string(50, '-').c_str(), std::string(14, '-').c_str(),
              std::string(10, '-').c_str(), std::string(10, '-').c_str());
  for (const row& r : rows)
    std::printf("| %-48s | %12zu | %8.1f | %8.1f |\n", r.kind.c_str(), r.source_bytes, r.min_ms,
                r.median_ms);
  const double typical = rows.front().median_ms;
  bench::result("NVRTC, slowest of Jet's kernel kinds (ms)", slowest, "ms", "<= 30");
  bench::result("first NVRTC call of a process, beyond a later one (ms)", first - typical, "ms",
                "<= 40");
  side_by_side_results(processes_ms);
  cpu_parallelism();
  return 0;
}
