// Launching loaded kernels on the current stream.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace jet::detail {

// Launches `kernel` as cuLaunchKernel does: any grid and block, `args` one pointer per kernel
// parameter, dynamic shared memory, a stream.
void launch_kernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                   std::size_t shared_bytes, cudaStream_t stream);
// Launches a kernel that takes one parameter block on the current stream.
void launch_block(cudaKernel_t kernel, dim3 grid, dim3 block, const std::byte* params);
// Blocks a grid-stride loop needs at most: the SMs times JET_BLOCKS_PER_SM (default 32).
std::int64_t max_grid_blocks();
// Whether the process's devices differ in architecture: kernels made for one do not run on all.
bool mixed_architectures();

}  // namespace jet::detail
