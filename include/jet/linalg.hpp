// Dense linear algebra with NumPy's rules: matrix products through cuBLAS (integer and bool
// products through one fused Jet kernel), contractions built on them, and diagonal views.
// Products return arrays, which convert into expressions: in `jet::maximum(jet::matmul(a, b) +
// bias, 0)` the product is materialized and the rest fuses into one kernel.
#pragma once

#include <cstdint>

#include "jet/array.hpp"
#include "jet/expr.hpp"

namespace jet {

// numpy.matmul: stacks of matrices with broadcast leading axes; a 1-D operand gains an axis
// that the result drops again. The dtype is promote_types of the operands'. Transposed, F-ordered
// and padded views, and `jet::conj` of a transposed view, go to cuBLAS without a copy; other
// layouts are copied once. float16 and bfloat16 accumulate in float32.
array matmul(const expr& a, const expr& b);
// The same written into `out`, which must have the result's shape and dtype; returns `out`.
array matmul(const expr& a, const expr& b, const array& out);

// numpy.dot: a scalar operand multiplies; otherwise the sum over a's last axis and b's
// second-to-last (its only axis when 1-D).
array dot(const expr& a, const expr& b);
// numpy.vdot: both flattened, the first conjugated, summed to a 0-d array.
array vdot(const expr& a, const expr& b);
// numpy.inner: the sum over the last axes of both; a scalar operand multiplies.
array inner(const expr& a, const expr& b);
// numpy.outer: out[i, j] = a.ravel()[i] * b.ravel()[j], lazy like any elementwise product.
expr outer(const expr& a, const expr& b);
// numpy.tensordot: the sum over a's last `axes` axes and b's first `axes`.
array tensordot(const expr& a, const expr& b, std::int64_t axes = 2);
// numpy.tensordot with axis lists: a's axes a_axes[i] summed against b's b_axes[i].
array tensordot(const expr& a, const expr& b, const shape& a_axes, const shape& b_axes);

// numpy.diagonal as a view (no copy): axis1 and axis2 removed, the diagonal appended last.
array diagonal(const array& a, std::int64_t offset = 0, std::int64_t axis1 = 0,
               std::int64_t axis2 = 1);
// numpy.trace: the sum of that diagonal, with sum's dtype rules (a lazy reduction).
expr trace(const array& a, std::int64_t offset = 0, std::int64_t axis1 = 0, std::int64_t axis2 = 1);

namespace linalg {

// numpy.linalg.matrix_power for n >= 0 over the last two (square) axes. Negative powers need a
// matrix inverse, which Jet does not have: they raise jet::value_error.
array matrix_power(const expr& a, std::int64_t n);

// float32 and complex64 products may use TF32 tensor cores (10-bit mantissas in the products,
// float32 sums). Off by default, as float32 accuracy is; JET_TF32=1 in the environment turns it
// on at start.
void allow_tf32(bool allowed);
bool tf32_allowed();

// What the products did since the process started, for tests and tuning.
struct statistics {
  std::int64_t gemm = 0;             // cublasGemmEx calls
  std::int64_t gemm_batched = 0;     // cublasGemmStridedBatchedEx calls
  std::int64_t gemv = 0;             // gemv and strided-batched gemv calls
  std::int64_t integer_kernels = 0;  // integer and bool products run as one Jet kernel
  // Operands copied because cuBLAS cannot read their layout, conjugation or dtype, and results
  // computed aside because cuBLAS cannot write into the given output.
  std::int64_t copies = 0;
};
statistics stats();

}  // namespace linalg
}  // namespace jet
