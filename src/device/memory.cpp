// Device memory from the device's default memory pool (cudaMallocAsync).
#include "src/device/memory.hpp"

#include <atomic>
#include <cstdint>
#include <new>
#include <string>

#include "jet/memory.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {
namespace {

std::atomic<std::size_t> in_use{0};
std::atomic<std::size_t> peak{0};
std::atomic<std::size_t> limit{0};

cudaMemPool_t pool() {
  static const cudaMemPool_t p = [] {
    int id = 0;
    check_cuda(cudaGetDevice(&id), "cudaGetDevice");
    cudaMemPool_t handle = nullptr;
    check_cuda(cudaDeviceGetDefaultMemPool(&handle, id), "cudaDeviceGetDefaultMemPool");
    // Keep freed memory cached in the pool instead of returning it at every synchronize.
    std::uint64_t threshold = UINT64_MAX;
    check_cuda(cudaMemPoolSetAttribute(handle, cudaMemPoolAttrReleaseThreshold, &threshold),
               "cudaMemPoolSetAttribute");
    return handle;
  }();
  return p;
}

std::string mib(std::size_t bytes) {
  return std::to_string(bytes) + " bytes (" + std::to_string(bytes >> 20) + " MiB)";
}

[[noreturn]] void throw_oom(std::size_t bytes, const std::string& why) {
  throw out_of_memory("out of memory allocating " + mib(bytes) + " on the device: " + why +
                          "; Jet's arrays hold " + mib(in_use.load()),
                      bytes, in_use.load());
}

}  // namespace

buffer::~buffer() {
  if (foreign) {
    if (owner) release_in_order(std::move(owner), stream);
    return;
  }
  if (!data) return;
  free_in_order(data, stream);
  in_use -= bytes;
}

std::shared_ptr<buffer> allocate(std::size_t bytes) {
  auto b = std::make_shared<buffer>();
  if (bytes == 0) return b;
  const std::size_t cap = limit.load();
  if (cap && in_use.load() + bytes > cap)
    throw_oom(bytes, "the limit set with jet::memory::set_limit is " + mib(cap));
  pool();
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
      throw_oom(bytes, "the device has " + mib(free_bytes) + " free of " + mib(total));
    }
  }
  check_cuda(status, "cudaMallocAsync");
  b->bytes = bytes;
  const std::size_t now = in_use += bytes;
  std::size_t seen = peak.load();
  while (now > seen && !peak.compare_exchange_weak(seen, now)) {
  }
  return b;
}

}  // namespace jet::detail

namespace jet::memory {

statistics stats() {
  statistics s;
  s.in_use = detail::in_use.load();
  s.peak = detail::peak.load();
  s.limit = detail::limit.load();
  std::uint64_t reserved = 0;
  detail::check_cuda(
      cudaMemPoolGetAttribute(detail::pool(), cudaMemPoolAttrReservedMemCurrent, &reserved),
      "cudaMemPoolGetAttribute");
  s.reserved = reserved;
  return s;
}

void set_limit(std::size_t bytes) { detail::limit = bytes; }

void trim() {
  detail::check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  detail::check_cuda(cudaMemPoolTrimTo(detail::pool(), 0), "cudaMemPoolTrimTo");
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
