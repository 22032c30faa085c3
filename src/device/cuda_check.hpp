// Checking CUDA runtime statuses: every call goes through check_cuda.
#pragma once

#include <cuda_runtime.h>

#include <string>

#include "jet/error.hpp"

namespace jet::detail {

[[noreturn]] void throw_cuda(cudaError_t status, const char* call);

inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw_cuda(status, call);
}

}  // namespace jet::detail
