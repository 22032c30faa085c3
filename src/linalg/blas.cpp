// cuBLAS handles and calls. A handle per (device, stream) is made on first use and kept for the
// life of the process (as CuPy does: destroying handles during static destruction races the
// CUDA runtime's own teardown); its workspace comes from Jet's allocator. Every status is checked.
#include "src/linalg/linalg_detail.hpp"

#include <cublas_v2.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>
#include <utility>

#include "jet/device.hpp"
#include "jet/error.hpp"
#include "jet/linalg.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/memory.hpp"
#include "src/device/placement.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {
namespace {

using codegen::blas_op;
using codegen::blas_plan;

void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw cuda_error(std::string(call) + " failed: " + cublasGetStatusName(status) + " (" +
                         cublasGetStatusString(status) + ")",
                     static_cast<int>(status));
}

// cuBLAS's own default workspace size: 32 MiB from Hopper on, 4 MiB before.
std::size_t workspace_bytes() {
  return device::current().major >= 9 ? std::size_t{32} << 20 : std::size_t{4} << 20;
}

struct handle_entry {
  cublasHandle_t handle = nullptr;
  std::shared_ptr<buffer> workspace;
};

cublasHandle_t make_handle(cudaStream_t stream, std::shared_ptr<buffer>& workspace) {
  cublasHandle_t h = nullptr;
  check_cublas(cublasCreate(&h), "cublasCreate");
  try {
    // cublasSetStream resets the workspace to cuBLAS's own pool, so the workspace comes after.
    check_cublas(cublasSetStream(h, stream), "cublasSetStream");
    workspace = allocate(workspace_bytes());
    check_cublas(cublasSetWorkspace(h, workspace->data, workspace->bytes), "cublasSetWorkspace");
    check_cublas(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
  } catch (...) {
    cublasDestroy(h);
    throw;
  }
  return h;
}

// The handle for the calling thread's device and current stream.
cublasHandle_t current_handle() {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  const cudaStream_t stream = current_stream();
  struct last_used {
    int device = -1;
    cudaStream_t stream = nullptr;
    cublasHandle_t handle = nullptr;
  };
  thread_local last_used last;
  if (last.handle && last.device == device && last.stream == stream) return last.handle;
  static std::mutex mutex;
  static auto* handles = new std::map<std::pair<int, cudaStream_t>, handle_entry>;  // never freed
  std::lock_guard<std::mutex> lock(mutex);
  handle_entry& entry = (*handles)[{device, stream}];
  if (!entry.handle) entry.handle = make_handle(stream, entry.workspace);
  last = {device, stream, entry.handle};
  return entry.handle;
}

std::atomic<bool>& tf32_flag() {
  static std::atomic<bool> flag = [] {
    const char* v = std::getenv("JET_TF32");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return flag;
}

// Element types, compute types and the scalars 1 and 0 in cuBLAS's scale type.
struct blas_type {
  cudaDataType data;
  cublasComputeType_t compute;
  const void* one;
  const void* zero;
};

blas_type blas_type_of(dtype t) {
  static const float f1 = 1, f0 = 0;
  static const double d1 = 1, d0 = 0;
  static const cuComplex c1{1, 0}, c0{0, 0};
  static const cuDoubleComplex z1{1, 0}, z0{0, 0};
  const cublasComputeType_t single =
      jet::linalg::tf32_allowed() ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  switch (t) {
    case dtype::float16: return {CUDA_R_16F, CUBLAS_COMPUTE_32F, &f1, &f0};
    case dtype::bfloat16: return {CUDA_R_16BF, CUBLAS_COMPUTE_32F, &f1, &f0};
    case dtype::float32: return {CUDA_R_32F, single, &f1, &f0};
    case dtype::float64: return {CUDA_R_64F, CUBLAS_COMPUTE_64F, &d1, &d0};
    case dtype::complex64: return {CUDA_C_32F, single, &c1, &c0};
    case dtype::complex128: return {CUDA_C_64F, CUBLAS_COMPUTE_64F, &z1, &z0};
    default: throw internal_error("cuBLAS product of dtype " + std::string(name(t)));
  }
}

cublasOperation_t operation(blas_op op) {
  switch (op) {
    case blas_op::none: return CUBLAS_OP_N;
    case blas_op::transpose: return CUBLAS_OP_T;
    case blas_op::conjugate_transpose: return CUBLAS_OP_C;
  }
  return CUBLAS_OP_N;
}

// One gemv call's arguments, typed per dtype below.
struct gemv_args {
  cublasHandle_t handle;
  const blas_plan& plan;
  const void* matrix;
  const void* x;
  void* y;
};

// Calls `single` (cublas<t>gemv_64) for one product or `batched` (its strided-batched form)
// for several; the half types have only the batched form.
template <class T, class S, class Single, class Batched>
void gemv_typed(const gemv_args& g, const S* one, const S* zero, Single single, Batched batched) {
  const blas_plan& p = g.plan;
  const cublasOperation_t op = operation(p.first.op);
  const T* matrix = static_cast<const T*>(g.matrix);
  const T* x = static_cast<const T*>(g.x);
  T* y = static_cast<T*>(g.y);
  if constexpr (!std::is_same_v<Single, std::nullptr_t>) {
    if (p.batch == 1) {
      check_cublas(single(g.handle, op, p.m, p.n, one, matrix, p.first.ld, x, p.second.ld, zero, y,
                          p.out.ld),
                   "cublas gemv");
      return;
    }
  }
  check_cublas(
      batched(g.handle, op, p.m, p.n, one, matrix, p.first.ld, p.first.batch_stride, x, p.second.ld,
              p.second.batch_stride, zero, y, p.out.ld, p.out.batch_stride, p.batch),
      "cublas strided-batched gemv");
}

void gemv(const gemv_args& g, dtype t, const blas_type& bt) {
  const auto* f1 = static_cast<const float*>(bt.one);
  const auto* f0 = static_cast<const float*>(bt.zero);
  switch (t) {
    case dtype::float16:
      return gemv_typed<__half>(g, f1, f0, nullptr, cublasHSHgemvStridedBatched_64);
    case dtype::bfloat16:
      return gemv_typed<__nv_bfloat16>(g, f1, f0, nullptr, cublasTSTgemvStridedBatched_64);
    case dtype::float32:
      return gemv_typed<float>(g, f1, f0, cublasSgemv_64, cublasSgemvStridedBatched_64);
    case dtype::float64:
      return gemv_typed<double>(g, static_cast<const double*>(bt.one),
                                static_cast<const double*>(bt.zero), cublasDgemv_64,
                                cublasDgemvStridedBatched_64);
    case dtype::complex64:
      return gemv_typed<cuComplex>(g, static_cast<const cuComplex*>(bt.one),
                                   static_cast<const cuComplex*>(bt.zero), cublasCgemv_64,
                                   cublasCgemvStridedBatched_64);
    case dtype::complex128:
      return gemv_typed<cuDoubleComplex>(g, static_cast<const cuDoubleComplex*>(bt.one),
                                         static_cast<const cuDoubleComplex*>(bt.zero),
                                         cublasZgemv_64, cublasZgemvStridedBatched_64);
    default: throw internal_error("cuBLAS gemv of dtype " + std::string(name(t)));
  }
}

}  // namespace

linalg_counters& linalg_counts() {
  static linalg_counters counters;
  return counters;
}

namespace {

// The cuBLAS calls of plan `p` over operands at `first` and `second`, results at `result`, of
// dtype t, on the current stream.
void call_blas(const blas_plan& p, const std::byte* first, const std::byte* second,
               std::byte* result, dtype t) {
  const blas_type bt = blas_type_of(t);
  const cublasHandle_t handle = current_handle();
  const std::int64_t size = itemsize(t);
  codegen::for_each_call(p, [&](std::int64_t f, std::int64_t s, std::int64_t o) {
    const void* A = first + f * size;
    const void* B = second + s * size;
    void* C = result + o * size;
    if (p.what == blas_plan::kind::gemv) {
      gemv({handle, p, A, B, C}, t, bt);
    } else if (p.batch == 1) {
      check_cublas(cublasGemmEx_64(handle, operation(p.first.op), operation(p.second.op), p.m, p.n,
                                   p.k, bt.one, A, bt.data, p.first.ld, B, bt.data, p.second.ld,
                                   bt.zero, C, bt.data, p.out.ld, bt.compute, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmEx_64");
    } else {
      check_cublas(cublasGemmStridedBatchedEx_64(
                       handle, operation(p.first.op), operation(p.second.op), p.m, p.n, p.k, bt.one,
                       A, bt.data, p.first.ld, p.first.batch_stride, B, bt.data, p.second.ld,
                       p.second.batch_stride, bt.zero, C, bt.data, p.out.ld, p.out.batch_stride,
                       p.batch, bt.compute, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmStridedBatchedEx_64");
    }
  });
}

// Counts the cuBLAS calls of plan `p` as they are asked for (they may wait in the stream's
// queue behind a kernel still compiling).
void count_calls(const blas_plan& p) {
  linalg_counters& counts = linalg_counts();
  std::atomic<std::int64_t>& calls = p.what == blas_plan::kind::gemv ? counts.gemv
                                     : p.batch == 1                  ? counts.gemm
                                                                     : counts.gemm_batched;
  codegen::for_each_call(p, [&](std::int64_t, std::int64_t, std::int64_t) { ++calls; });
}

}  // namespace

void run_blas(const blas_plan& p, const array& a, const array& b, const array& out) {
  if (p.what != blas_plan::kind::gemm && p.what != blas_plan::kind::gemv)
    throw internal_error("run_blas given a plan without a cuBLAS call");
  for (const array* x : {&a, &b, &out}) check_on_current_device(*x, "matmul");
  const auto* first = static_cast<const std::byte*>((p.swapped ? b : a).data());
  const auto* second = static_cast<const std::byte*>((p.swapped ? a : b).data());
  auto* result = static_cast<std::byte*>(out.data());
  count_calls(p);
  in_order(current_stream(),
           [p, first, second, result, t = out.dtype()] { call_blas(p, first, second, result, t); });
}

}  // namespace jet::detail

namespace jet::linalg {

void allow_tf32(bool allowed) { detail::tf32_flag() = allowed; }
bool tf32_allowed() { return detail::tf32_flag().load(); }

statistics stats() {
  const detail::linalg_counters& c = detail::linalg_counts();
  statistics s;
  s.gemm = c.gemm.load();
  s.gemm_batched = c.gemm_batched.load();
  s.gemv = c.gemv.load();
  s.integer_kernels = c.integer_kernels.load();
  s.copies = c.copies.load();
  return s;
}

}  // namespace jet::linalg
