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
  std::unordered_map<std::string, std::shared_ptr<pending_kernel>> making;  // claimed keys
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

std::shared_ptr<pending_kernel> memory_cache::claim(const std::string& key, bool& claimed) {
  cache_state& s = state();
  std::unique_lock lock(s.mutex);
  claimed = false;
  if (const auto it = s.map.find(key); it != s.map.end())
    return std::make_shared<pending_kernel>(it->second.get());
  if (const auto it = s.making.find(key); it != s.making.end()) return it->second;
  claimed = true;
  return s.making.emplace(key, std::make_shared<pending_kernel>()).first->second;
}

void memory_cache::make_claimed(const std::string& key, pending_kernel& pending,
                                const maker& make) {
  cache_state& s = state();
  std::unique_ptr<loaded_kernel> kernel;
  try {
    kernel = make();
  } catch (...) {
    {
      std::unique_lock lock(s.mutex);
      s.making.erase(key);
    }
    pending.fail(std::current_exception());
    return;
  }
  const loaded_kernel* kept = nullptr;
  {
    std::unique_lock lock(s.mutex);
    kept = s.map.try_emplace(key, std::move(kernel)).first->second.get();
    s.making.erase(key);
  }
  pending.set(kept);
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
