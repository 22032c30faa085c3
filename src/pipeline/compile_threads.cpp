// The compile threads: a fixed pool with one queue of tasks.
#include "src/pipeline/compile_threads.hpp"

#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace jet::detail {
namespace {

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
  }
  // At exit: the tasks running finish, those still queued are dropped.
  ~pool() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : threads_) t.join();
  }
  pool(const pool&) = delete;
  pool& operator=(const pool&) = delete;

  void submit(std::function<void()> task) {
    {
      std::lock_guard lock(mutex_);
      tasks_.push_back(std::move(task));
    }
    wake_.notify_one();
  }

 private:
  void work() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || !tasks_.empty(); });
        if (stopping_) return;
        task = std::move(tasks_.front());
        tasks_.pop_front();
      }
      task();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::function<void()>> tasks_;
  bool stopping_ = false;
  std::vector<std::thread> threads_;
};

}  // namespace

void compile_in_background(std::function<void()> task) {
  static pool threads;
  threads.submit(std::move(task));
}

}  // namespace jet::detail
