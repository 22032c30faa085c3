// The calling thread's current stream, for Jet's runtime.
#pragma once

#include <cuda_runtime.h>

#include <memory>

namespace jet::detail {

cudaStream_t current_stream();
// Makes `stream` the calling thread's current stream; returns the one it replaces.
cudaStream_t exchange_current_stream(cudaStream_t stream);

// Throws jet::value_error unless 0 <= id < device::count(), naming the devices there are.
void check_device_id(int id);
// Makes device `id` current; returns the device it replaces, or -1 when `id` was current.
int switch_device(int id);
// Undoes switch_device (nothing for -1).
void restore_device(int previous);

// Device `id` current while it lives, for destructors and queued work: never throws (a failed
// switch leaves the device as it was, and the CUDA call that follows reports it).
class device_scope {
 public:
  explicit device_scope(int id) noexcept;
  ~device_scope() { restore_device(previous_); }
  device_scope(const device_scope&) = delete;
  device_scope& operator=(const device_scope&) = delete;

 private:
  int previous_ = -1;
};

// Makes `stream` the calling thread's current stream while it lives: how queued work runs on
// the thread that releases it (src/device/stream_queue.cpp).
class current_stream_scope {
 public:
  explicit current_stream_scope(cudaStream_t stream);
  ~current_stream_scope();
  current_stream_scope(const current_stream_scope&) = delete;
  current_stream_scope& operator=(const current_stream_scope&) = delete;

 private:
  cudaStream_t previous_;
};

// Frees device memory made on `stream` in that stream's order; on the legacy default stream
// once `stream` (a jet::stream) is destroyed, whose work had completed by then. Errors are
// dropped: buffers free from destructors, and a failure here is sticky anyway.
void free_in_order(void* data, cudaStream_t stream);
// Releases `owner` (of foreign memory) once the work queued on `stream` before now has finished
// on the GPU; at once when `stream` is a jet::stream already destroyed.
void release_in_order(std::shared_ptr<void> owner, cudaStream_t stream);

// Registers `release`, called with a jet::stream's handle as the stream is destroyed (its work
// completed, the handle still valid): how what Jet keeps per stream (the reduction scratch,
// the default generator) goes with it. Registered once per kind of resource.
void on_stream_destroyed(void (*release)(cudaStream_t));

}  // namespace jet::detail
