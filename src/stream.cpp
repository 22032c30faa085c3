// Streams and the per-thread current stream.
#include "jet/stream.hpp"

#include "jet/device.hpp"
#include "src/cuda_check.hpp"
#include "src/stream_state.hpp"

namespace jet {
namespace {
thread_local cudaStream_t current = nullptr;
}

stream::stream() {
  cudaStream_t s = nullptr;
  detail::check_cuda(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreateWithFlags");
  handle_ = s;
}

stream::~stream() {
  // Work queued on the stream completes first; a destructor cannot report errors.
  cudaStreamSynchronize(handle_);
  cudaStreamDestroy(handle_);
}

void stream::synchronize() const {
  detail::check_cuda(cudaStreamSynchronize(handle_), "cudaStreamSynchronize");
}

stream_guard::stream_guard(const stream& s) : previous_(current) { current = s.handle(); }
stream_guard::~stream_guard() { current = previous_; }

CUstream_st* current_stream() { return current; }
void synchronize() { device::synchronize(); }

}  // namespace jet

namespace jet::detail {
cudaStream_t current_stream() { return jet::current_stream(); }
}  // namespace jet::detail
