// Arrays and devices: where an array lives, and copies between devices.
#include "src/device/placement.hpp"

#include <mutex>
#include <string>
#include <vector>

#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/memory.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {

bool on_other_device(const array& a) {
  return device::count() > 1 && a.size() > 0 && a.device() != device::current_id();
}

void check_on_current_device(const array& a, const char* what) {
  if (!on_other_device(a)) return;
  const int there = a.device();
  throw value_error(std::string(what) + ": an array on device " + std::to_string(there) +
                    " while device " + std::to_string(device::current_id()) +
                    " is current; copy it with .to_device(" + std::to_string(device::current_id()) +
                    ") or work under jet::device_guard(" + std::to_string(there) + ")");
}

void settle_device(int id) {
  drain_all();
  const device_scope on(id);
  check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
}

namespace {

// Lets device `to` read device `from`'s memory directly, Jet's pool included, when the pair
// supports it; once per pair. Copies between devices that cannot go through the host.
void enable_peer_access(int from, int to) {
  const int n = device::count();
  static std::once_flag* const once = new std::once_flag[static_cast<std::size_t>(n * n)];
  std::call_once(once[from * n + to], [&] {
    int can = 0;
    check_cuda(cudaDeviceCanAccessPeer(&can, to, from), "cudaDeviceCanAccessPeer");
    if (!can) return;
    const device_scope on(to);
    const cudaError_t status = cudaDeviceEnablePeerAccess(from, 0);
    if (status == cudaErrorPeerAccessAlreadyEnabled)
      (void)cudaGetLastError();
    else
      check_cuda(status, "cudaDeviceEnablePeerAccess");
    cudaMemPool_t pool = nullptr;
    check_cuda(cudaDeviceGetDefaultMemPool(&pool, from), "cudaDeviceGetDefaultMemPool");
    cudaMemAccessDesc access{};
    access.location = {cudaMemLocationTypeDevice, to};
    access.flags = cudaMemAccessFlagsProtReadWrite;
    check_cuda(cudaMemPoolSetAccess(pool, &access, 1), "cudaMemPoolSetAccess");
  });
}

// An event recorded now on `stream` of the current device.
cudaEvent_t record_now(cudaStream_t stream) {
  cudaEvent_t e = nullptr;
  check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
  const cudaError_t status = cudaEventRecord(e, stream);
  if (status != cudaSuccess) cudaEventDestroy(e);
  check_cuda(status, "cudaEventRecord");
  return e;
}

// Makes `stream` wait for `e`, then lets the event go (CUDA frees it once it has completed).
void wait_for(cudaStream_t stream, cudaEvent_t e) {
  const cudaError_t status = cudaStreamWaitEvent(stream, e, 0);
  cudaEventDestroy(e);
  check_cuda(status, "cudaStreamWaitEvent");
}

}  // namespace

array copy_to_peer(const array& source, int to, cudaStream_t source_stream,
                   cudaStream_t target_stream) {
  const int from = source.device();
  enable_peer_access(from, to);
  cudaEvent_t written = record_now(source_stream);
  array out;
  cudaEvent_t read = nullptr;
  {
    const device_scope on(to);
    const current_stream_scope in(target_stream);
    out = empty(source.shape(), source.dtype());
    wait_for(target_stream, written);
    check_cuda(cudaMemcpyPeerAsync(out.data(), to, source.data(), from,
                                   static_cast<std::size_t>(source.nbytes()), target_stream),
               "cudaMemcpyPeerAsync");
    read = record_now(target_stream);
  }
  wait_for(source_stream, read);  // the source is not freed or written before the copy reads it
  return out;
}

}  // namespace jet::detail
