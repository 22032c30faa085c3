// A compiled kernel loaded through the runtime's library API (no libcuda link needed).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <span>
#include <string>

namespace jet::detail {

class loaded_kernel {
 public:
  // Loads the kernel `name` of a cubin or PTX image.
  loaded_kernel(std::span<const char> image, const std::string& name);
  ~loaded_kernel();
  loaded_kernel(const loaded_kernel&) = delete;
  loaded_kernel& operator=(const loaded_kernel&) = delete;
  cudaKernel_t handle() const { return kernel_; }
  const std::string& name() const { return name_; }
  // Blocks of codegen::block_threads threads one SM runs at once (registers and shared memory
  // permitting).
  // Asked of the driver on first use: only reductions need it.
  int blocks_per_sm() const;

 private:
  cudaLibrary_t library_ = nullptr;
  cudaKernel_t kernel_ = nullptr;
  std::string name_;
  mutable std::atomic<int> blocks_per_sm_{0};  // 0 until asked
};

}  // namespace jet::detail
