// Host-device copies, staged through pinned buffers for large pageable memory.
#include "src/device/transfer.hpp"

#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "jet/array.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/device_errors.hpp"

namespace jet::detail {
namespace {

constexpr std::size_t chunk_bytes = std::size_t{8} << 20;  // one staging buffer
// Smaller pageable copies go to cudaMemcpyAsync as they are: starting threads costs more.
constexpr std::size_t staged_from = std::size_t{16} << 20;

bool pinned(const void* host) {
  cudaPointerAttributes a{};
  if (cudaPointerGetAttributes(&a, host) != cudaSuccess) {
    (void)cudaGetLastError();  // pageable memory on an old driver: an error, not sticky
    return false;
  }
  return a.type == cudaMemoryTypeHost;
}

// One host thread's share: two pinned buffers, one filling while the link moves the other.
struct lane {
  void* buffer[2] = {};
};

constexpr std::uintptr_t page = 4096;

// How many lanes there are: half the cores, 1 to 8.
std::size_t lane_count() {
  const unsigned cores = std::max(2u, std::thread::hardware_concurrency());
  return std::clamp(cores / 2, 1u, 8u);
}

// The lanes, allocated on the first staged copy and kept for the process; one staged copy at a
// time holds them.
std::mutex lanes_mutex;
std::vector<lane>& lanes() {
  static std::vector<lane> all;
  if (all.empty()) {
    all.resize(lane_count());
    for (lane& l : all)
      for (void*& b : l.buffer)
        check_cuda(cudaHostAlloc(&b, chunk_bytes, cudaHostAllocPortable), "cudaHostAlloc");
  }
  return all;
}

// The chunks of lane `t` of `count`: chunk c covers [c * chunk_bytes, ...) of the copy.
struct chunk {
  std::size_t offset, bytes;
};
std::vector<chunk> chunks_of(int t, int count, std::size_t bytes) {
  std::vector<chunk> out;
  for (std::size_t c = t; c * chunk_bytes < bytes; c += count)
    out.push_back({c * chunk_bytes, std::min(chunk_bytes, bytes - c * chunk_bytes)});
  return out;
}

// A lane's two events, on the caller's device; the first error of the lane's calls is kept.
struct lane_work {
  cudaStream_t stream;
  cudaEvent_t done[2] = {};
  cudaError_t status = cudaSuccess;
  void check(cudaError_t s) {
    if (status == cudaSuccess) status = s;
  }
};

// Host to device: fill a buffer once the link has emptied it, then queue its transfer.
void send(const lane& l, lane_work& w, char* device, const char* host,
          const std::vector<chunk>& chunks) {
  for (std::size_t k = 0; k < chunks.size() && w.status == cudaSuccess; ++k) {
    const int b = static_cast<int>(k & 1);
    if (k >= 2) w.check(cudaEventSynchronize(w.done[b]));
    std::memcpy(l.buffer[b], host + chunks[k].offset, chunks[k].bytes);
    w.check(cudaMemcpyAsync(device + chunks[k].offset, l.buffer[b], chunks[k].bytes,
                            cudaMemcpyHostToDevice, w.stream));
    w.check(cudaEventRecord(w.done[b], w.stream));
  }
  for (cudaEvent_t e : w.done) w.check(cudaEventSynchronize(e));
}

// Device to host: the next chunk's transfer is queued before this one's is copied out.
void receive(const lane& l, lane_work& w, char* host, const char* device,
             const std::vector<chunk>& chunks) {
  const auto queue = [&](std::size_t k) {
    const int b = static_cast<int>(k & 1);
    w.check(cudaMemcpyAsync(l.buffer[b], device + chunks[k].offset, chunks[k].bytes,
                            cudaMemcpyDeviceToHost, w.stream));
    w.check(cudaEventRecord(w.done[b], w.stream));
  };
  if (!chunks.empty()) queue(0);
  for (std::size_t k = 0; k < chunks.size() && w.status == cudaSuccess; ++k) {
    if (k + 1 < chunks.size()) queue(k + 1);
    w.check(cudaEventSynchronize(w.done[k & 1]));
    if (w.status == cudaSuccess)
      std::memcpy(host + chunks[k].offset, l.buffer[k & 1], chunks[k].bytes);
  }
}

using lane_body = std::function<void(const lane&, lane_work&, const std::vector<chunk>&)>;

// Runs `body` on each lane's chunks, one host thread a lane, on the caller's device; throws the
// first CUDA error of any lane.
void staged(std::size_t bytes, cudaStream_t stream, const lane_body& body) {
  std::lock_guard hold(lanes_mutex);
  const std::vector<lane>& all = lanes();
  const int count =
      static_cast<int>(std::min<std::size_t>(all.size(), (bytes + chunk_bytes - 1) / chunk_bytes));
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  std::vector<lane_work> work(count, lane_work{stream});
  for (lane_work& w : work)
    for (cudaEvent_t& e : w.done)
      check_cuda(cudaEventCreateWithFlags(&e, cudaEventDisableTiming), "cudaEventCreate");
  std::vector<std::thread> threads;
  for (int t = 0; t < count; ++t)
    threads.emplace_back([&, t] {
      work[t].check(cudaSetDevice(device));
      if (work[t].status == cudaSuccess) body(all[t], work[t], chunks_of(t, count, bytes));
    });
  for (std::thread& t : threads) t.join();
  for (lane_work& w : work)
    for (cudaEvent_t e : w.done) cudaEventDestroy(e);
  for (const lane_work& w : work) check_cuda(w.status, "staged cudaMemcpyAsync");
}

// [begin, end) (page-aligned) zeroed by the lanes' threads, on huge pages where the kernel
// offers them: the faults of fresh memory, spread over threads. (The kernel's
// MADV_POPULATE_WRITE took three times as long on the H100 host: bench/NOTES.md.)
void touch(std::uintptr_t begin, std::uintptr_t end) {
  madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
  const std::size_t count = std::min<std::size_t>(lane_count(), (end - begin) / chunk_bytes + 1);
  const std::size_t share = ((end - begin) / count + page - 1) & ~(page - 1);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < count; ++t)
    threads.emplace_back([=] {
      const std::uintptr_t from = begin + t * share;
      if (from < end)
        std::memset(reinterpret_cast<void*>(from), 0, std::min<std::uintptr_t>(share, end - from));
    });
  for (std::thread& t : threads) t.join();
}

}  // namespace

void prepare_host_memory(void* host, std::size_t bytes) {
  if (bytes < staged_from) return;
  const auto start = reinterpret_cast<std::uintptr_t>(host);
  const std::uintptr_t begin = (start + page - 1) & ~(page - 1);
  const std::uintptr_t end = (start + bytes) & ~(page - 1);
  if (end > begin) touch(begin, end);
}

void copy_to_device(void* device, const void* host, std::size_t bytes, cudaStream_t stream) {
  const bool from_pinned = pinned(host);
  if (!from_pinned && bytes >= staged_from) {
    staged(bytes, stream, [&](const lane& l, lane_work& w, const std::vector<chunk>& c) {
      send(l, w, static_cast<char*>(device), static_cast<const char*>(host), c);
    });
    return;
  }
  check_cuda(cudaMemcpyAsync(device, host, bytes, cudaMemcpyHostToDevice, stream),
             "cudaMemcpyAsync (host to device)");
  // From pinned memory the copy goes on after the call returns: wait, so that the caller may
  // reuse `host` at once (CUDA copies pageable memory out before the call returns).
  if (from_pinned) check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

void copy_to_host(void* host, const void* device, std::size_t bytes, cudaStream_t stream) {
  if (bytes < staged_from || pinned(host)) {
    check_cuda(cudaMemcpyAsync(host, device, bytes, cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync (device to host)");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  } else {
    staged(bytes, stream, [&](const lane& l, lane_work& w, const std::vector<chunk>& c) {
      receive(l, w, static_cast<char*>(host), static_cast<const char*>(device), c);
    });
  }
  raise_device_errors();
}

}  // namespace jet::detail
