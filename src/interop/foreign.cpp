// array::wrap: arrays over device memory that other code allocated.
#include <cstdint>
#include <cstdio>
#include <string>

#include "jet/array.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/memory.hpp"
#include "src/device/stream_state.hpp"

namespace jet {
namespace {

std::string address(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return text;
}

// Throws unless `data` is device (or managed) memory of the current device, aligned for t.
void check_device_memory(const void* data, dtype t) {
  cudaPointerAttributes a{};
  const cudaError_t status = cudaPointerGetAttributes(&a, data);
  if (status != cudaSuccess) (void)cudaGetLastError();
  if (status != cudaSuccess || (a.type != cudaMemoryTypeDevice && a.type != cudaMemoryTypeManaged))
    throw value_error("array::wrap: " + address(data) +
                      " is not device memory (host or unknown to CUDA)");
  int current = 0;
  detail::check_cuda(cudaGetDevice(&current), "cudaGetDevice");
  if (a.device != current)
    throw value_error("array::wrap: " + address(data) + " is memory of device " +
                      std::to_string(a.device) + ", the current device is " +
                      std::to_string(current));
  if (reinterpret_cast<std::uintptr_t>(data) % static_cast<std::uintptr_t>(itemsize(t)) != 0)
    throw value_error("array::wrap: " + address(data) + " is not aligned to the " +
                      std::to_string(itemsize(t)) + "-byte elements of " + std::string(name(t)));
}

}  // namespace

array array::wrap(void* data, jet::dtype t, const jet::shape& s, const jet::shape& strides,
                  std::shared_ptr<void> owner) {
  for (std::int64_t d : s)
    if (d < 0) throw value_error("array::wrap: negative dimension in shape " + to_string(s));
  if (strides.size() != 0 && strides.size() != s.size())
    throw value_error("array::wrap: strides " + to_string(strides) + " for the shape " +
                      to_string(s));
  if (s.product() > 0) check_device_memory(data, t);
  auto b = std::make_shared<detail::buffer>();
  b->data = data;
  b->foreign = true;
  b->device = device::current_id();
  b->owner = std::move(owner);
  b->stream = detail::current_stream();
  return array(std::move(b), t, s, strides.size() == 0 ? contiguous_strides(s) : strides, 0);
}

array array::wrap(void* data, jet::dtype t, const jet::shape& s, const jet::shape& strides,
                  std::function<void(void*)> deleter) {
  if (!deleter) throw value_error("array::wrap: an empty deleter");
  // Checked without an owner first: a deleter is not called for memory that was refused.
  array out = wrap(data, t, s, strides);
  out.buffer_->owner =
      std::shared_ptr<void>(data, [deleter = std::move(deleter)](void* p) { deleter(p); });
  return out;
}

}  // namespace jet
