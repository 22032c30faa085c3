// Device discovery and the errors of the CUDA runtime.
#include "jet/device.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "src/device/cuda_check.hpp"

namespace jet::detail {
namespace {

// The runtime says "driver version is insufficient" both when libcuda is missing and when it
// is older than the runtime; whether libcuda loads tells the two apart.
bool driver_library_loads() {
  void* library = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (!library) return false;
  dlclose(library);
  return true;
}

std::string version_string(int version) {
  return std::to_string(version / 1000) + "." + std::to_string(version % 1000 / 10);
}

}  // namespace

std::string cuda_failure_message(cudaError_t status, const char* call) {
  const std::string at = call ? std::string(": ") + call + " failed" : std::string();
  if (status == cudaErrorInsufficientDriver) {
    if (!driver_library_loads())
      return "no NVIDIA driver found (libcuda.so.1 could not be loaded)" + at;
    int runtime = 0;
    int driver = 0;
    cudaRuntimeGetVersion(&runtime);
    cudaDriverGetVersion(&driver);
    return "the NVIDIA driver (CUDA " + version_string(driver) +
           ") is older than Jet's CUDA runtime (" + version_string(runtime) + ") needs" + at;
  }
  if (status == cudaErrorNoDevice) return "no CUDA device" + at + ": " + cudaGetErrorString(status);
  return (call ? std::string(call) + " failed: " : std::string()) + cudaGetErrorName(status) +
         " (" + cudaGetErrorString(status) + ")";
}

void throw_cuda(cudaError_t status, const char* call) {
  cudaGetLastError();  // clear a sticky-free error so later calls are not blamed for it
  throw cuda_error(cuda_failure_message(status, call), status);
}

}  // namespace jet::detail

namespace jet::device {
namespace {

struct probe {
  cudaError_t status = cudaSuccess;
  int count = 0;
};

const probe& probed() {
  static const probe p = [] {
    probe r;
    r.status = cudaGetDeviceCount(&r.count);
    if (r.status == cudaSuccess && r.count == 0) r.status = cudaErrorNoDevice;
    return r;
  }();
  return p;
}

}  // namespace

bool available() { return probed().status == cudaSuccess; }

std::string unavailable_reason() {
  const probe& p = probed();
  if (p.status == cudaSuccess) return {};
  return detail::cuda_failure_message(p.status, nullptr);
}

const properties& current() {
  static std::once_flag once;
  static properties props;
  std::call_once(once, [] {
    if (!available()) throw cuda_error(unavailable_reason(), probed().status);
    int id = 0;
    detail::check_cuda(cudaGetDevice(&id), "cudaGetDevice");
    cudaDeviceProp p{};
    detail::check_cuda(cudaGetDeviceProperties(&p, id), "cudaGetDeviceProperties");
    props.name = p.name;
    props.major = p.major;
    props.minor = p.minor;
    props.multiprocessors = p.multiProcessorCount;
    props.memory = p.totalGlobalMem;
  });
  return props;
}

std::string arch() {
  const properties& p = current();
  return "sm_" + std::to_string(p.major * 10 + p.minor);
}

}  // namespace jet::device
