// raw_kernel and raw_module: user CUDA C compiled through Jet's caches, loaded as CUDA
// libraries, launched with the driver's cuLaunchKernel.
#include <cudaTypedefs.h>

#include <map>
#include <mutex>
#include <vector>

#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/cache/disk_cache.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/launch.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"
#include "src/pipeline/trace.hpp"
#include "src/user/arguments.hpp"

namespace jet {

// A loaded CUDA library, with the name expressions it was compiled with and their lowered names.
struct raw_module::library {
  cudaLibrary_t handle = nullptr;
  std::vector<std::string> expressions, lowered;
  library() = default;
  library(const library&) = delete;
  library& operator=(const library&) = delete;
  ~library() {
    if (handle) cudaLibraryUnload(handle);
  }
  // The symbol for `name`: its lowered name when it is a name expression, else `name` itself.
  const std::string& symbol(const std::string& name) const {
    for (std::size_t k = 0; k < expressions.size(); ++k)
      if (expressions[k] == name || expressions[k] == "&" + name) return lowered[k];
    return name;
  }
};

namespace detail {

// One kernel of a user module. A raw_kernel made from source loads its module on first use.
struct user_function {
  std::string name;
  std::string source;  // with `options`: compiled on first use
  std::vector<std::string> options;
  std::shared_ptr<raw_module::library> library;
  std::once_flag once;
  cudaKernel_t kernel = nullptr;
  bool sizes_known = false;  // the driver reports parameter sizes (CUDA 12.4 and later)
  std::vector<std::size_t> sizes;
};

namespace {

template <class F>
F driver_function(const char* symbol, int version) {
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found{};
  const cudaError_t status =
      cudaGetDriverEntryPointByVersion(symbol, &fn, version, cudaEnableDefault, &found);
  return status == cudaSuccess && found == cudaDriverEntryPointSuccess ? reinterpret_cast<F>(fn)
                                                                       : nullptr;
}

// The parameter sizes of `kernel`, when the driver can say. The driver answers for a context:
// cudaFree(nullptr) makes the runtime's current (a kernel may be loaded before any array is
// made). Past the last parameter it reports CUDA_ERROR_INVALID_VALUE; any other error at the
// first parameter means it cannot say, and the argument checks are skipped.
void read_parameter_sizes(user_function& f) {
  static const auto info =
      driver_function<PFN_cuKernelGetParamInfo_v12040>("cuKernelGetParamInfo", 12040);
  if (!info) return;
  check_cuda(cudaFree(nullptr), "cudaFree");
  for (std::size_t k = 0;; ++k) {
    std::size_t offset = 0, size = 0;
    const CUresult status = info(reinterpret_cast<CUkernel>(f.kernel), k, &offset, &size);
    if (status != CUDA_SUCCESS) {
      if (k == 0 && status != CUDA_ERROR_INVALID_VALUE) return;
      break;
    }
    f.sizes.push_back(size);
  }
  f.sizes_known = true;
}

// Loaded libraries by cache key: a raw_module made twice from one source loads it once.
std::shared_ptr<raw_module::library> obtain_library(const std::string& source,
                                                    const std::vector<std::string>& options,
                                                    const std::vector<std::string>& expressions) {
  static std::mutex mutex;
  static auto* loaded =
      new std::map<std::string, std::shared_ptr<raw_module::library>>;  // outlives static arrays
  const codegen::kernel_source src{std::string(codegen::user_module_name), source};
  const compile_extras extras = user_extras(options, expressions);
  const std::string arch = device::arch();
  const std::string key = identify(src, arch, extras).key;
  {
    std::lock_guard lock(mutex);
    if (const auto it = loaded->find(key); it != loaded->end()) return it->second;
  }
  const obtained_kernel obtained = compile_or_load(src, arch, extras);
  trace(1, "%s a raw module for %s: %.3f ms",
        obtained.origin == kernel_origin::disk ? "disk cache hit" : "compile",
        obtained.compiled.arch.c_str(), obtained.milliseconds);
  auto lib = std::make_shared<raw_module::library>();
  check_cuda(cudaLibraryLoadData(&lib->handle, obtained.compiled.image.data(), nullptr, nullptr, 0,
                                 nullptr, nullptr, 0),
             "cudaLibraryLoadData");
  lib->expressions = expressions;
  lib->lowered = obtained.compiled.lowered_names;
  std::lock_guard lock(mutex);
  return loaded->try_emplace(key, std::move(lib)).first->second;
}

void load(user_function& f) {
  if (!f.library) f.library = obtain_library(f.source, f.options, {f.name});
  const cudaError_t status =
      cudaLibraryGetKernel(&f.kernel, f.library->handle, f.library->symbol(f.name).c_str());
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw value_error(
        "the module has no kernel '" + f.name + "' (" + cudaGetErrorString(status) +
        "): name an extern \"C\" __global__ function, or give the C++ name as a name expression");
  }
  read_parameter_sizes(f);
}

user_function& loaded(user_function& f) {
  std::call_once(f.once, [&] { load(f); });
  return f;
}

}  // namespace

void launch_user(user_function& f, const launch_config& c, void** args, const std::size_t* sizes,
                 std::size_t count) {
  loaded(f);
  if (f.sizes_known) {
    if (count != f.sizes.size())
      throw value_error("kernel " + f.name + " takes " + std::to_string(f.sizes.size()) +
                        " arguments; " + std::to_string(count) + " were given");
    for (std::size_t k = 0; k < count; ++k)
      if (sizes[k] != f.sizes[k])
        throw value_error("argument " + std::to_string(k) + " of kernel " + f.name + " is " +
                          std::to_string(sizes[k]) + " bytes; its parameter takes " +
                          std::to_string(f.sizes[k]) +
                          " (pass scalars as the C++ type the kernel declares)");
  }
  const cudaStream_t stream = c.stream ? c.stream : current_stream();
  const dim3 grid(c.grid.x, c.grid.y, c.grid.z), block(c.block.x, c.block.y, c.block.z);
  if (stream_idle(stream)) {
    launch_kernel(f.kernel, grid, block, args, c.shared_memory, stream);
    return;
  }
  // Behind a kernel still compiling: the launch keeps a copy of its arguments.
  std::vector<std::vector<std::byte>> copies(count);
  for (std::size_t k = 0; k < count; ++k) {
    const auto* from = static_cast<const std::byte*>(args[k]);
    copies[k].assign(from, from + sizes[k]);
  }
  in_order(stream, [kernel = f.kernel, grid, block, copies = std::move(copies),
                    shared = c.shared_memory, stream]() mutable {
    std::vector<void*> pointers;
    for (std::vector<std::byte>& a : copies) pointers.push_back(a.data());
    launch_kernel(kernel, grid, block, pointers.data(), shared, stream);
  });
}

}  // namespace detail

raw_kernel::raw_kernel(std::string source, std::string name, std::vector<std::string> options)
    : function_(std::make_shared<detail::user_function>()) {
  function_->name = std::move(name);
  function_->source = std::move(source);
  function_->options = std::move(options);
}

raw_kernel::raw_kernel(std::shared_ptr<detail::user_function> function)
    : function_(std::move(function)) {}

const std::string& raw_kernel::name() const { return function_->name; }

void raw_kernel::compile() const { detail::loaded(*function_); }

kernel_attributes raw_kernel::attributes() const {
  const void* f = reinterpret_cast<const void*>(detail::loaded(*function_).kernel);
  cudaFuncAttributes a{};
  detail::check_cuda(cudaFuncGetAttributes(&a, f), "cudaFuncGetAttributes");
  kernel_attributes out;
  out.max_threads_per_block = a.maxThreadsPerBlock;
  out.num_regs = a.numRegs;
  out.shared_size_bytes = a.sharedSizeBytes;
  out.const_size_bytes = a.constSizeBytes;
  out.local_size_bytes = a.localSizeBytes;
  out.max_dynamic_shared_size_bytes = a.maxDynamicSharedSizeBytes;
  out.preferred_shared_memory_carveout = a.preferredShmemCarveout;
  out.ptx_version = a.ptxVersion;
  out.binary_version = a.binaryVersion;
  return out;
}

void raw_kernel::set_max_dynamic_shared_memory(int bytes) const {
  const void* f = reinterpret_cast<const void*>(detail::loaded(*function_).kernel);
  detail::check_cuda(cudaFuncSetAttribute(f, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes),
                     "cudaFuncSetAttribute(MaxDynamicSharedMemorySize)");
}

void raw_kernel::set_preferred_shared_memory_carveout(int percent) const {
  const void* f = reinterpret_cast<const void*>(detail::loaded(*function_).kernel);
  detail::check_cuda(
      cudaFuncSetAttribute(f, cudaFuncAttributePreferredSharedMemoryCarveout, percent),
      "cudaFuncSetAttribute(PreferredSharedMemoryCarveout)");
}

raw_module::raw_module(std::string source, std::vector<std::string> options,
                       std::vector<std::string> name_expressions)
    : library_(detail::obtain_library(source, options, name_expressions)) {}

raw_module raw_module::from_file(const std::string& path) {
  auto lib = std::make_shared<library>();
  const cudaError_t status =
      cudaLibraryLoadFromFile(&lib->handle, path.c_str(), nullptr, nullptr, 0, nullptr, nullptr, 0);
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw cuda_error("cannot load a CUDA module from " + path + ": " + cudaGetErrorString(status),
                     status);
  }
  return raw_module(std::move(lib));
}

raw_kernel raw_module::get_function(const std::string& name) const {
  auto f = std::make_shared<detail::user_function>();
  f->name = name;
  f->library = library_;
  detail::loaded(*f);
  return raw_kernel(std::move(f));
}

device_global raw_module::get_global(const std::string& name) const {
  device_global g;
  const cudaError_t status =
      cudaLibraryGetGlobal(&g.data, &g.bytes, library_->handle, library_->symbol(name).c_str());
  if (status != cudaSuccess) {
    cudaGetLastError();
    throw value_error("the module has no __device__ or __constant__ variable '" + name + "' (" +
                      cudaGetErrorString(status) + "); give a C++ name as a name expression");
  }
  return g;
}

void device_global::copy_from_host(const void* source, std::size_t count) const {
  if (count > bytes)
    throw value_error("cannot copy " + std::to_string(count) + " bytes into a " +
                      std::to_string(bytes) + "-byte device variable");
  detail::check_cuda(cudaMemcpyAsync(data, source, count, cudaMemcpyHostToDevice, current_stream()),
                     "cudaMemcpyAsync");
  detail::check_cuda(cudaStreamSynchronize(current_stream()), "cudaStreamSynchronize");
}

void device_global::copy_to_host(void* destination, std::size_t count) const {
  if (count > bytes)
    throw value_error("cannot copy " + std::to_string(count) + " bytes out of a " +
                      std::to_string(bytes) + "-byte device variable");
  detail::check_cuda(
      cudaMemcpyAsync(destination, data, count, cudaMemcpyDeviceToHost, current_stream()),
      "cudaMemcpyAsync");
  detail::check_cuda(cudaStreamSynchronize(current_stream()), "cudaStreamSynchronize");
}

}  // namespace jet
