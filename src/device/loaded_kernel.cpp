// Loading, caching in memory and launching kernels.
#include "src/device/loaded_kernel.hpp"

#include <cudaTypedefs.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <shared_mutex>
#include <unordered_map>

#include "jet/device.hpp"
#include "src/device/cuda_check.hpp"
#include "src/cache/disk_cache.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {
namespace {

struct cache_state {
  mutable std::shared_mutex mutex;
  std::unordered_map<std::string, std::unique_ptr<loaded_kernel>> map;
};

cache_state& state() {
  static cache_state* s = new cache_state;  // never destroyed: kernels outlive static arrays
  return *s;
}

}  // namespace

loaded_kernel::loaded_kernel(const compiled_kernel& compiled) : name_(compiled.name) {
  check_cuda(cudaLibraryLoadData(&library_, compiled.image.data(), nullptr, nullptr, 0, nullptr,
                                 nullptr, 0),
             "cudaLibraryLoadData");
  check_cuda(cudaLibraryGetKernel(&kernel_, library_, compiled.name.c_str()), "cudaLibraryGetKernel");
}

int loaded_kernel::blocks_per_sm() const {
  int blocks = blocks_per_sm_.load(std::memory_order_relaxed);
  if (blocks == 0) {
    // Threads that race here ask the same question and store the same answer.
    check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, reinterpret_cast<const void*>(kernel_), 256, 0),
               "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
    blocks = std::max(blocks, 1);
    blocks_per_sm_.store(blocks, std::memory_order_relaxed);
  }
  return blocks;
}

loaded_kernel::~loaded_kernel() { cudaLibraryUnload(library_); }

const loaded_kernel& build_kernel(const std::string& signature, const codegen::kernel_source& source,
                                  const compile_extras& extras) {
  const auto start = std::chrono::steady_clock::now();
  if (debug_level() >= 2) std::fprintf(stderr, "[jet] source of %s:\n%s\n", source.name.c_str(), source.source.c_str());
  const obtained_kernel obtained = compile_or_load(source, device::arch(), extras);
  if (debug_level() >= 1)
    std::fprintf(stderr, "[jet] %s %s for %s in %.3f ms\n",
                 obtained.origin == kernel_origin::disk ? "loaded from disk" : "compiled", source.name.c_str(),
                 obtained.compiled.arch.c_str(), obtained.milliseconds);
  const loaded_kernel* kept = kernels().insert(signature, std::make_unique<loaded_kernel>(obtained.compiled));
  if (debug_level() >= 1)
    std::fprintf(stderr, "[jet] obtain + load of %s: %.3f ms\n", source.name.c_str(),
                 std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
  return *kept;
}

const loaded_kernel* memory_cache::find(const std::string& signature) const {
  std::shared_lock lock(state().mutex);
  const auto it = state().map.find(signature);
  return it == state().map.end() ? nullptr : it->second.get();
}

const loaded_kernel* memory_cache::insert(const std::string& signature,
                                          std::unique_ptr<loaded_kernel> kernel) {
  std::unique_lock lock(state().mutex);
  auto [it, inserted] = state().map.try_emplace(signature, std::move(kernel));
  return it->second.get();
}

std::size_t memory_cache::size() const {
  std::shared_lock lock(state().mutex);
  return state().map.size();
}

memory_cache& kernels() {
  static memory_cache cache;
  return cache;
}

std::int64_t max_grid_blocks() {
  // Resident blocks per SM the grid-stride loops aim for; JET_BLOCKS_PER_SM overrides it.
  static const std::int64_t blocks = [] {
    const char* v = std::getenv("JET_BLOCKS_PER_SM");
    const std::int64_t per_sm = v && std::atoi(v) > 0 ? std::atoi(v) : 32;
    return std::int64_t{device::current().multiprocessors} * per_sm;
  }();
  return blocks;
}

void launch_kernel(cudaKernel_t kernel, dim3 grid, dim3 block, void** args, std::size_t shared_bytes,
                   cudaStream_t stream) {
  // The driver's cuLaunchKernel takes the library kernel itself and costs less per launch than
  // cudaLaunchKernel. It needs a current context; when it fails for that or any other reason,
  // the runtime's launch below sets the context up or reports the error in its own words.
  static const auto driver_launch = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult found{};
    const cudaError_t status = cudaGetDriverEntryPointByVersion("cuLaunchKernel", &fn, 12000, cudaEnableDefault, &found);
    return status == cudaSuccess && found == cudaDriverEntryPointSuccess
               ? reinterpret_cast<PFN_cuLaunchKernel_v4000>(fn)
               : nullptr;
  }();
  if (driver_launch && driver_launch(reinterpret_cast<CUfunction>(kernel), grid.x, grid.y, grid.z, block.x, block.y,
                                     block.z, static_cast<unsigned>(shared_bytes), stream, args, nullptr) == CUDA_SUCCESS)
    return;
  check_cuda(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), grid, block, args, shared_bytes, stream),
             "cudaLaunchKernel");
}

namespace {

void launch_shaped(cudaKernel_t kernel, dim3 grid, dim3 block, const std::byte* params) {
  void* args[] = {const_cast<std::byte*>(params)};
  launch_kernel(kernel, grid, block, args, 0, current_stream());
}

}  // namespace

void launch(const loaded_kernel& kernel, std::int64_t work_items, bool tiled, const std::byte* params) {
  constexpr int threads = 256;
  const std::int64_t wanted = tiled ? work_items : (work_items + threads - 1) / threads;
  const std::int64_t blocks = std::clamp<std::int64_t>(wanted, 1, max_grid_blocks());
  launch_shaped(kernel.handle(), dim3(static_cast<unsigned>(blocks)), tiled ? dim3(32, 8) : dim3(threads), params);
}

void launch_grid(cudaKernel_t kernel, dim3 grid, const std::byte* params) {
  launch_shaped(kernel, grid, dim3(256), params);
}

int debug_level() {
  static const int level = [] {
    const char* v = std::getenv("JET_DEBUG");
    return v ? std::atoi(v) : 0;
  }();
  return level;
}

}  // namespace jet::detail
