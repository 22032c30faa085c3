// Kernel cache benchmarks: host timings, no GPU needed. Cold compile of a small
// elementwise kernel, a disk hit in a fresh process, storing, and jet-cache on 10,000 entries;
// with a GPU, also the first evaluation in a new process against a warm disk cache (the whole
// path, module load included). The memory hit (<= 1 us) is in bench_elementwise.
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench/timing.hpp"
#include "jet/jet.hpp"
#include "src/cache/disk_cache.hpp"

namespace {

using clock_type = std::chrono::steady_clock;
constexpr std::uint64_t unbounded = std::uint64_t{1} << 40;

double ms_since(clock_type::time_point start) {
  return std::chrono::duration<double, std::milli>(clock_type::now() - start).count();
}

double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + static_cast<long>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// What the eval driver does on a memory miss that the disk answers: key, read, check.
double time_disk_hit(const std::string& dir, const jet::codegen::kernel_source& source) {
  const auto start = clock_type::now();
  const auto hit = jet::detail::load_entry(dir, jet::detail::identify(source, "sm_90"));
  const double ms = ms_since(start);
  if (!hit) {
    std::fprintf(stderr, "bench_cache: expected a disk hit in %s\n", dir.c_str());
    std::exit(1);
  }
  return ms;
}

// The child: the first disk hit of a process, then the median of later ones, on stdout.
int child_load(const std::string& dir, const std::string& source_file, const std::string& name) {
  std::ifstream in(source_file, std::ios::binary);
  const jet::codegen::kernel_source source{name,
                                           std::string(std::istreambuf_iterator<char>(in), {})};
  const double first = time_disk_hit(dir, source);
  std::vector<double> later;
  for (int i = 0; i < 200; ++i) later.push_back(time_disk_hit(dir, source));
  std::printf("%.6f %.6f\n", first, median(later));
  return 0;
}

// The child: with the disk cache in `dir`, the wall time of the first evaluation of the
// benchmark's kernel in this process (render, key, disk read, module load, launch), after the
// CUDA context is up. Prints it and where the kernel came from.
int child_eval(const std::string& dir) {
  setenv("JET_CACHE_DIR", dir.c_str(), 1);
  const jet::array x = jet::empty({1 << 20}, jet::float32);
  jet::synchronize();
  const auto start = clock_type::now();
  const jet::array y = jet::sin(x) * 2.0f + x;
  jet::synchronize();
  const double ms = ms_since(start);
  const jet::cache::statistics s = jet::cache::stats();
  std::printf("%.6f %s\n", ms, s.disk_hits == 1 ? "disk" : s.compiles == 1 ? "compiled" : "other");
  return 0;
}

// Runs argv to completion with its stdout captured (or sent to /dev/null); returns wall ms.
double run_timed(const std::vector<std::string>& argv, std::string* output) {
  int fds[2];
  if (pipe(fds) != 0) std::exit(1);
  const auto start = clock_type::now();
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(fds[1]);
  char chunk[65536];
  for (ssize_t n; (n = read(fds[0], chunk, sizeof chunk)) > 0;)
    if (output) output->append(chunk, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  const double ms = ms_since(start);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "bench_cache: %s failed\n", argv[0].c_str());
    std::exit(1);
  }
  return ms;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 5 && std::string(argv[1]) == "--child-load")
    return child_load(argv[2], argv[3], argv[4]);
  if (argc == 3 && std::string(argv[1]) == "--child-eval") return child_eval(argv[2]);

  const std::string dir =
      (std::filesystem::temp_directory_path() / ("jet-bench-cache-" + std::to_string(getpid())))
          .string();
  std::filesystem::remove_all(dir);

  // A small elementwise kernel, as the renderer writes it.
  const jet::array x = jet::placeholder({1 << 20}, jet::float32);
  const jet::explanation e = jet::explain(jet::sin(x) * 2.0f + x);
  const jet::codegen::kernel_source source{e.kernel_name, e.source};
  std::printf("kernel %s: %zu bytes of source, %zu bytes of %s\n", e.kernel_name.c_str(),
              e.source.size(), e.binary_bytes, e.arch.c_str());
  bench::result("first compile of a process (ms)", e.compile_ms, "ms", "reference");
  std::vector<double> compiles;
  jet::detail::compiled_kernel compiled;
  for (int i = 0; i < 7; ++i) {
    compiled = jet::detail::compile(source, "sm_90");
    compiles.push_back(compiled.milliseconds);
  }
  bench::result("cold compile, small elementwise (ms)", median(compiles), "ms", "<= 60");

  const jet::detail::kernel_identity id = jet::detail::identify(source, "sm_90");
  jet::detail::store_entry(dir, id, source, compiled, unbounded);
  const std::string source_file = dir + "/source.cu";
  std::ofstream(source_file, std::ios::binary) << source.source;
  std::vector<double> first_hits, later_hits;
  for (int i = 0; i < 9; ++i) {
    std::string out;
    run_timed({"/proc/self/exe", "--child-load", dir, source_file, source.name}, &out);
    double first = 0, later = 0;
    if (std::sscanf(out.c_str(), "%lf %lf", &first, &later) != 2) return 1;
    first_hits.push_back(first);
    later_hits.push_back(later);
  }
  bench::result("disk hit, first in a new process (ms)", median(first_hits), "ms", "<= 0.5");
  bench::result("disk hit, later in a process (ms)", median(later_hits), "ms", "<= 0.5");

  if (jet::device::available()) {
    // The whole path on the GPU: a first process compiles and stores, later ones load.
    std::vector<double> evals;
    for (int i = 0; i < 10; ++i) {
      std::string out;
      run_timed({"/proc/self/exe", "--child-eval", dir + "/eval"}, &out);
      char origin[16] = {};
      double ms = 0;
      if (std::sscanf(out.c_str(), "%lf %15s", &ms, origin) != 2) return 1;
      const std::string expected = i == 0 ? "compiled" : "disk";
      if (origin != expected) {
        std::fprintf(stderr, "bench_cache: run %d: kernel %s, expected %s\n", i, origin,
                     expected.c_str());
        return 1;
      }
      if (i == 0)
        bench::result("first evaluation, cold cache, new process (ms)", ms, "ms", "reference");
      else
        evals.push_back(ms);
    }
    bench::result("first evaluation, disk hit incl. module load, new process (ms)", median(evals),
                  "ms", "<= 0.5");
  }

  // 10,000 entries: one image under 10,000 keys (a comment makes each source distinct).
  const std::string big = dir + "/many";
  std::vector<double> stores;
  for (int i = 0; i < 10000; ++i) {
    const jet::codegen::kernel_source s{source.name,
                                        source.source + "// " + std::to_string(i) + "\n"};
    const auto start = clock_type::now();
    jet::detail::store_entry(big, jet::detail::identify(s, "sm_90"), s, compiled, unbounded);
    stores.push_back(ms_since(start));
  }
  bench::result("store one entry (ms)", median(stores), "ms", "reference");
  const std::string tool = JET_CACHE_TOOL;
  for (const char* command : {"list", "stats", "verify"}) {
    std::vector<double> runs;
    std::string out;
    for (int i = 0; i < 3; ++i)
      runs.push_back(run_timed({tool, command, "--dir", big}, i == 0 ? &out : nullptr));
    const std::string name = std::string("jet-cache ") + command + ", 10000 entries (ms)";
    bench::result(name.c_str(), median(runs), "ms",
                  std::string(command) == "list" ? "<= 1000" : "reference");
  }
  std::vector<double> json_runs;
  for (int i = 0; i < 3; ++i)
    json_runs.push_back(run_timed({tool, "list", "--json", "--dir", big}, nullptr));
  bench::result("jet-cache list --json, 10000 entries (ms)", median(json_runs), "ms", "<= 1000");
  std::filesystem::remove_all(dir);
  return 0;
}
