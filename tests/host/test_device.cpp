// What Jet says when CUDA cannot run: no driver, no device, or another failure. The runtime
// answers "driver version is insufficient" both without a driver and with an old one; Jet
// tells the two apart by whether libcuda loads.
#include <dlfcn.h>

#include <string>

#include "jet/jet.hpp"
#include "src/device/cuda_check.hpp"
#include "support/catch.hpp"

namespace {
bool driver_loads() {
  void* library = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (library) dlclose(library);
  return library != nullptr;
}
}  // namespace

TEST_CASE("cuda_failure_message names a missing driver", "[host][device]") {
  const std::string message =
      jet::detail::cuda_failure_message(cudaErrorInsufficientDriver, "cudaMallocAsync");
  if (driver_loads()) {
    CHECK_THAT(message, jet_test::contains("NVIDIA driver (CUDA "));
    CHECK_THAT(message, jet_test::contains("is older than Jet's CUDA runtime"));
  } else {
    CHECK(message.rfind("no NVIDIA driver found (libcuda.so.1 could not be loaded): "
                        "cudaMallocAsync failed",
                        0) == 0);
  }
  CHECK_THAT(message, !jet_test::contains("insufficient"));
}

TEST_CASE("cuda_failure_message keeps no CUDA device and names other failures", "[host][device]") {
  CHECK(jet::detail::cuda_failure_message(cudaErrorNoDevice, "cudaGetDeviceCount") ==
        std::string("no CUDA device: cudaGetDeviceCount failed: ") +
            cudaGetErrorString(cudaErrorNoDevice));
  CHECK(jet::detail::cuda_failure_message(cudaErrorNoDevice, nullptr) ==
        std::string("no CUDA device: ") + cudaGetErrorString(cudaErrorNoDevice));
  CHECK(jet::detail::cuda_failure_message(cudaErrorInvalidValue, "cudaMemcpyAsync") ==
        std::string("cudaMemcpyAsync failed: cudaErrorInvalidValue (") +
            cudaGetErrorString(cudaErrorInvalidValue) + ")");
}

TEST_CASE("without a device, unavailable_reason says why", "[host][device]") {
  if (jet::device::available()) {
    CHECK(jet::device::unavailable_reason().empty());
    return;
  }
  const std::string reason = jet::device::unavailable_reason();
  if (driver_loads())
    CHECK_THAT(reason, !jet_test::contains("no NVIDIA driver found"));
  else
    CHECK(reason.rfind("no NVIDIA driver found", 0) == 0);
  CHECK_THROWS_WITH(jet::device::current(), reason);
}

TEST_CASE("without a device, there are none to count or choose", "[host][device]") {
  if (jet::device::available()) return;
  CHECK(jet::device::count() == 0);
  CHECK_THROWS_AS(jet::device::current_id(), jet::cuda_error);
  CHECK_THROWS_AS(jet::device_guard(0), jet::cuda_error);
  CHECK_THROWS_AS(jet::device::get(0), jet::cuda_error);
}
