// Streams: everything Jet does is asynchronous on the current stream of the calling thread.
#pragma once

struct CUstream_st;

namespace jet {

// An owned, non-blocking CUDA stream.
class stream {
 public:
  stream();
  ~stream();
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  CUstream_st* handle() const { return handle_; }
  // Waits for all work queued on this stream.
  void synchronize() const;

 private:
  CUstream_st* handle_ = nullptr;
};

// Makes a stream current for this thread until the guard goes out of scope.
class stream_guard {
 public:
  explicit stream_guard(const stream& s);
  ~stream_guard();
  stream_guard(const stream_guard&) = delete;
  stream_guard& operator=(const stream_guard&) = delete;

 private:
  CUstream_st* previous_;
};

// The calling thread's current stream (the legacy default stream unless a guard is active).
CUstream_st* current_stream();
// Waits for all work queued on the current stream.
void synchronize();

}  // namespace jet
