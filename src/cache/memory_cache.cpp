// The in-memory kernel cache.
#include "src/cache/memory_cache.hpp"

#include <mutex>
#include <shared_mutex>
#include <unordered_map>

namespace jet::detail {
namespace {

struct cache_state {
  mutable std::shared_mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<loaded_kernel>> map;
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

const loaded_kernel* memory_cache::insert(const std::string& key,
                                          std::unique_ptr<loaded_kernel> kernel) {
  std::unique_lock lock(state().mutex);
  auto [it, inserted] = state().map.try_emplace(key, std::move(kernel));
  return it->second.get();
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
