// jet-cache warm: compiles the kernels of a record file ahead of time into the cache.
#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cstring>
#include <mutex>
#include <set>
#include <thread>

#include "jet/cache.hpp"
#include "jet/error.hpp"
#include "src/cache/directory.hpp"
#include "src/cache/disk_cache.hpp"
#include "src/cache/record.hpp"
#include "tools/jet-cache/commands.hpp"
#include "tools/jet-cache/output.hpp"

namespace jet::cli {
namespace {

struct job {
  const detail::recorded_kernel* kernel;
  std::string arch;
  detail::kernel_identity id;
};

// "sm_90", "sm_90a", "compute_80": what jet::device::arch() and NVRTC spell.
bool is_arch(const std::string& arch) {
  const std::size_t digits = arch.rfind("sm_", 0) == 0 ? 3 : arch.rfind("compute_", 0) == 0 ? 8 : 0;
  if (digits == 0 || arch.size() == digits ||
      !std::isdigit(static_cast<unsigned char>(arch[digits])))
    return false;
  const auto end =
      std::find_if(arch.begin() + static_cast<std::ptrdiff_t>(digits), arch.end(),
                   [](char c) { return !std::isdigit(static_cast<unsigned char>(c)); });
  const bool short_number = end - arch.begin() <= static_cast<std::ptrdiff_t>(digits) + 4;
  return short_number && (end == arch.end() || (end + 1 == arch.end() &&
                                                std::islower(static_cast<unsigned char>(*end))));
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

}  // namespace

int run_warm(const invocation& inv) {
  if (!inv.arch.empty() && !is_arch(inv.arch))
    throw usage_error("--arch wants a GPU architecture such as sm_90, not '" + inv.arch + "'");
  detail::record_file records;
  try {
    records = detail::read_records(inv.operands.at(0));
  } catch (const cache_error& e) {
    throw usage_error(e.what());
  }
  // A record file lists a kernel once per process that used it: compile each key once.
  std::vector<job> jobs;
  std::set<std::string> seen;
  std::size_t bad_arch = 0;
  for (const detail::recorded_kernel& k : records.kernels) {
    const std::string arch = inv.arch.empty() ? k.arch : inv.arch;
    if (!is_arch(arch)) {
      records.problems.push_back("kernel " + k.source.name + " was recorded for '" + arch +
                                 "', not a GPU architecture; give --arch");
      ++bad_arch;
      continue;
    }
    detail::kernel_identity id = detail::identify(k.source, arch, k.extras);
    if (seen.insert(id.key).second) jobs.push_back({&k, arch, std::move(id)});
  }
  for (const std::string& p : records.problems)
    fmt::print(stderr, "jet-cache warm: {}: {}\n", inv.operands[0], p);
  if (const int error = detail::make_directory(inv.dir)) {
    fmt::print(stderr, "jet-cache warm: cannot create {}: {}\n", inv.dir, std::strerror(error));
    return 1;
  }
  if (const std::string why = detail::unsafe_folder_reason(inv.dir); !why.empty()) {
    fmt::print(stderr,
               "jet-cache warm: {} is {}; Jet would never load from it (chmod go-w to fix)\n",
               inv.dir, why);
    return 1;
  }

  const std::uint64_t max_bytes = detail::settings_from_env().max_bytes;
  std::atomic<std::size_t> next{0}, done{0}, present{0}, compiled{0};
  std::mutex failures_mutex;
  std::vector<std::string> failures;
  auto fail = [&](std::string message) {
    std::lock_guard lock(failures_mutex);
    failures.push_back(std::move(message));
  };
  auto warm_one = [&](const job& j) {
    try {
      if (detail::load_entry(inv.dir, j.id)) {
        ++present;
        return;
      }
      const detail::compiled_kernel k = detail::compile(j.kernel->source, j.arch, j.kernel->extras);
      if (!detail::store_entry(inv.dir, j.id, j.kernel->source, k, max_bytes))
        throw cache_error("could not be stored in " + inv.dir);
      ++compiled;
    } catch (const compile_error& e) {
      fail(fmt::format("{} for {}: {}\n{}", j.kernel->source.name, j.arch, first_line(e.what()),
                       e.log()));
    } catch (const std::exception& e) {
      fail(fmt::format("{} for {}: {}", j.kernel->source.name, j.arch, e.what()));
    }
  };
  auto work = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      warm_one(jobs[i]);
      ++done;
    }
  };
  // NVRTC compiles one program per thread; a thread per core keeps every core busy.
  const std::size_t threads =
      std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), jobs.size());
  std::vector<std::thread> pool;
  for (std::size_t t = 0; t < threads; ++t) pool.emplace_back(work);
  progress shown("warm", "kernels");
  while (done < jobs.size()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    shown.update(done, jobs.size());
  }
  for (std::thread& t : pool) t.join();
  shown.finish(done, jobs.size());

  for (const std::string& f : failures) fmt::print(stderr, "jet-cache warm: {}\n", f);
  fmt::print("warmed {}: {} compiled, {} already present, {} failed", inv.dir, compiled.load(),
             present.load(), failures.size());
  if (const std::size_t repeated = records.kernels.size() - jobs.size() - bad_arch; repeated > 0)
    fmt::print(" ({} repeated records)", repeated);
  fmt::print("\n");
  if (const std::uint64_t evicted = jet::cache::stats().evictions)
    fmt::print("{} entries evicted to stay under JET_CACHE_MAX_BYTES ({})\n", evicted,
               format_bytes(max_bytes));
  return failures.empty() && records.problems.empty() ? 0 : 1;
}

}  // namespace jet::cli
