// The CUDA device Jet runs on.
#pragma once

#include <cstddef>
#include <string>

namespace jet::device {

// True when a CUDA device and driver are usable.
bool available();
// Why no device is usable, empty when one is: "no NVIDIA driver found ..." without a driver,
// "no CUDA device: ..." with a driver and no device.
std::string unavailable_reason();

struct properties {
  std::string name;
  int major = 0;
  int minor = 0;
  int multiprocessors = 0;
  std::size_t memory = 0;
};
// Properties of the current device; throws jet::cuda_error without one.
const properties& current();
// The NVRTC architecture for the current device, e.g. "sm_90".
std::string arch();

// To wait for the GPU, call jet::synchronize() (jet/stream.hpp).

}  // namespace jet::device
