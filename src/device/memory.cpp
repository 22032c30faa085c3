// Device memory from the device's default memory pool (cudaMallocAsync).
#include "src/device/memory.hpp"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <new>
#include <string>

#include "jet/device.hpp"
#include "jet/memory.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {
namespace {

// What Jet keeps of each device's memory: its pool and the counters of jet::memory::stats.
struct device_memory {
  std::once_flag once;
  cudaMemPool_t pool = nullptr;
  std::atomic<std::size_t> in_use{0};
  std::atomic<std::size_t> peak{0};
  std::atomic<std::size_t> limit{0};
};

// The device's record, its pool set up on first use; never freed (buffers outlive statics).
device_memory& memory_of(int device) {
  static device_memory* const all = new device_memory[static_cast<std::size_t>(device::count())];
  device_memory& m = all[device];
  std::call_once(m.once, [&] {
    check_cuda(cudaDeviceGetDefaultMemPool(&m.pool, device), "cudaDeviceGetDefaultMemPool");
    // Keep freed memory cached in the pool instead of returning it at every synchronize.
    std::uint64_t threshold = UINT64_MAX;
    check_cuda(cudaMemPoolSetAttribute(m.pool, cudaMemPoolAttrReleaseThreshold, &threshold),
               "cudaMemPoolSetAttribute");
  });
  return m;
}

device_memory& current_memory() { return memory_of(device::current_id()); }

std::string mib(std::size_t bytes) {
  return std::to_string(bytes) + " bytes (" + std::to_string(bytes >> 20) + " MiB)";
}

[[noreturn]] void throw_oom(std::size_t bytes, int device, const std::string& why) {
  const std::size_t held = memory_of(device).in_use.load();
  throw out_of_memory("out of memory allocating " + mib(bytes) + " on device " +
                          std::to_string(device) + ": " + why + "; Jet's arrays hold " + mib(held),
                      bytes, held);
}

}  // namespace

buffer::~buffer() {
  if (foreign) {
    if (owner) release_in_order(std::move(owner), stream);
    return;
  }
  if (!data) return;
  const device_scope on(device);
  free_in_order(data, stream);
  memory_of(device).in_use -= bytes;
}

std::shared_ptr<buffer> allocate(std::size_t bytes) {
  auto b = std::make_shared<buffer>();
  // An empty array touches no device: it may be made without one (its device is then 0).
  b->device = bytes == 0 && device::count() == 0 ? 0 : device::current_id();
  if (bytes == 0) return b;
  device_memory& m = memory_of(b->device);
  const std::size_t cap = m.limit.load();
  if (cap && m.in_use.load() + bytes > cap)
    throw_oom(bytes, b->device, "the limit set with jet::memory::set_limit is " + mib(cap));
  b->stream = current_stream();
  cudaError_t status = cudaMallocAsync(&b->data, bytes, b->stream);
  if (status == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    jet::memory::trim();
    status = cudaMallocAsync(&b->data, bytes, b->stream);
    if (status == cudaErrorMemoryAllocation) {
      cudaGetLastError();
      std::size_t free_bytes = 0, total = 0;
      cudaMemGetInfo(&free_bytes, &total);
      b->data = nullptr;
      throw_oom(bytes, b->device, "it has " + mib(free_bytes) + " free of " + mib(total));
    }
  }
  check_cuda(status, "cudaMallocAsync");
  b->bytes = bytes;
  const std::size_t now = m.in_use += bytes;
  std::size_t seen = m.peak.load();
  while (now > seen && !m.peak.compare_exchange_weak(seen, now)) {
  }
  return b;
}

}  // namespace jet::detail

namespace jet::memory {

statistics stats() {
  detail::device_memory& m = detail::current_memory();
  statistics s;
  s.in_use = m.in_use.load();
  s.peak = m.peak.load();
  s.limit = m.limit.load();
  std::uint64_t reserved = 0;
  detail::check_cuda(cudaMemPoolGetAttribute(m.pool, cudaMemPoolAttrReservedMemCurrent, &reserved),
                     "cudaMemPoolGetAttribute");
  s.reserved = reserved;
  return s;
}

void set_limit(std::size_t bytes) { detail::current_memory().limit = bytes; }

void trim() {
  detail::device_memory& m = detail::current_memory();
  detail::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  detail::check_cuda(cudaMemPoolTrimTo(m.pool, 0), "cudaMemPoolTrimTo");
}

}  // namespace jet::memory

namespace jet {

void* allocate_pinned(std::size_t bytes) {
  void* p = nullptr;
  if (cudaHostAlloc(&p, bytes, cudaHostAllocPortable) != cudaSuccess) {
    (void)cudaGetLastError();
    throw std::bad_alloc();
  }
  return p;
}

void free_pinned(void* p) noexcept { cudaFreeHost(p); }

}  // namespace jet
