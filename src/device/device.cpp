// Device discovery and the errors of the CUDA runtime.
#include "jet/device.hpp"

#include <dlfcn.h>

#include <mutex>
#include <string>

#include "src/device/cuda_check.hpp"
#include "src/device/stream_state.hpp"

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

int count() { return available() ? probed().count : 0; }

int current_id() {
  if (!available()) throw cuda_error(unavailable_reason(), probed().status);
  int id = 0;
  detail::check_cuda(cudaGetDevice(&id), "cudaGetDevice");
  return id;
}

const properties& get(int id) {
  if (!available()) throw cuda_error(unavailable_reason(), probed().status);
  detail::check_device_id(id);
  // One slot per device, filled on first use; never freed (arrays outlive statics).
  struct slot {
    std::once_flag once;
    properties props;
  };
  static slot* const slots = new slot[static_cast<std::size_t>(probed().count)];
  slot& s = slots[id];
  std::call_once(s.once, [&] {
    cudaDeviceProp p{};
    detail::check_cuda(cudaGetDeviceProperties(&p, id), "cudaGetDeviceProperties");
    s.props = {id, p.name, p.major, p.minor, p.multiProcessorCount, p.totalGlobalMem};
  });
  return s.props;
}

const properties& current() { return get(current_id()); }

std::string arch() {
  const properties& p = current();
  return "sm_" + std::to_string(p.major * 10 + p.minor);
}

}  // namespace jet::device

namespace jet::detail {

void check_device_id(int id) {
  const int n = device::count();
  if (id < 0 || id >= n)
    throw value_error("device " + std::to_string(id) + " does not exist: there " +
                      (n == 1 ? "is 1 CUDA device (0)"
                              : "are " + std::to_string(n) + " CUDA devices" +
                                    (n ? " (0 to " + std::to_string(n - 1) + ")" : "")));
}

int switch_device(int id) {
  const int previous = device::current_id();
  if (id == previous) return -1;
  check_device_id(id);
  check_cuda(cudaSetDevice(id), "cudaSetDevice");
  return previous;
}

void restore_device(int previous) {
  if (previous >= 0) cudaSetDevice(previous);  // a destructor cannot report a failure
}

device_scope::device_scope(int id) noexcept {
  int now = 0;
  if (cudaGetDevice(&now) == cudaSuccess && now != id && cudaSetDevice(id) == cudaSuccess)
    previous_ = now;
}

}  // namespace jet::detail

namespace jet {

device_guard::device_guard(int id) : previous_(detail::switch_device(id)) {
  if (previous_ >= 0) previous_stream_ = detail::exchange_current_stream(nullptr);
}

device_guard::~device_guard() {
  if (previous_ < 0) return;
  detail::exchange_current_stream(previous_stream_);
  detail::restore_device(previous_);
}

}  // namespace jet
