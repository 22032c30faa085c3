// Copies between host and device memory. Pinned host memory goes to cudaMemcpyAsync as it is;
// large pageable memory is staged through pinned buffers, a pair for each of several host
// threads, so that the host's copies into (or out of) the buffers overlap the link's transfers
// of the buffers filled before (CUDA's own staging of pageable memory runs at a few GB/s).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace jet::detail {

// Copies `bytes` from `host` to `device` in `stream`'s order; returns once `host` may be
// reused (the device copy may still be under way).
void copy_to_device(void* device, const void* host, std::size_t bytes, cudaStream_t stream);

// Copies `bytes` from `device` to `host` in `stream`'s order and waits for it.
void copy_to_host(void* host, const void* device, std::size_t bytes, cudaStream_t stream);

}  // namespace jet::detail
