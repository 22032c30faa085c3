// Many processes writing, reading and evicting in one cache folder at once: every entry
// left behind is whole, and no reader ever sees half a file.
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "jet/cache.hpp"
#include "src/cache/directory.hpp"
#include "src/cache/disk_cache.hpp"
#include "src/cache/inspect.hpp"
#include "src/cache/record.hpp"
#include "support/cache_support.hpp"
#include "support/catch.hpp"

namespace {

constexpr int processes = 16;
constexpr int kernels_per_process = 50;

// Kernel i of process p: even i is shared by every process, odd i is p's own.
jet::codegen::kernel_source kernel_of(int p, int i) {
  return i % 2 == 0 ? jet_test::small_kernel(i) : jet_test::small_kernel(1000 * (p + 1) + i);
}

// Runs body(p) in `processes` children at once; returns each child's exit status.
template <class F>
std::vector<int> in_children(F body) {
  std::vector<pid_t> children;
  for (int p = 0; p < processes; ++p) {
    const pid_t pid = fork();
    REQUIRE(pid >= 0);
    if (pid == 0) {
      int status = 99;
      try {
        status = body(p);
      } catch (...) {
      }
      _exit(status);  // no Catch2 or static teardown in the child
    }
    children.push_back(pid);
  }
  std::vector<int> statuses;
  for (const pid_t pid : children) {
    int status = 0;
    waitpid(pid, &status, 0);
    statuses.push_back(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
  }
  return statuses;
}

// Every child exited 0 and no entry in `cache` is bad; returns the verify report.
jet::detail::verify_report check_children_and_verify(const std::vector<int>& statuses,
                                                     const std::string& cache) {
  for (int p = 0; p < processes; ++p) {
    INFO("process " << p);
    CHECK(statuses[static_cast<std::size_t>(p)] == 0);
  }
  jet::detail::verify_report report =
      jet::detail::verify(cache, false, [](std::size_t, std::size_t) {});
  CHECK(report.bad.empty());
  return report;
}

}  // namespace

TEST_CASE("16 processes x 50 kernels, same and different keys, into one folder", "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::string cache = dir / "kernels";
  const jet::detail::compiled_kernel& image = jet_test::sample_image();  // compiled before forking
  const std::uint64_t unbounded = std::uint64_t{1} << 40;
  const std::vector<int> statuses = in_children([&](int p) {
    for (int i = 0; i < kernels_per_process; ++i) {
      const auto source = kernel_of(p, i);
      const jet::detail::kernel_identity id = jet::detail::identify(source, "sm_90");
      jet::detail::compiled_kernel k = image;
      k.name = source.name;
      if (!jet::detail::store_entry(cache, id, source, k, unbounded)) return 1;
      // Read a shared key that other processes are replacing at this moment.
      const auto shared = kernel_of(p, i - i % 2);
      const auto loaded = jet::detail::load_entry(cache, jet::detail::identify(shared, "sm_90"));
      if (!loaded || loaded->name != shared.name || loaded->image != image.image) return 2;
    }
    return jet::cache::stats().bad_entries == 0 ? 0 : 3;
  });
  const jet::detail::verify_report report = check_children_and_verify(statuses, cache);
  CHECK(report.checked == kernels_per_process / 2 + processes * kernels_per_process / 2);
  CHECK(report.unsafe_folders.empty());
}

TEST_CASE(
    "concurrent writers under a small bound: readers miss evicted entries, never read bad ones",
    "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::string cache = dir / "kernels";
  const jet::detail::compiled_kernel& image = jet_test::sample_image();
  const std::uint64_t bound = 40 * (image.image.size() + 200);
  const std::vector<int> statuses = in_children([&](int p) {
    for (int i = 0; i < kernels_per_process; ++i) {
      const auto source = kernel_of(p, i);
      jet::detail::compiled_kernel k = image;
      k.name = source.name;
      jet::detail::store_entry(cache, jet::detail::identify(source, "sm_90"), source, k, bound);
      const auto earlier = kernel_of(p, i / 2);
      const auto loaded = jet::detail::load_entry(cache, jet::detail::identify(earlier, "sm_90"));
      if (loaded && loaded->name != earlier.name) return 2;
    }
    return jet::cache::stats().bad_entries == 0 ? 0 : 3;
  });
  const jet::detail::verify_report report = check_children_and_verify(statuses, cache);
  // Each process checks the bound after its own stores, so the folder ends near it, far
  // below the 425 distinct kernels written.
  CHECK(report.checked < 40 + processes);
}

TEST_CASE("record lines appended by many processes at once stay whole", "[host][cache]") {
  const jet_test::temp_dir dir;
  const std::string file = dir / "record.jsonl";
  // Large sources make each line one long write, which O_APPEND alone would not keep whole.
  const std::string filler(20000, 'x');
  const std::vector<int> statuses = in_children([&](int p) {
    for (int i = 0; i < 10; ++i) {
      jet::detail::recorded_kernel k;
      k.source = {"k" + std::to_string(p) + "_" + std::to_string(i),
                  "// " + filler + "\n\"quoted\"\t" + std::to_string(i)};
      k.arch = "sm_90";
      k.options = {"--gpu-architecture=sm_90", "-std=c++17"};
      if (jet::detail::append_record(file, k) != 0) return 1;
    }
    return 0;
  });
  for (const int s : statuses) CHECK(s == 0);
  const jet::detail::record_file records = jet::detail::read_records(file);
  CHECK(records.problems.empty());
  REQUIRE(records.kernels.size() == processes * 10u);
  for (const jet::detail::recorded_kernel& k : records.kernels) {
    CHECK(k.source.source.size() == 3 + filler.size() + 10 + 1);
    CHECK(k.options.size() == 2);
  }
}
