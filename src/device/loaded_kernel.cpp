// Loading kernels and asking for their occupancy.
#include "src/device/loaded_kernel.hpp"

#include <algorithm>

#include "codegen/core/limits.hpp"
#include "src/device/cuda_check.hpp"

namespace jet::detail {

loaded_kernel::loaded_kernel(std::span<const char> image, const std::string& name) : name_(name) {
  check_cuda(cudaLibraryLoadData(&library_, image.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
             "cudaLibraryLoadData");
  check_cuda(cudaLibraryGetKernel(&kernel_, library_, name.c_str()), "cudaLibraryGetKernel");
}

loaded_kernel::~loaded_kernel() { cudaLibraryUnload(library_); }

int loaded_kernel::blocks_per_sm() const {
  int blocks = blocks_per_sm_.load(std::memory_order_relaxed);
  if (blocks == 0) {
    // Threads that race here ask the same question and store the same answer.
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                   &blocks, reinterpret_cast<const void*>(kernel_), codegen::block_threads, 0),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    blocks = std::max(blocks, 1);
    blocks_per_sm_.store(blocks, std::memory_order_relaxed);
  }
  return blocks;
}

}  // namespace jet::detail
