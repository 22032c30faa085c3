// Checking CUDA runtime and NVRTC statuses: every call goes through one of these.
#pragma once

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <string>

#include "jet/error.hpp"

namespace jet::detail {

[[noreturn]] void throw_cuda(cudaError_t status, const char* call);
[[noreturn]] void throw_nvrtc(nvrtcResult status, const char* call);

inline void check_cuda(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw_cuda(status, call);
}
inline void check_nvrtc(nvrtcResult status, const char* call) {
  if (status != NVRTC_SUCCESS) throw_nvrtc(status, call);
}

}  // namespace jet::detail
