// The reduction scratch of each device and stream.
#include "src/pipeline/reduction_scratch.hpp"

#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {
namespace {

// Scratch of reductions on one device and stream: chunk counters, zeroed once here and reset
// by each kernel's last block, and room for the chunks' partial states. Launches in stream
// order take turns with it, so a reduction allocates nothing when its states fit (a full
// reduction's always do: a chunk per resident block, at most 8 per SM, of at most 48 bytes).
// Never freed: kernels may use it until the process ends.
struct reduction_scratch {
  unsigned* counters = nullptr;
  std::size_t counter_capacity = 0;
  void* work = nullptr;
  static constexpr std::size_t work_capacity = std::size_t{64} << 10;
};

const reduction_scratch& scratch_for_stream() {
  int device_index = 0;
  check_cuda(cudaGetDevice(&device_index), "cudaGetDevice");
  const cudaStream_t stream = current_stream();
  // Most calls come from the thread and stream of the call before.
  thread_local struct {
    int device = -1;
    cudaStream_t stream = nullptr;
    const reduction_scratch* scratch = nullptr;
  } last;
  if (last.scratch && last.device == device_index && last.stream == stream) return *last.scratch;
  static std::mutex mutex;
  static std::map<std::pair<int, cudaStream_t>, reduction_scratch> all;
  std::lock_guard lock(mutex);
  reduction_scratch& slot = all[{device_index, stream}];
  if (!slot.counters) {
    slot.counter_capacity = std::size_t(device::current().multiprocessors) * 8;
    check_cuda(cudaMalloc(&slot.counters, slot.counter_capacity * sizeof(unsigned)), "cudaMalloc");
    check_cuda(cudaMemsetAsync(slot.counters, 0, slot.counter_capacity * sizeof(unsigned), stream),
               "cudaMemsetAsync");
    check_cuda(cudaMalloc(&slot.work, reduction_scratch::work_capacity), "cudaMalloc");
  }
  last = {device_index, stream, &slot};
  return slot;
}

}  // namespace

void place_partial_states(ir::reduction_geometry& r, std::int64_t blocks, std::size_t work_bytes,
                          std::shared_ptr<buffer>& work) {
  const reduction_scratch& scratch = scratch_for_stream();
  if (static_cast<std::size_t>(blocks) > scratch.counter_capacity)
    throw internal_error("a reduction needs " + std::to_string(blocks) + " chunk counters");
  r.counters = scratch.counters;
  if (work_bytes <= reduction_scratch::work_capacity) {
    r.work = scratch.work;
  } else {
    work = allocate(work_bytes);
    r.work = work->data;
  }
}

}  // namespace jet::detail
