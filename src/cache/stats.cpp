// include/jet/cache.hpp: the kernel cache counters and the cache folder.
#include "src/cache/stats.hpp"

#include <atomic>

#include "jet/cache.hpp"
#include "src/cache/directory.hpp"

namespace jet::detail {
namespace {

struct counters {
  std::atomic<std::uint64_t> memory_hits{0}, disk_hits{0}, compiles{0}, compile_ns{0};
  std::atomic<std::uint64_t> bytes_loaded{0}, bytes_stored{0}, evictions{0}, bad_entries{0};
};

counters& all() {
  static counters c;
  return c;
}

void add(std::atomic<std::uint64_t>& counter, std::uint64_t amount) {
  counter.fetch_add(amount, std::memory_order_relaxed);
}

}  // namespace

void note_memory_hit() { add(all().memory_hits, 1); }
void note_disk_hit(std::uint64_t bytes) {
  add(all().disk_hits, 1);
  add(all().bytes_loaded, bytes);
}
void note_compile(double milliseconds) {
  add(all().compiles, 1);
  add(all().compile_ns, static_cast<std::uint64_t>(milliseconds * 1e6));
}
void note_store(std::uint64_t bytes) { add(all().bytes_stored, bytes); }
void note_evictions(std::uint64_t count) { add(all().evictions, count); }
void note_bad_entry() { add(all().bad_entries, 1); }

}  // namespace jet::detail

namespace jet::cache {

statistics stats() {
  const detail::counters& c = detail::all();
  statistics s;
  s.memory_hits = c.memory_hits.load(std::memory_order_relaxed);
  s.disk_hits = c.disk_hits.load(std::memory_order_relaxed);
  s.compiles = c.compiles.load(std::memory_order_relaxed);
  s.compile_ms = static_cast<double>(c.compile_ns.load(std::memory_order_relaxed)) / 1e6;
  s.bytes_loaded = c.bytes_loaded.load(std::memory_order_relaxed);
  s.bytes_stored = c.bytes_stored.load(std::memory_order_relaxed);
  s.evictions = c.evictions.load(std::memory_order_relaxed);
  s.bad_entries = c.bad_entries.load(std::memory_order_relaxed);
  return s;
}

std::string directory() { return detail::cache_directory(); }

}  // namespace jet::cache
