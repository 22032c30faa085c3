// The CUDA devices Jet runs on. Each thread has a current device (device 0 unless a
// jet::device_guard chose another); Jet's work and new arrays go to it. An array remembers the
// device its memory is on (array::device()); an operation reading arrays of a device other than
// the current one raises jet::value_error, and array::to_device copies between devices.
#pragma once

#include <cstddef>
#include <string>

struct CUstream_st;

namespace jet::device {

// True when a CUDA device and driver are usable.
bool available();
// Why no device is usable, empty when one is: "no NVIDIA driver found ..." without a driver,
// "no CUDA device: ..." with a driver and no device.
std::string unavailable_reason();

// How many CUDA devices there are; 0 without a driver or device (never throws).
int count();
// The calling thread's current device: 0 unless a jet::device_guard (or cudaSetDevice) chose
// another. Throws jet::cuda_error without a device.
int current_id();

struct properties {
  int id = 0;
  std::string name;
  int major = 0;
  int minor = 0;
  int multiprocessors = 0;
  std::size_t memory = 0;
};
// Properties of the current device, or of device `id`; throws jet::cuda_error without a
// device and jet::value_error for an id outside [0, count()).
const properties& current();
const properties& get(int id);
// The NVRTC architecture for the current device, e.g. "sm_90".
std::string arch();

// To wait for the GPU, call jet::synchronize() (jet/stream.hpp).

}  // namespace jet::device

namespace jet {

// Makes device `id` the calling thread's current device until the guard goes out of scope,
// with that device's legacy default stream as the current stream (a stream belongs to one
// device: a jet::stream_guard inside the guard picks another). Guarding the device already
// current changes nothing. Throws jet::value_error for an id outside [0, device::count()).
//   jet::array b;
//   { jet::device_guard on(1); b = jet::ones<float>({1024}); }   // b lives on device 1
class device_guard {
 public:
  explicit device_guard(int id);
  ~device_guard();
  device_guard(const device_guard&) = delete;
  device_guard& operator=(const device_guard&) = delete;

 private:
  int previous_ = -1;  // -1: the guard changed nothing
  CUstream_st* previous_stream_ = nullptr;
};

}  // namespace jet
