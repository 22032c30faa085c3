// The kernels this process has loaded, by memory-cache key: what a cache hit finds without
// rendering, compiling or loading anything.
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "src/device/loaded_kernel.hpp"
#include "src/device/stream_queue.hpp"

namespace jet::detail {

// Thread-safe; kernels stay loaded until the process ends. Threads missing one key at once
// make it once: the first claims it, the others wait for its kernel (or its error).
class memory_cache {
 public:
  using maker = std::function<std::unique_ptr<loaded_kernel>()>;
  const loaded_kernel* find(const std::string& key) const;
  // The kernel under `key`, or the one being made for it. `claimed` says whether this call
  // claimed it: the caller must then make it with make_claimed (on any thread).
  std::shared_ptr<pending_kernel> claim(const std::string& key, bool& claimed);
  // Makes the kernel `pending` stands for with `make`, keeps it under `key` and readies
  // `pending`; when `make` throws, fails `pending` with its error and frees the claim.
  void make_claimed(const std::string& key, pending_kernel& pending, const maker& make);
  std::size_t size() const;
};
memory_cache& kernels();

}  // namespace jet::detail
