// The reduction scratch of each device and stream.
#include "src/pipeline/reduction_scratch.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <string>
#include <utility>

#include "codegen/ir/passes.hpp"
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
// Freed with its jet::stream; the legacy stream's lasts until the process ends.
struct reduction_scratch {
  unsigned* counters = nullptr;
  std::size_t counter_capacity = 0;
  void* work = nullptr;
  static constexpr std::size_t work_capacity = std::size_t{64} << 10;
};

struct scratch_table {
  std::mutex mutex;
  std::map<std::pair<int, cudaStream_t>, reduction_scratch> all;
  // Counts releases: a thread's remembered slot is stale once this moved.
  std::atomic<std::uint64_t> releases{0};
};

void release_scratch(cudaStream_t stream);

scratch_table& table() {
  static auto* const t = [] {
    on_stream_destroyed(&release_scratch);
    return new scratch_table;
  }();
  return *t;
}

void release_scratch(cudaStream_t stream) {
  scratch_table& t = table();
  std::lock_guard lock(t.mutex);
  for (auto it = t.all.begin(); it != t.all.end();) {
    if (it->first.second != stream) {
      ++it;
      continue;
    }
    cudaFree(it->second.counters);  // errors dropped, as in any release (stream_state.hpp)
    cudaFree(it->second.work);
    it = t.all.erase(it);
    t.releases.fetch_add(1);
  }
}

const reduction_scratch& scratch_for_stream() {
  int device_index = 0;
  check_cuda(cudaGetDevice(&device_index), "cudaGetDevice");
  const cudaStream_t stream = current_stream();
  scratch_table& t = table();
  // Most calls come from the thread and stream of the call before.
  thread_local struct {
    int device = -1;
    cudaStream_t stream = nullptr;
    std::uint64_t releases = 0;
    const reduction_scratch* scratch = nullptr;
  } last;
  const std::uint64_t releases = t.releases.load();
  if (last.scratch && last.device == device_index && last.stream == stream &&
      last.releases == releases)
    return *last.scratch;
  std::lock_guard lock(t.mutex);
  reduction_scratch& slot = t.all[{device_index, stream}];
  if (!slot.counters) {
    slot.counter_capacity = std::size_t(device::current().multiprocessors) * 8;
    check_cuda(cudaMalloc(&slot.counters, slot.counter_capacity * sizeof(unsigned)), "cudaMalloc");
    check_cuda(cudaMemsetAsync(slot.counters, 0, slot.counter_capacity * sizeof(unsigned), stream),
               "cudaMemsetAsync");
    check_cuda(cudaMalloc(&slot.work, reduction_scratch::work_capacity), "cudaMalloc");
  }
  last = {device_index, stream, t.releases.load(), &slot};
  return slot;
}

}  // namespace

std::size_t reduction_scratch_count() {
  scratch_table& t = table();
  std::lock_guard lock(t.mutex);
  return t.all.size();
}

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

void place_tile_states(ir::reduction_geometry& r, std::shared_ptr<buffer>& work) {
  std::size_t values_offset = 0;
  work = allocate(codegen::scan_state_bytes(r, values_offset));
  check_cuda(cudaMemsetAsync(work->data, 0, values_offset, current_stream()), "cudaMemsetAsync");
  r.counters = static_cast<unsigned*>(work->data);
  r.work = static_cast<std::byte*>(work->data) + values_offset;
}

}  // namespace jet::detail
