// Matrix product benchmarks: jet::matmul beside a direct cuBLAS call on the same data
// in the same run, for 8192^3 float32, float16 and bfloat16 (and float32 with TF32 on both
// sides), a stack of 512 64x64 float32 products, and A @ B.T, which must not copy.
//
// Every timed Jet statement is `jet::array c = jet::matmul(a, b);`: the result's allocation is
// part of what a user pays, as it is for `a @ b` in CuPy (bench/compare.py). The direct calls
// write into a buffer made once.
#include <cublas_v2.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/timing.hpp"
#include "jet/jet.hpp"

namespace {

void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::fprintf(stderr, "%s: %s\n", what, cublasGetStatusString(status));
    std::exit(1);
  }
}

// A cuBLAS handle of the benchmark's own, on Jet's current stream, with cuBLAS's defaults.
struct direct_cublas {
  cublasHandle_t handle = nullptr;
  direct_cublas() {
    check(cublasCreate(&handle), "cublasCreate");
    check(cublasSetStream(handle, jet::current_stream()), "cublasSetStream");
  }
  ~direct_cublas() { cublasDestroy(handle); }
};

cudaDataType cuda_type(jet::dtype t) {
  switch (t) {
    case jet::dtype::float16: return CUDA_R_16F;
    case jet::dtype::bfloat16: return CUDA_R_16BF;
    default: return CUDA_R_32F;
  }
}

// Deterministic operands, small enough that 8192-term sums stay well inside float16's range.
jet::array operand(const jet::shape& s, float seed, jet::dtype t) {
  return jet::array(bench::random_floats(s, seed) * 0.02f).astype(t);
}

// max |x - y| / max |y|: the two results must agree up to rounding, not bit for bit (cuBLAS may
// pick different kernels for different workspaces).
double relative_difference(const jet::array& x, const jet::array& y) {
  const double diff =
      jet::array(jet::max(jet::abs(x.astype(jet::float64) - y.astype(jet::float64))))
          .item<double>();
  const double scale = jet::array(jet::max(jet::abs(y.astype(jet::float64)))).item<double>();
  return diff / scale;
}

bool failed = false;

void agree(const char* what, const jet::array& got, const jet::array& direct, double tolerance) {
  const double d = relative_difference(got, direct);
  std::printf("check %s: max |jet - cuBLAS| / max |cuBLAS| = %.3g (<= %.3g)\n", what, d, tolerance);
  if (!(d <= tolerance)) {
    std::printf("FAILED: %s differs from the direct cuBLAS call\n", what);
    failed = true;
  }
}

double tflops(double m, double n, double k, double batch, double ms) {
  return 2 * m * n * k * batch / (ms * 1e-3) / 1e12;
}

// 8192^3, C = A B, against cublasGemmEx of C^T = B^T A^T on the same C-ordered buffers.
void square(const direct_cublas& cublas, jet::dtype t, bool tf32, double tolerance) {
  const int n = 8192;
  const jet::array a = operand({n, n}, 0.1f, t), b = operand({n, n}, 0.7f, t);
  jet::linalg::allow_tf32(tf32);
  const std::string name = "matmul 8192^3 " + std::string(jet::name(t)) + (tf32 ? " TF32" : "");
  const double jet_ms = bench::median_ms([&] { jet::array c = jet::matmul(a, b); }, 20);
  const jet::array c = jet::matmul(a, b);
  jet::linalg::allow_tf32(false);

  const jet::array direct = jet::empty({n, n}, t);
  const float one = 1, zero = 0;
  const cublasComputeType_t compute = tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
  const double direct_ms = bench::median_ms(
      [&] {
        check(cublasGemmEx(cublas.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one, b.data(),
                           cuda_type(t), n, a.data(), cuda_type(t), n, &zero, direct.data(),
                           cuda_type(t), n, compute, CUBLAS_GEMM_DEFAULT),
              "cublasGemmEx");
      },
      20);
  agree(name.c_str(), c, direct, tolerance);
  const double ratio = 100 * direct_ms / jet_ms;
  std::printf("%s: jet %.3f ms (%.1f TFLOP/s), direct cuBLAS %.3f ms (%.1f TFLOP/s): %.1f%%\n",
              name.c_str(), jet_ms, tflops(n, n, n, 1, jet_ms), direct_ms,
              tflops(n, n, n, 1, direct_ms), ratio);
  bench::result((name + " (TFLOP/s)").c_str(), tflops(n, n, n, 1, jet_ms), "TF/s", "reference");
  bench::result((name + " direct cuBLAS (TFLOP/s)").c_str(), tflops(n, n, n, 1, direct_ms), "TF/s",
                "reference");
  bench::result((name + " (% of direct cuBLAS)").c_str(), ratio, "%", ">= 98");
}

// 512 products of 64x64 float32 matrices: one strided-batched call.
void batched(const direct_cublas& cublas) {
  const int batch = 512, n = 64;
  const jet::array a = operand({batch, n, n}, 0.2f, jet::float32),
                   b = operand({batch, n, n}, 0.4f, jet::float32);
  const jet::linalg::statistics before = jet::linalg::stats();
  const double jet_ms = bench::median_ms([&] { jet::array c = jet::matmul(a, b); }, 200, 10);
  const jet::linalg::statistics after = jet::linalg::stats();
  const jet::array c = jet::matmul(a, b);
  const jet::array direct = jet::empty({batch, n, n}, jet::float32);
  const float one = 1, zero = 0;
  const double direct_ms = bench::median_ms(
      [&] {
        check(cublasGemmStridedBatchedEx(cublas.handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &one,
                                         b.data(), CUDA_R_32F, n, n * n, a.data(), CUDA_R_32F, n,
                                         n * n, &zero, direct.data(), CUDA_R_32F, n, n * n, batch,
                                         CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
              "cublasGemmStridedBatchedEx");
      },
      200, 10);
  agree("batched 512x64x64 float32", c, direct, 1e-5);
  const std::int64_t calls = after.gemm_batched - before.gemm_batched, runs = 210;
  std::printf(
      "batched 512x64x64 float32: jet %.4f ms, direct cuBLAS %.4f ms; %lld strided-batched calls "
      "in %lld runs\n",
      jet_ms, direct_ms, static_cast<long long>(calls), static_cast<long long>(runs));
  if (calls != runs) {
    std::printf("FAILED: each batched product must be one strided-batched call\n");
    failed = true;
  }
  bench::result("matmul batched 512x64x64 float32 (ms)", jet_ms, "ms", "<= 0.050");
  bench::result("matmul batched 512x64x64 float32 direct cuBLAS (ms)", direct_ms, "ms",
                "reference");
}

// A @ B.T of 8192^2 float32: B is read transposed in place (CUBLAS_OP_T), no copy, no allocation
// beyond the result.
void transposed(const direct_cublas& cublas) {
  const int n = 8192;
  const jet::array a = operand({n, n}, 0.3f, jet::float32), b = operand({n, n}, 0.5f, jet::float32);
  jet::array warm = jet::matmul(a, b.T());
  const jet::linalg::statistics before = jet::linalg::stats();
  const std::size_t in_use = jet::memory::stats().in_use;
  const jet::array c = jet::matmul(a, b.T());
  const std::size_t allocated = jet::memory::stats().in_use - in_use;
  const double jet_ms = bench::median_ms([&] { jet::array r = jet::matmul(a, b.T()); }, 20);
  const std::int64_t copies = jet::linalg::stats().copies - before.copies;
  const jet::array direct = jet::empty({n, n}, jet::float32);
  const float one = 1, zero = 0;
  const double direct_ms = bench::median_ms(
      [&] {
        check(cublasGemmEx(cublas.handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &one, b.data(),
                           CUDA_R_32F, n, a.data(), CUDA_R_32F, n, &zero, direct.data(), CUDA_R_32F,
                           n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
              "cublasGemmEx");
      },
      20);
  agree("A @ B.T float32", c, direct, 1e-4);
  std::printf(
      "A @ B.T 8192^2 float32: jet %.3f ms (%.1f TFLOP/s), direct cuBLAS %.3f ms; %lld copies, %zu "
      "bytes "
      "allocated for a %lld-byte result\n",
      jet_ms, tflops(n, n, n, 1, jet_ms), direct_ms, static_cast<long long>(copies), allocated,
      static_cast<long long>(c.nbytes()));
  if (copies != 0 || allocated != static_cast<std::size_t>(c.nbytes())) {
    std::printf("FAILED: A @ B.T copied an operand\n");
    failed = true;
  }
  bench::result("matmul A @ B.T 8192^2 float32 (ms)", jet_ms, "ms", "reference");
  bench::result("matmul A @ B.T 8192^2 float32 (% of direct cuBLAS)", 100 * direct_ms / jet_ms, "%",
                ">= 98");
  bench::result("matmul A @ B.T copies", static_cast<double>(copies), "", "== 0");
}

}  // namespace

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;
  const direct_cublas cublas;
  square(cublas, jet::float32, false, 1e-4);
  square(cublas, jet::float16, false, 1e-2);
  square(cublas, jet::bfloat16, false, 3e-2);
  square(cublas, jet::float32, true, 1e-2);
  batched(cublas);
  transposed(cublas);
  return failed ? 1 : 0;
}
