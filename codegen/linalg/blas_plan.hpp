// How one matmul maps onto cuBLAS calls: operation flags, leading dimensions and batch strides
// read off the operands' strides, or which operands cuBLAS cannot read as they are. Pure C++:
// the host tests run every plan through a column-major BLAS emulator.
#pragma once

#include <cstdint>
#include <vector>

#include "jet/shape.hpp"

namespace jet::codegen {

// An operand as an array view lays it out: (..., rows, cols), or (k,) for a 1-D operand.
struct matrix_layout {
  shape extents;
  shape strides;           // in elements
  bool conjugate = false;  // its elements are read conjugated (complex operands)
};

// cuBLAS's cublasOperation_t, spelled without CUDA: N, T and C.
enum class blas_op : std::uint8_t { none, transpose, conjugate_transpose };

// One operand of a BLAS call in cuBLAS's column-major terms. Gemm: the operation and leading
// dimension of a stored matrix. Gemv vectors: ld is the increment.
struct blas_operand {
  blas_op op = blas_op::none;
  std::int64_t ld = 1;
  std::int64_t batch_stride = 0;  // elements between the matrices of a strided batch
};

// A batch axis that does not merge into the strided batch: one call per index along it.
struct batch_loop {
  std::int64_t extent = 1;
  std::int64_t stride_first = 0, stride_second = 0, stride_out = 0;
};

struct blas_plan {
  // nothing: an empty result. zeros: k is 0, so the result is all zeros (no call).
  enum class kind : std::uint8_t { nothing, zeros, gemm, gemv };
  kind what = kind::nothing;
  // Operands cuBLAS cannot read as they are (a stride it cannot express, or a conjugate without
  // a transpose): copy them to C order, conjugation applied, and plan again. An output it cannot
  // write: compute into a C-ordered array, then copy. With any of these set, the plan holds
  // nothing else.
  bool copy_a = false, copy_b = false, stage_out = false;
  // gemm: column-major out (m x n) = op(first) (m x k) times op(second) (k x n).
  // gemv: out = op(first) second, first stored m x n (cuBLAS's m and n); second and out are
  // vectors. `swapped`: first reads b and second reads a; else first reads a, second b.
  bool swapped = false;
  std::int64_t m = 0, n = 0, k = 0;
  blas_operand first, second, out;
  std::int64_t batch = 1;         // matrices in each strided-batched call
  std::vector<batch_loop> loops;  // outermost first; empty for a single call
  std::int64_t calls() const;
};

// The plan for out = matmul(a, b), `out` laid out as given (shape matmul_shape(a, b)). Throws
// jet::value_error in NumPy's words when the shapes do not fit.
blas_plan plan_matmul(const matrix_layout& a, const matrix_layout& b, const matrix_layout& out);

// Calls f(first, second, out), element offsets from each operand's first element, once per
// cuBLAS call of the plan.
template <class F>
void for_each_call(const blas_plan& p, F&& f) {
  std::vector<std::int64_t> index(p.loops.size(), 0);
  for (std::int64_t call = 0; call < p.calls(); ++call) {
    std::int64_t first = 0, second = 0, out = 0;
    for (std::size_t i = 0; i < index.size(); ++i) {
      first += index[i] * p.loops[i].stride_first;
      second += index[i] * p.loops[i].stride_second;
      out += index[i] * p.loops[i].stride_out;
    }
    f(first, second, out);
    for (std::size_t i = index.size(); i-- > 0;) {
      if (++index[i] < p.loops[i].extent) break;
      index[i] = 0;
    }
  }
}

}  // namespace jet::codegen
