// Checking CUDA runtime statuses: every call goes through check_cuda.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "jet/error.hpp"

namespace jet::detail {

// What a failed CUDA call says to the user (`call` may be null): "no NVIDIA driver found ..."
// when libcuda cannot be loaded, "no CUDA device ..." when the driver sees no device, else the
// call, the status's name and its description.
std::string cuda_failure_message(cudaError_t status, const char* call);
[[noreturn]] void throw_cuda(cudaError_t status, const char* call);

inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw_cuda(status, call);
}

}  // namespace jet::detail
