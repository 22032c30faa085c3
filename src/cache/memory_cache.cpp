// The in-memory kernel cache.
#include "src/cache/memory_cache.hpp"

#include <condition_variable>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>
#include <unordered_set>

namespace jet::detail {
namespace {

struct cache_state {
  mutable std::shared_mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<loaded_kernel>> map;
  std::unordered_set<std::string> making;  // keys a thread is compiling or loading
  std::condition_variable_any made;        // notified as each of those finishes
};

cache_state& state() {
  static cache_state* s = new cache_state;  // never destroyed: kernels outlive static arrays
  return *s;
}

}  // namespace

const loaded_kernel* memory_cache::find(const std::string& key) const {
  std::shared_lock lock(state().mutex);
  const auto it = state().map.find(key);
  return it == state().map.end() ? nullptr : it->second.get();
}

const loaded_kernel* memory_cache::obtain(const std::string& key, const maker& make) {
  cache_state& s = state();
  std::unique_lock lock(s.mutex);
  for (;;) {
    if (const auto it = s.map.find(key); it != s.map.end()) return it->second.get();
    if (s.making.insert(key).second) break;
    s.made.wait(lock);
  }
  lock.unlock();
  std::unique_ptr<loaded_kernel> kernel;
  try {
    kernel = make();
  } catch (...) {
    lock.lock();
    s.making.erase(key);
    s.made.notify_all();
    throw;
  }
  lock.lock();
  const loaded_kernel* kept = s.map.try_emplace(key, std::move(kernel)).first->second.get();
  s.making.erase(key);
  s.made.notify_all();
  return kept;
}

std::size_t memory_cache::size() const {
  std::shared_lock lock(state().mutex);
  return state().map.size();
}

memory_cache& kernels() {
  static memory_cache cache;
  return cache;
}

}  // namespace jet::detail
