// Planning cuBLAS calls for matmul. Row-major C = A B is column-major C^T = B^T A^T, so a
// C-ordered result swaps the operands; an F-ordered one keeps them. A row-major operand is its
// transpose to cuBLAS and a column-major one is itself, which picks each operation flag; a
// conjugated operand needs the flag to be a transpose (CUBLAS_OP_C). Batch axes that merge in
// every operand become one strided batch; the others are looped over, one call per index.
#include "codegen/linalg/blas_plan.hpp"

#include <algorithm>
#include <optional>

#include "codegen/linalg/matmul_shape.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

// One operand as a stack of rows x cols matrices over the result's batch axes.
struct matrices {
  std::int64_t rows = 1, cols = 1;
  std::int64_t row_stride = 0, col_stride = 0;
  shape batch_strides;  // one per result batch axis; 0 where the operand is broadcast
  bool conjugate = false;
};

// `core` is the operand's matrix part: rows and cols axes given, or -1 where 1-D promotion
// added the axis (its extent is 1).
matrices stack_of(const matrix_layout& x, int row_axis, int col_axis, const shape& batch) {
  matrices m;
  if (row_axis >= 0) {
    m.rows = x.extents[row_axis];
    m.row_stride = x.strides[row_axis];
  }
  if (col_axis >= 0) {
    m.cols = x.extents[col_axis];
    m.col_stride = x.strides[col_axis];
  }
  const int core = (row_axis >= 0) + (col_axis >= 0);
  const int own = x.extents.size() - core, lead = batch.size() - own;
  for (int d = 0; d < batch.size(); ++d) {
    const int e = d - lead;
    m.batch_strides.push_back(e < 0 || x.extents[e] == 1 ? 0 : x.strides[e]);
  }
  m.conjugate = x.conjugate;
  return m;
}

// The transposed stack: rows and cols exchanged.
matrices transposed(matrices m) {
  std::swap(m.rows, m.cols);
  std::swap(m.row_stride, m.col_stride);
  return m;
}

// How cuBLAS can read a matrix in place: as column-major storage of X^T (rows of X contiguous,
// row_major) or of X, with its leading dimension.
struct storage {
  bool row_major;
  std::int64_t ld;
};

std::optional<storage> as_row_major(const matrices& x) {
  if (x.cols > 1 && x.col_stride != 1) return std::nullopt;
  const std::int64_t least = std::max<std::int64_t>(1, x.cols);
  if (x.rows == 1) return storage{true, least};
  if (x.row_stride < least) return std::nullopt;
  return storage{true, x.row_stride};
}

// Column-major X is row-major X^T.
std::optional<storage> as_col_major(const matrices& x) {
  std::optional<storage> s = as_row_major(transposed(x));
  if (s) s->row_major = false;
  return s;
}

// Reading X for a gemm that needs X (or X^T when `want_transposed`) in column-major terms.
std::optional<blas_operand> gemm_read(const matrices& x, bool want_transposed) {
  for (const std::optional<storage>& s : {as_row_major(x), as_col_major(x)}) {
    if (!s) continue;
    const bool transpose = s->row_major != want_transposed;
    if (x.conjugate && !transpose) continue;  // cuBLAS has no conjugate-only operation
    const blas_op op = !transpose    ? blas_op::none
                       : x.conjugate ? blas_op::conjugate_transpose
                                     : blas_op::transpose;
    return blas_operand{op, s->ld, 0};
  }
  return std::nullopt;
}

struct gemv_read {
  blas_operand matrix;
  std::int64_t m = 0, n = 0;  // cuBLAS's m and n: the stored matrix's rows and columns
};

// Reading X (rows x cols) for y = X v: row-major storage is X^T to cuBLAS, read transposed.
std::optional<gemv_read> gemv_matrix(const matrices& x) {
  if (const auto s = as_row_major(x)) {
    const blas_op op = x.conjugate ? blas_op::conjugate_transpose : blas_op::transpose;
    return gemv_read{{op, s->ld, 0}, x.cols, x.rows};
  }
  if (const auto s = as_col_major(x); s && !x.conjugate)
    return gemv_read{{blas_op::none, s->ld, 0}, x.rows, x.cols};
  return std::nullopt;
}

// A vector's increment, or nothing when cuBLAS cannot take it (zero or negative, or conjugated).
std::optional<std::int64_t> increment(std::int64_t length, std::int64_t stride, bool conjugate) {
  if (conjugate) return std::nullopt;
  if (length == 1) return 1;
  if (stride <= 0) return std::nullopt;
  return stride;
}

bool negative_batch_stride(const matrices& m, const shape& batch, bool writes) {
  for (int d = 0; d < batch.size(); ++d)
    if (batch[d] > 1 && (m.batch_strides[d] < 0 || (writes && m.batch_strides[d] == 0)))
      return true;
  return false;
}

// Merges batch axes that are contiguous with the next in all three operands, makes the longest
// run the strided batch and loops over the rest.
void plan_batch(blas_plan& p, const shape& batch, const matrices& first, const matrices& second,
                const matrices& out) {
  std::vector<batch_loop> runs;
  for (int d = batch.size() - 1; d >= 0; --d) {
    if (batch[d] == 1) continue;
    const batch_loop axis{batch[d], first.batch_strides[d], second.batch_strides[d],
                          out.batch_strides[d]};
    if (!runs.empty()) {
      batch_loop& inner = runs.back();
      if (axis.stride_first == inner.stride_first * inner.extent &&
          axis.stride_second == inner.stride_second * inner.extent &&
          axis.stride_out == inner.stride_out * inner.extent) {
        inner.extent *= axis.extent;
        continue;
      }
    }
    runs.push_back(axis);
  }
  std::reverse(runs.begin(), runs.end());  // outermost first
  if (runs.empty()) return;
  // The longest run is the strided batch; on a tie the innermost.
  std::size_t longest = runs.size() - 1;
  for (std::size_t i = 0; i < runs.size(); ++i)
    if (runs[i].extent > runs[longest].extent) longest = i;
  p.batch = runs[longest].extent;
  p.first.batch_stride = runs[longest].stride_first;
  p.second.batch_stride = runs[longest].stride_second;
  p.out.batch_stride = runs[longest].stride_out;
  runs.erase(runs.begin() + static_cast<std::ptrdiff_t>(longest));
  p.loops = std::move(runs);
}

void plan_gemm(blas_plan& p, const matrices& a, const matrices& b, const matrices& out,
               std::int64_t k) {
  struct choice {
    bool swapped;
    std::optional<blas_operand> first, second;
    std::optional<storage> out;
    int copies() const { return !first + !second; }
  };
  // A C-ordered result first: out^T = b^T a^T. Then an F-ordered one: out = a b.
  std::optional<storage> row = as_row_major(out), col = as_col_major(out);
  if (p.stage_out) {
    row = storage{true, std::max<std::int64_t>(1, out.cols)};  // the C-ordered array staged
    col.reset();
  }
  std::optional<choice> best;
  if (row) best = choice{true, gemm_read(b, true), gemm_read(a, true), row};
  if (col) {
    choice c{false, gemm_read(a, false), gemm_read(b, false), col};
    if (!best || c.copies() < best->copies()) best = c;
  }
  if (!best) {
    p.stage_out = true;
    return plan_gemm(p, a, b, out, k);
  }
  p.copy_a = !(best->swapped ? best->second : best->first);
  p.copy_b = !(best->swapped ? best->first : best->second);
  if (p.copy_a || p.copy_b || p.stage_out) return;
  p.what = blas_plan::kind::gemm;
  p.swapped = best->swapped;
  p.m = best->swapped ? out.cols : out.rows;
  p.n = best->swapped ? out.rows : out.cols;
  p.k = k;
  p.first = *best->first;
  p.second = *best->second;
  p.out = blas_operand{blas_op::none, best->out->ld, 0};
}

// y = X v with X = a (b a column) or X = b^T (a a row): the operand whose core is a matrix.
void plan_gemv(blas_plan& p, const matrices& a, const matrices& b, const matrices& out,
               std::int64_t k) {
  const bool by_column = b.cols == 1;
  const matrices x = by_column ? a : transposed(b);
  const matrices& v = by_column ? b : a;
  const std::int64_t v_stride = by_column ? b.row_stride : a.col_stride;
  const std::int64_t y_length = by_column ? out.rows : out.cols;
  const std::int64_t y_stride = by_column ? out.row_stride : out.col_stride;
  const std::optional<gemv_read> matrix = gemv_matrix(x);
  const std::optional<std::int64_t> inc_v = increment(k, v_stride, v.conjugate);
  std::optional<std::int64_t> inc_y = increment(y_length, y_stride, false);
  if (p.stage_out) inc_y = 1;
  if (!inc_y) p.stage_out = true;
  (by_column ? p.copy_a : p.copy_b) = !matrix;
  (by_column ? p.copy_b : p.copy_a) = !inc_v;
  if (p.copy_a || p.copy_b || p.stage_out) return;
  p.what = blas_plan::kind::gemv;
  p.swapped = !by_column;
  p.m = matrix->m;
  p.n = matrix->n;
  p.k = k;
  p.first = matrix->matrix;
  p.second = blas_operand{blas_op::none, *inc_v, 0};
  p.out = blas_operand{blas_op::none, *inc_y, 0};
}

}  // namespace

std::int64_t blas_plan::calls() const {
  std::int64_t n = 1;
  for (const batch_loop& l : loops) n *= l.extent;
  return n;
}

blas_plan plan_matmul(const matrix_layout& a, const matrix_layout& b, const matrix_layout& out) {
  const shape result = matmul_shape(a.extents, b.extents);
  if (!(result == out.extents))
    throw internal_error("matmul planned into shape " + to_string(out.extents) + ", not " +
                         to_string(result));
  const bool a_vector = a.extents.size() == 1, b_vector = b.extents.size() == 1;
  const int na = a.extents.size(), nb = b.extents.size(), no = out.extents.size();
  const int out_core = !a_vector + !b_vector;
  shape batch;
  for (int d = 0; d + out_core < no; ++d) batch.push_back(out.extents[d]);

  const matrices ma = stack_of(a, a_vector ? -1 : na - 2, na - 1, batch);
  const matrices mb = stack_of(b, nb - 2 + b_vector, b_vector ? -1 : nb - 1, batch);
  const matrices mo = stack_of(out, a_vector ? -1 : no - out_core, b_vector ? -1 : no - 1, batch);
  const std::int64_t k = ma.cols;

  blas_plan p;
  if (mo.rows == 0 || mo.cols == 0 || batch.product() == 0) return p;
  if (k == 0) {
    p.what = blas_plan::kind::zeros;
    return p;
  }
  p.copy_a = negative_batch_stride(ma, batch, false);
  p.copy_b = negative_batch_stride(mb, batch, false);
  p.stage_out = negative_batch_stride(mo, batch, true);
  const bool copy_a = p.copy_a, copy_b = p.copy_b;
  if (mo.rows == 1 || mo.cols == 1)
    plan_gemv(p, ma, mb, mo, k);
  else
    plan_gemm(p, ma, mb, mo, k);
  p.copy_a = p.copy_a || copy_a;
  p.copy_b = p.copy_b || copy_b;
  if (p.copy_a || p.copy_b || p.stage_out) {
    p.what = blas_plan::kind::nothing;
    return p;
  }
  const bool swapped = p.swapped;
  plan_batch(p, batch, swapped ? mb : ma, swapped ? ma : mb, mo);
  return p;
}

}  // namespace jet::codegen
