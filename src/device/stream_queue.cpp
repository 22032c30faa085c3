// The per-stream queues of work waiting for a kernel that is still compiling.
#include "src/device/stream_queue.hpp"

#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <utility>

#include "src/device/cuda_check.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {
namespace {

struct item {
  std::shared_ptr<const pending_kernel> kernel;  // null: ready at once
  std::function<void(const loaded_kernel*)> run;
  int device = 0;
  bool ready() const { return !kernel || kernel->ready(); }
};

struct queue {
  std::deque<item> items;
  bool running = false;  // a thread is running its front item
  std::exception_ptr error;
  bool counted = false;  // in queues::busy
  bool idle() const { return items.empty() && !running; }
};

struct queues {
  std::mutex mutex;
  std::condition_variable changed;
  std::map<cudaStream_t, queue> by_stream;  // never erased: a node keeps its address
  std::atomic<int> busy{0};                 // queues not idle or holding an error
};

queues& all() {
  static auto* const q = new queues;  // never destroyed: buffers free into it at exit
  return *q;
}

thread_local const queue* running_here = nullptr;

// Runs one released item with its stream current; returns what it threw.
std::exception_ptr run(item& it, cudaStream_t stream) {
  current_stream_scope scope(stream);
  const device_scope on(it.device);
  try {
    it.run(it.kernel ? &it.kernel->get() : nullptr);
  } catch (...) {
    return std::current_exception();
  }
  return nullptr;
}

// Keeps queues::busy true to `q` after a change to it; called with the lock held.
void recount(queue& q) {
  const bool busy = !q.idle() || q.error;
  if (busy == q.counted) return;
  q.counted = busy;
  all().busy += busy ? 1 : -1;
}

// Runs the queue's ready items in order, unless another thread is doing so. Items run
// without the lock held, so that what they free can queue behind them.
void pump(queue& q, cudaStream_t stream, std::unique_lock<std::mutex>& lock) {
  if (q.running || q.items.empty()) return;
  q.running = true;
  while (!q.items.empty() && q.items.front().ready()) {
    item it = std::move(q.items.front());
    q.items.pop_front();
    lock.unlock();
    const queue* outer = std::exchange(running_here, &q);
    std::exception_ptr failed = run(it, stream);
    it = item{};  // its captures, released outside the lock
    running_here = outer;
    lock.lock();
    if (failed && !q.error) q.error = failed;
  }
  q.running = false;
  recount(q);
  all().changed.notify_all();
}

void enqueue(cudaStream_t stream, item it) {
  queues& a = all();
  std::unique_lock lock(a.mutex);
  queue& q = a.by_stream[stream];
  q.items.push_back(std::move(it));
  recount(q);
  pump(q, stream, lock);
}

// Waits until `q` is idle, running what becomes ready; returns its error, cleared.
std::exception_ptr settle(queue& q, cudaStream_t stream, std::unique_lock<std::mutex>& lock) {
  queues& a = all();
  if (running_here == &q) return nullptr;  // called by the queue's own item: it runs on
  for (;;) {
    pump(q, stream, lock);
    if (q.idle()) break;
    a.changed.wait(lock);
  }
  std::exception_ptr error = std::exchange(q.error, nullptr);
  recount(q);
  return error;
}

// A kernel became ready: every queue waiting for one moves on (on this thread).
void release_ready() {
  queues& a = all();
  if (a.busy.load(std::memory_order_acquire) == 0) return;
  std::unique_lock lock(a.mutex);
  for (auto& [stream, q] : a.by_stream) pump(q, stream, lock);
  a.changed.notify_all();
}

int current_device() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  return device;
}

}  // namespace

bool async_evaluation() {
  static const bool on = [] {
    // On unless JET_ASYNC=0 (README: asynchronous evaluation).
    const char* v = std::getenv("JET_ASYNC");
    return !v || std::strcmp(v, "0") != 0;
  }();
  return on;
}

const loaded_kernel& pending_kernel::get() const {
  std::unique_lock lock(mutex_);
  done_.wait(lock, [&] { return ready(); });
  if (error_) std::rethrow_exception(error_);
  return *kernel_;
}

void pending_kernel::set(const loaded_kernel* kernel) {
  {
    std::lock_guard lock(mutex_);
    kernel_ = kernel;
    ready_.store(true, std::memory_order_release);
  }
  done_.notify_all();
  release_ready();
}

void pending_kernel::fail(std::exception_ptr error) {
  {
    std::lock_guard lock(mutex_);
    error_ = std::move(error);
    ready_.store(true, std::memory_order_release);
  }
  done_.notify_all();
  release_ready();
}

bool stream_idle(cudaStream_t stream) {
  queues& a = all();
  if (a.busy.load(std::memory_order_acquire) == 0) return true;
  std::lock_guard lock(a.mutex);
  const auto it = a.by_stream.find(stream);
  return it == a.by_stream.end() || it->second.idle();
}

void in_order(cudaStream_t stream, std::function<void()> work) {
  if (stream_idle(stream)) {
    work();
    return;
  }
  enqueue(stream, item{nullptr, [work = std::move(work)](const loaded_kernel*) { work(); },
                       current_device()});
}

void launch_when_ready(cudaStream_t stream, std::shared_ptr<const pending_kernel> kernel,
                       std::function<void(const loaded_kernel&)> launch) {
  enqueue(stream, item{std::move(kernel),
                       [launch = std::move(launch)](const loaded_kernel* k) { launch(*k); },
                       current_device()});
}

void drain(cudaStream_t stream) {
  queues& a = all();
  if (a.busy.load(std::memory_order_acquire) == 0) return;
  std::unique_lock lock(a.mutex);
  const auto it = a.by_stream.find(stream);
  if (it == a.by_stream.end()) return;
  if (std::exception_ptr error = settle(it->second, stream, lock)) std::rethrow_exception(error);
}

void drain_all() {
  queues& a = all();
  if (a.busy.load(std::memory_order_acquire) == 0) return;
  std::unique_lock lock(a.mutex);
  std::exception_ptr first;
  for (auto& [stream, q] : a.by_stream)
    if (std::exception_ptr error = settle(q, stream, lock); error && !first) first = error;
  if (first) std::rethrow_exception(first);
}

}  // namespace jet::detail
