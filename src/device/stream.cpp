// Streams and the per-thread current stream.
#include "jet/stream.hpp"

#include <algorithm>
#include <mutex>
#include <utility>
#include <vector>

#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/device_errors.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"

namespace jet {
namespace {
thread_local cudaStream_t current = nullptr;
// Jet's streams not yet destroyed: buffers made on one may outlive it (free_in_order). Never
// destroyed itself, as arrays may be freed while the process exits.
struct live_streams {
  std::mutex mutex;
  std::vector<cudaStream_t> handles;
};
live_streams& live() {
  static auto* const streams = new live_streams;
  return *streams;
}
struct release_hooks {
  std::mutex mutex;
  std::vector<void (*)(cudaStream_t)> hooks;
};
release_hooks& releases() {
  static auto* const hooks = new release_hooks;
  return *hooks;
}

void enlist(cudaStream_t s) {
  live_streams& l = live();
  std::lock_guard lock(l.mutex);
  l.handles.push_back(s);
}

}  // namespace

stream::stream() : device_(device::current_id()) {
  cudaStream_t s = nullptr;
  detail::check_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking),
                     "cudaStreamCreateWithFlags");
  handle_ = s;
  enlist(s);
}

stream::stream(CUstream_st* handle, bool owned) : handle_(handle), owned_(owned) {
  if (!handle)
    throw value_error("external_stream: the legacy default stream (null) is Jet's default already");
  detail::check_cuda(cudaStreamGetDevice(handle, &device_), "cudaStreamGetDevice");
  enlist(handle);
}

stream external_stream(CUstream_st* handle) { return stream(handle, false); }

stream::~stream() {
  const detail::device_scope on(device_);
  // Work queued on the stream completes first; a destructor cannot report errors.
  try {
    detail::drain(handle_);
  } catch (...) {
  }
  cudaStreamSynchronize(handle_);
  {
    release_hooks& r = releases();
    std::lock_guard lock(r.mutex);
    for (void (*release)(cudaStream_t) : r.hooks) release(handle_);
  }
  live_streams& l = live();
  std::lock_guard lock(l.mutex);
  l.handles.erase(std::find(l.handles.begin(), l.handles.end(), handle_));
  if (owned_) cudaStreamDestroy(handle_);
}

void stream::synchronize() const {
  detail::drain(handle_);
  detail::check_cuda(cudaStreamSynchronize(handle_), "cudaStreamSynchronize");
  detail::raise_device_errors();
}

stream_guard::stream_guard(const stream& s)
    : previous_(current), previous_device_(detail::switch_device(s.device())) {
  current = s.handle();
}
stream_guard::~stream_guard() {
  current = previous_;
  detail::restore_device(previous_device_);
}

CUstream_st* current_stream() {
  detail::drain(current);
  return current;
}
void synchronize() {
  detail::drain(current);
  detail::check_cuda(cudaStreamSynchronize(current), "cudaStreamSynchronize");
  detail::raise_device_errors();
}

event::event() {
  cudaEvent_t e = nullptr;
  detail::check_cuda(cudaEventCreate(&e), "cudaEventCreate");
  handle_ = e;
}
event::~event() { cudaEventDestroy(handle_); }
void event::record() {
  detail::drain(current);
  detail::check_cuda(cudaEventRecord(handle_, current), "cudaEventRecord");
}
void event::record(const stream& s) {
  detail::drain(s.handle());
  detail::check_cuda(cudaEventRecord(handle_, s.handle()), "cudaEventRecord");
}
void event::synchronize() const {
  detail::check_cuda(cudaEventSynchronize(handle_), "cudaEventSynchronize");
  detail::raise_device_errors();
}

float elapsed_ms(const event& start, const event& end) {
  end.synchronize();
  float ms = 0;
  detail::check_cuda(cudaEventElapsedTime(&ms, start.handle(), end.handle()),
                     "cudaEventElapsedTime");
  return ms;
}

}  // namespace jet

namespace jet::detail {
cudaStream_t current_stream() { return current; }

cudaStream_t exchange_current_stream(cudaStream_t stream) { return std::exchange(current, stream); }

current_stream_scope::current_stream_scope(cudaStream_t stream) : previous_(current) {
  current = stream;
}
current_stream_scope::~current_stream_scope() { current = previous_; }

void on_stream_destroyed(void (*release)(cudaStream_t)) {
  release_hooks& r = releases();
  std::lock_guard lock(r.mutex);
  r.hooks.push_back(release);
}

namespace {

void free_now(void* data, cudaStream_t stream) {
  if (!stream) {
    cudaFreeAsync(data, stream);
    return;
  }
  // Held through the free, so that the stream cannot be destroyed in between.
  live_streams& l = live();
  std::lock_guard lock(l.mutex);
  const bool alive = std::find(l.handles.begin(), l.handles.end(), stream) != l.handles.end();
  cudaFreeAsync(data, alive ? stream : nullptr);
}

}  // namespace

void release_in_order(std::shared_ptr<void> owner, cudaStream_t stream) {
  in_order(stream, [owner = std::move(owner), stream]() mutable {
    {
      // Held through the wait, so that the stream cannot be destroyed in between.
      live_streams& l = live();
      std::lock_guard lock(l.mutex);
      if (!stream || std::find(l.handles.begin(), l.handles.end(), stream) != l.handles.end())
        cudaStreamSynchronize(stream);
    }
    owner.reset();
  });
}

void free_in_order(void* data, cudaStream_t stream) {
  // Behind the work queued on the stream, which may still read it.
  in_order(stream, [data, stream] { free_now(data, stream); });
}
}  // namespace jet::detail
