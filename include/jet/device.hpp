// The CUDA device Jet runs on.
#pragma once

#include <cstddef>
#include <string>

namespace jet::device {

// True when a CUDA device and driver are usable.
bool available();
// Why no device is usable ("no CUDA device: ..."), empty when one is.
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

// Waits for all work on the current stream.
void synchronize();

}  // namespace jet::device
