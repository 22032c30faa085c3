// Device discovery and the errors of the CUDA runtime.
#include "jet/device.hpp"

#include <mutex>

#include "src/device/cuda_check.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {

void throw_cuda(cudaError_t status, const char* call) {
  cudaGetLastError();  // clear a sticky-free error so later calls are not blamed for it
  if (status == cudaErrorNoDevice || status == cudaErrorInsufficientDriver)
    throw cuda_error(
        std::string("no CUDA device: ") + call + " failed: " + cudaGetErrorString(status), status);
  throw cuda_error(std::string(call) + " failed: " + cudaGetErrorName(status) + " (" +
                       cudaGetErrorString(status) + ")",
                   status);
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
  return std::string("no CUDA device: ") + cudaGetErrorString(p.status);
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

void synchronize() {
  detail::check_cuda(cudaStreamSynchronize(detail::current_stream()), "cudaStreamSynchronize");
}

}  // namespace jet::device
