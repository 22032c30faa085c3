// Stream order while kernels compile: with asynchronous evaluation (JET_ASYNC=1) a
// kernel that is still compiling does not stop the program. Its launch waits in its stream's
// queue, and so does all later work on that stream (kernels, cuBLAS calls, frees), each item
// running once everything before it has: the GPU sees the program's order. The host waits only
// where it needs the GPU's results (drain: host copies, synchronize, events).
#pragma once

#include <cuda_runtime.h>

#include <atomic>
#include <condition_variable>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>

namespace jet::detail {

class loaded_kernel;

// Whether evaluation may leave kernels compiling: unless JET_ASYNC is "0".
bool async_evaluation();

// A kernel that a compile thread is making (src/cache/memory_cache.cpp): ready once it is
// loaded or its making failed.
class pending_kernel {
 public:
  pending_kernel() = default;
  // One ready from the start, with a kernel already loaded.
  explicit pending_kernel(const loaded_kernel* kernel) : ready_(true), kernel_(kernel) {}
  bool ready() const { return ready_.load(std::memory_order_acquire); }
  // Waits until ready; returns the kernel or throws the error its making threw.
  const loaded_kernel& get() const;
  void set(const loaded_kernel* kernel);
  void fail(std::exception_ptr error);

 private:
  mutable std::mutex mutex_;
  mutable std::condition_variable done_;
  std::atomic<bool> ready_{false};
  const loaded_kernel* kernel_ = nullptr;
  std::exception_ptr error_;
};

// True when nothing waits in `stream`'s queue: its work may go to the GPU at once. One atomic
// load when no stream has a queue.
bool stream_idle(cudaStream_t stream);

// Runs `work` in `stream`'s order: now when the stream is idle, else once the queue before it
// has run. Queued work runs on whichever thread releases it, with `stream` current, and must
// own what it reads. Its errors are raised by the next drain of the stream.
void in_order(cudaStream_t stream, std::function<void()> work);

// Queues `launch(kernel)` on `stream`, released once `kernel` is ready and the queue before it
// has run. A failed kernel's launch is dropped and its error raised by the next drain.
void launch_when_ready(cudaStream_t stream, std::shared_ptr<const pending_kernel> kernel,
                       std::function<void(const loaded_kernel&)> launch);

// Waits until `stream`'s queue has run (its kernels compiled and launched, not finished), then
// throws the first error of its queued work since the last drain.
void drain(cudaStream_t stream);
// drain for every stream's queue; throws the first error among them.
void drain_all();

}  // namespace jet::detail
