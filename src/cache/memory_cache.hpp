// The kernels this process has loaded, by memory-cache key: what a cache hit finds without
// rendering, compiling or loading anything.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "src/device/loaded_kernel.hpp"

namespace jet::detail {

// Thread-safe; kernels stay loaded until the process ends.
class memory_cache {
 public:
  const loaded_kernel* find(const std::string& key) const;
  // Inserts unless another thread did first; returns the kernel the cache keeps.
  const loaded_kernel* insert(const std::string& key, std::unique_ptr<loaded_kernel> kernel);
  std::size_t size() const;
};
memory_cache& kernels();

}  // namespace jet::detail
