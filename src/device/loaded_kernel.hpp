// Loaded kernels, the in-memory kernel cache, and launching.
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <cstddef>
#include <memory>
#include <string>

#include "src/cache/stats.hpp"
#include "src/nvrtc/compile.hpp"

namespace jet::detail {

// A compiled kernel loaded through the runtime's library API (no libcuda link needed).
class loaded_kernel {
 public:
  explicit loaded_kernel(const compiled_kernel& compiled);
  ~loaded_kernel();
  loaded_kernel(const loaded_kernel&) = delete;
  loaded_kernel& operator=(const loaded_kernel&) = delete;
  cudaKernel_t handle() const { return kernel_; }
  const std::string& name() const { return name_; }
  // Blocks of 256 threads one SM runs at once (registers and shared memory permitting).
  // Asked of the driver on first use: only reductions need it.
  int blocks_per_sm() const;

 private:
  cudaLibrary_t library_ = nullptr;
  cudaKernel_t kernel_ = nullptr;
  std::string name_;
  mutable std::atomic<int> blocks_per_sm_{0};  // 0 until asked
};

// Thread-safe map from structural signature to loaded kernel.
class memory_cache {
 public:
  const loaded_kernel* find(const std::string& signature) const;
  // Inserts unless another thread did first; returns the kernel the cache keeps.
  const loaded_kernel* insert(const std::string& signature, std::unique_ptr<loaded_kernel> kernel);
  std::size_t size() const;
};
memory_cache& kernels();

// Takes `source` from the disk cache or NVRTC (src/cache/disk_cache.hpp), loads it and keeps it in
// memory under `signature`: the miss path of obtain_kernel.
const loaded_kernel& build_kernel(const std::string& signature, const codegen::kernel_source& source,
                                  const compile_extras& extras);

// The kernel kept in memory under `signature` (a hit renders nothing); else `make_source()`
// built by build_kernel. Jet's own kernels, random kernels and user kernels all come this way.
template <class MakeSource>
const loaded_kernel& obtain_kernel(const std::string& signature, MakeSource&& make_source,
                                   const compile_extras& extras = {}) {
  if (const loaded_kernel* hit = kernels().find(signature)) {
    note_memory_hit();
    return *hit;
  }
  return build_kernel(signature, make_source(), extras);
}

// Launches a kernel taking one parameter block, with a grid sized from the SM count:
// blocks of 256 threads, shaped 32x8 for tiled kernels.
void launch(const loaded_kernel& kernel, std::int64_t work_items, bool tiled, const std::byte* params);
// Launches `kernel` on an explicit grid of 256-thread blocks.
void launch_grid(cudaKernel_t kernel, dim3 grid, const std::byte* params);
// Launches `kernel` as cuLaunchKernel does: any grid and block, `args` one pointer per
// kernel parameter, dynamic shared memory, a stream.
void launch_kernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
                   cudaStream_t stream);
// Blocks a grid-stride loop needs at most: the SMs times JET_BLOCKS_PER_SM (default 32).
std::int64_t max_grid_blocks();

// JET_DEBUG's level: 0 quiet, 1 stages and timings, 2 rendered source, 3 everything.
int debug_level();

}  // namespace jet::detail
