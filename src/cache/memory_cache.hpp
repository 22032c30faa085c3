// The kernels this process has loaded, by memory-cache key: what a cache hit finds without
// rendering, compiling or loading anything.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "src/device/loaded_kernel.hpp"

namespace jet::detail {

// Thread-safe; kernels stay loaded until the process ends.
class memory_cache {
 public:
  using maker = std::function<std::unique_ptr<loaded_kernel>()>;
  const loaded_kernel* find(const std::string& key) const;
  // The kernel under `key`: made by `make` on this thread, or, when another thread is making
  // it already, that thread's once it is done, so that threads missing one key at once compile
  // it once. When `make` throws, one waiting thread tries again with its own.
  const loaded_kernel* obtain(const std::string& key, const maker& make);
  std::size_t size() const;
};
memory_cache& kernels();

}  // namespace jet::detail
