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
#include "src/nvrtc/output.hpp"
#include "tools/jet-cache/commands.hpp"
#include "tools/jet-cache/output.hpp"
#include "tools/jet-cache/safety.hpp"

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

// Why NVRTC cannot build machine code for `arch` (one that is_arch() accepts), or "" when it
// can. Jet gives a device newer than its NVRTC the newest PTX, but a name warm is given
// stands for no device: sm_1, sm_50 or sm_9999 is a mistake, not a GPU to come.
std::string unbuildable(const std::string& arch) {
  const int number = std::stoi(arch.substr(arch.find('_') + 1));
  const std::vector<int>& archs = detail::supported_archs();
  if (std::find(archs.begin(), archs.end(), number) != archs.end()) return {};
  std::string known;
  for (int a : archs) known += (known.empty() ? "sm_" : ", sm_") + std::to_string(a);
  return "NVRTC " + detail::nvrtc_version() + " builds for " + known + " only";
}

std::string first_line(const std::string& text) { return text.substr(0, text.find('\n')); }

// The record file's kernels to compile, each key once (a file lists a kernel once per process
// that used it); kernels recorded for no architecture NVRTC builds become problems of `records`.
std::vector<job> jobs_of(const invocation& inv, detail::record_file& records,
                         std::size_t& bad_arch) {
  std::vector<job> jobs;
  std::set<std::string> seen;
  for (const detail::recorded_kernel& k : records.kernels) {
    const std::string arch = inv.arch.empty() ? k.arch : inv.arch;
    const std::string why = !is_arch(arch)     ? "not a GPU architecture"
                            : inv.arch.empty() ? unbuildable(arch)
                                               : "";
    if (!why.empty()) {
      records.problems.push_back("kernel " + k.source.name + " was recorded for '" + arch + "', " +
                                 why + "; give --arch");
      ++bad_arch;
      continue;
    }
    detail::kernel_identity id = detail::identify(k.source, arch, k.extras);
    if (seen.insert(id.key).second) jobs.push_back({&k, arch, std::move(id)});
  }
  return jobs;
}

// Whether the cache folder exists (made if need be) and Jet would load from it; says why not.
bool usable_folder(const invocation& inv) {
  if (const int error = detail::make_directory(inv.dir)) {
    fmt::print(stderr, "jet-cache warm: cannot create {}: {}\n", inv.dir, std::strerror(error));
    return false;
  }
  return !refuse_unsafe(inv, "warming");
}

// Why Jet would not load an entry of `key` stored in `dir` because of its subfolder, or "".
// The subfolder is made first (0700), as the store would make it.
std::string unsafe_subfolder(const std::string& dir, const std::string& key) {
  const std::string folder = dir + "/" + key.substr(0, 2);
  detail::make_directory(folder);  // a failure shows in the store
  const std::string why = detail::unsafe_folder_reason(folder);
  return why.empty() ? why
                     : fmt::format("not stored: {} is {}, so Jet loads nothing from it ({} to fix)",
                                   folder, why, repair_hint(why));
}

// The most lines of a failed compile's log that warm prints.
constexpr std::size_t log_lines = 40;

struct tally {
  std::atomic<std::size_t> present{0}, compiled{0};
  std::mutex failures_mutex;
  std::vector<std::string> failures;
  void fail(std::string message) {
    std::lock_guard lock(failures_mutex);
    failures.push_back(std::move(message));
  }
};

// Loads the entry of `j` if the cache has a good one, else compiles and stores it.
// A record is code from elsewhere: its compile log shows only what NVRTC quotes from the
// record's own source, and its image must define the kernel it names (a user module's name
// expressions NVRTC checks itself).
void warm_one(const invocation& inv, const job& j, std::uint64_t max_bytes, tally& t) {
  const std::string& name = j.kernel->source.name;
  try {
    if (const std::string why = unsafe_subfolder(inv.dir, j.id.key); !why.empty())
      throw cache_error(why);
    if (detail::load_entry(inv.dir, j.id)) {
      ++t.present;
      return;
    }
    const detail::compiled_kernel k = detail::compile(j.kernel->source, j.arch, j.kernel->extras);
    if (name != codegen::user_module_name && !detail::defines_kernel(k, name))
      throw cache_error("not stored: its source defines no kernel " + name +
                        " (an extern \"C\" __global__ function)");
    if (!detail::store_entry(inv.dir, j.id, j.kernel->source, k, max_bytes))
      throw cache_error("could not be stored in " + inv.dir);
    ++t.compiled;
  } catch (const compile_error& e) {
    t.fail(fmt::format("{} for {}: {}\n{}", name, j.arch, first_line(e.what()),
                       detail::log_of_own_source(e.log(), name, log_lines)));
  } catch (const std::exception& e) {
    t.fail(fmt::format("{} for {}: {}", name, j.arch, e.what()));
  }
}

// Every job, on a thread per core (NVRTC compiles one program per thread), with progress.
void warm_all(const invocation& inv, const std::vector<job>& jobs, std::uint64_t max_bytes,
              tally& t) {
  std::atomic<std::size_t> next{0}, done{0};
  auto work = [&] {
    for (std::size_t i = next++; i < jobs.size(); i = next++) {
      warm_one(inv, jobs[i], max_bytes, t);
      ++done;
    }
  };
  const std::size_t threads =
      std::min<std::size_t>(std::max(1u, std::thread::hardware_concurrency()), jobs.size());
  std::vector<std::thread> pool;
  for (std::size_t i = 0; i < threads; ++i) pool.emplace_back(work);
  progress shown("warm", "kernels");
  while (done < jobs.size()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    shown.update(done, jobs.size());
  }
  for (std::thread& thread : pool) thread.join();
  shown.finish(done, jobs.size());
}

}  // namespace

int run_warm(const invocation& inv) {
  if (!inv.arch.empty() && !is_arch(inv.arch))
    throw usage_error("--arch wants a GPU architecture such as sm_90, not '" + inv.arch + "'");
  if (!inv.arch.empty())
    if (const std::string why = unbuildable(inv.arch); !why.empty())
      throw usage_error("--arch " + inv.arch + ": " + why);
  detail::record_file records;
  try {
    records = detail::read_records(inv.operands.at(0));
  } catch (const cache_error& e) {
    throw usage_error(e.what());
  }
  std::size_t bad_arch = 0;
  const std::vector<job> jobs = jobs_of(inv, records, bad_arch);
  for (const std::string& p : records.problems)
    fmt::print(stderr, "jet-cache warm: {}: {}\n", inv.operands[0], p);
  if (!usable_folder(inv)) return 1;
  const std::uint64_t max_bytes = detail::settings_from_env().max_bytes;
  tally t;
  warm_all(inv, jobs, max_bytes, t);
  for (const std::string& f : t.failures) fmt::print(stderr, "jet-cache warm: {}\n", f);
  fmt::print("warmed {}: {} compiled, {} already present, {} failed", inv.dir, t.compiled.load(),
             t.present.load(), t.failures.size());
  if (const std::size_t repeated = records.kernels.size() - jobs.size() - bad_arch; repeated > 0)
    fmt::print(" ({} repeated records)", repeated);
  fmt::print("\n");
  if (const std::uint64_t evicted = jet::cache::stats().evictions)
    fmt::print("{} entries evicted to stay under JET_CACHE_MAX_BYTES ({})\n", evicted,
               format_bytes(max_bytes));
  return t.failures.empty() && records.problems.empty() ? 0 : 1;
}

}  // namespace jet::cli
