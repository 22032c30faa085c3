// Device buffers, owned by arrays through shared_ptr.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>

namespace jet::detail {

struct buffer {
  void* data = nullptr;
  std::size_t bytes = 0;
  int device = 0;                 // the device the memory is on
  cudaStream_t stream = nullptr;  // freed in the order of the stream it was allocated on
  // Memory that other code allocated (array::wrap, from_dlpack): Jet never frees it; `owner`,
  // when set, is released once the stream's work before the release has finished.
  bool foreign = false;
  std::shared_ptr<void> owner;
  buffer() = default;
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
  ~buffer();
};

// Allocates on the current stream; throws jet::out_of_memory after one trim-and-retry.
std::shared_ptr<buffer> allocate(std::size_t bytes);

}  // namespace jet::detail
