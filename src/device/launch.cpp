// Launching kernels through the driver's cuLaunchKernel, which takes library kernels as they are.
#include "src/device/launch.hpp"

#include <cudaTypedefs.h>

#include <cstdlib>

#include "codegen/core/limits.hpp"
#include "jet/device.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {

std::int64_t max_grid_blocks() {
  static const std::int64_t per_sm = [] {
    const char* v = std::getenv("JET_BLOCKS_PER_SM");
    return v && std::atoi(v) > 0 ? std::atoi(v) : codegen::default_blocks_per_sm;
  }();
  // With one device, its figure once; with several, the current device's.
  static const std::int64_t only =
      device::count() == 1 ? per_sm * device::get(0).multiprocessors : 0;
  return only ? only : per_sm * device::current().multiprocessors;
}

bool mixed_architectures() {
  static const bool mixed = [] {
    for (int i = 1; i < device::count(); ++i) {
      const device::properties &a = device::get(0), &b = device::get(i);
      if (a.major != b.major || a.minor != b.minor) return true;
    }
    return false;
  }();
  return mixed;
}

void launch_kernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args,
                   std::size_t shared_bytes, cudaStream_t stream) {
  // cuLaunchKernel costs less per launch than cudaLaunchKernel. It needs a current context;
  // when it fails for that or any other reason, the runtime's launch below sets the context up
  // or reports the error in its own words.
  static const auto driver_launch = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    const cudaError_t status =
        cudaGetDriverEntryPointByVersion("cuLaunchKernel", &fn, 12000, cudaEnableDefault, &found);
    return status == cudaSuccess && found == cudaDriverEntryPointSuccess
               ? reinterpret_cast<PFN_cuLaunchKernel_v4000>(fn)
               : nullptr;
  }();
  if (driver_launch && driver_launch(reinterpret_cast<CUfunction>(kernel), grid.x, grid.y, grid.z,
                                     block.x, block.y, block.z, static_cast<unsigned>(shared_bytes),
                                     stream, args, nullptr) == CUDA_SUCCESS)
    return;
  check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args,
                              shared_bytes, stream),
             "cudaLaunchKernel");
}

void launch_block(cudaKernel_t kernel, dim3 grid, dim3 block, const std::byte* params) {
  void* args[] = {const_cast<std::byte*>(params)};
  launch_kernel(kernel, grid, block, args, 0, current_stream());
}

}  // namespace jet::detail
