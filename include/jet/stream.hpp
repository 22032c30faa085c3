// Streams and events: everything Jet does is asynchronous on the current stream of the
// calling thread. Host copies (to_vector, to_host, item) wait for it; jet::synchronize()
// waits explicitly; events time the GPU's work.
#pragma once

struct CUstream_st;
struct CUevent_st;

namespace jet {

// A non-blocking CUDA stream that Jet owns, or one that other code owns (external_stream).
// As it goes, Jet's work queued on it is issued and finished.
class stream {
 public:
  stream();
  ~stream();
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  CUstream_st* handle() const { return handle_; }
  // The device the stream belongs to (the current one when it was made).
  int device() const { return device_; }
  // Waits for all work queued on this stream.
  void synchronize() const;

 private:
  friend stream external_stream(CUstream_st* handle);
  stream(CUstream_st* handle, bool owned);
  CUstream_st* handle_ = nullptr;
  bool owned_ = true;
  int device_ = 0;
};

// A stream that other code made (a cudaStream_t from Thrust, CUB, libtorch or your own CUDA),
// for all of Jet's work: `auto s = jet::external_stream(theirs); jet::stream_guard g(s);` then
// Jet's kernels, copies, cuBLAS and cuRAND calls, allocations and frees go to `theirs`, in
// order with the other code's work there. Jet never destroys it; it must outlive the returned
// jet::stream and the arrays made while it was current. Throws jet::value_error for null.
stream external_stream(CUstream_st* handle);

// Makes a stream current for this thread until the guard goes out of scope, and its device
// the current device (jet/device.hpp) when another was.
class stream_guard {
 public:
  explicit stream_guard(const stream& s);
  ~stream_guard();
  stream_guard(const stream_guard&) = delete;
  stream_guard& operator=(const stream_guard&) = delete;

 private:
  CUstream_st* previous_;
  int previous_device_;  // -1: the device was not changed
};

// The calling thread's current stream (the legacy default stream unless a guard is active).
// Launches still waiting for a kernel being compiled (README: asynchronous evaluation) are
// issued to it first, so that work other code queues there runs after Jet's; a compile
// error among them is raised here.
CUstream_st* current_stream();
// Waits for all work queued on the current stream.
void synchronize();

// A CUDA event: a point in a stream's work, to time the GPU without stopping the host.
//   jet::event start, stop;
//   start.record();  z = jet::sin(x) * 2;  stop.record();
//   float ms = jet::elapsed_ms(start, stop);  // waits for `stop`
class event {
 public:
  event();
  ~event();
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  CUevent_st* handle() const { return handle_; }
  // Marks the current point of the current stream's work (or of `s`'s).
  void record();
  void record(const stream& s);
  // Waits until the GPU has reached the recorded point.
  void synchronize() const;

 private:
  CUevent_st* handle_ = nullptr;
};
// Milliseconds of GPU time between two recorded events; waits for `end`.
float elapsed_ms(const event& start, const event& end);

}  // namespace jet
