// The compile threads: a fixed pool with one queue of tasks, stopped at exit.
#include "src/pipeline/compile_threads.hpp"

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace jet::detail {
namespace {

// Plain atomics, so that they outlive the pool: set once the program exits / while the pool
// exists.
std::atomic<bool> exiting{false};
std::atomic<bool> started{false};

int thread_count() {
  const char* v = std::getenv("JET_COMPILE_THREADS");
  // One by default: NVRTC runs one compile at a time per process, so more threads only queue
  // behind it (bench/NOTES.md, twenty-seventh session).
  return v && std::atoi(v) > 0 ? std::atoi(v) : 1;
}

class pool {
 public:
  pool() {
    for (int i = thread_count(); i > 0; --i) threads_.emplace_back([this] { work(); });
    started = true;
  }
  ~pool() {
    stop();
    started = false;
  }
  pool(const pool&) = delete;
  pool& operator=(const pool&) = delete;

  // The running tasks finish and the queued ones run (failing fast, as `exiting` tells
  // them); then the threads end.
  void stop() {
    {
      std::lock_guard lock(mutex_);
      exiting = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_)
      if (t.joinable()) t.join();
  }

  // False once the pool stops: the caller runs the task itself.
  bool submit(std::function<void()>& task) {
    {
      std::lock_guard lock(mutex_);
      if (exiting) return false;
      tasks_.push_back(std::move(task));
    }
    wake_.notify_one();
    return true;
  }

 private:
  void work() {
    static std::once_flag registered;
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return exiting || !tasks_.empty(); });
        if (tasks_.empty()) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
      std::call_once(registered, stop_compile_threads_at_exit);
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  std::vector<std::thread> threads_;
};

pool& threads() {
  static pool threads;
  return threads;
}

void stop_at_exit() {
  if (started) threads().stop();
}

}  // namespace

void compile_in_background(std::function<void()> task) {
  if (exiting || !threads().submit(task)) task();
}

bool compile_threads_stopping() { return exiting; }

void stop_compile_threads_at_exit() { std::atexit(stop_at_exit); }

}  // namespace jet::detail
