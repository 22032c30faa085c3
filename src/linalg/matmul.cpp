// jet::matmul: NumPy's rules, cuBLAS for the inexact dtypes (planned by
// codegen/linalg/blas_plan.cpp, called by src/linalg/blas.cpp), and one fused Jet reduction for
// integers and bool, whose results NumPy gives in the operands' own dtype.
#include <string>
#include <utility>

#include "codegen/expr/node.hpp"
#include "codegen/linalg/blas_plan.hpp"
#include "codegen/linalg/matmul_shape.hpp"
#include "jet/error.hpp"
#include "jet/linalg.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"
#include "src/linalg/linalg_detail.hpp"

namespace jet {
namespace {

using detail::node;
using detail::op_code;

// An operand as cuBLAS reads it: an array, perhaps read conjugated.
struct operand {
  array values;
  bool conjugate = false;
  codegen::matrix_layout layout() const { return {values.shape(), values.strides(), conjugate}; }
  expr as_expr() const { return conjugate ? conj(values) : expr(values); }
};

// Arrays stay as they are, and so do conjugated arrays (cuBLAS conjugates as it reads a
// transposed operand); any other expression is evaluated first.
operand resolve(const expr& e) {
  const node& n = *e.node();
  if (n.op == op_code::input) return {n.value(), false};
  if (n.op == op_code::conj && n.args[0]->op == op_code::input) {
    const array& values = n.args[0]->value();
    return {values, is_complex(values.dtype())};
  }
  return {array(e), false};
}

// `x` copied to a C-ordered array of dtype t, conjugation applied.
operand copied(const operand& x, dtype t) {
  ++detail::linalg_counts().copies;
  return {array(x.as_expr().astype(t)), false};
}

void fill_zeros(const array& out) {
  if (out.is_c_contiguous()) {
    const cudaStream_t stream = detail::current_stream();
    detail::in_order(
        stream, [data = out.data(), bytes = static_cast<std::size_t>(out.nbytes()), stream] {
          detail::check_cuda(cudaMemsetAsync(data, 0, bytes, stream), "cudaMemsetAsync");
        });
    return;
  }
  array target = out;
  std::move(target) = 0;
}

// Computes into a C-ordered array, then copies into `out`: for outputs cuBLAS cannot write and
// outputs that share memory with an operand.
template <class Compute>
void staged(const array& out, Compute&& compute) {
  ++detail::linalg_counts().copies;
  const array result = empty(out.shape(), out.dtype());
  compute(result);
  array target = out;
  std::move(target) = result;
}

void blas_product(operand a, operand b, const array& out) {
  const codegen::matrix_layout out_layout{out.shape(), out.strides(), false};
  codegen::blas_plan plan = codegen::plan_matmul(a.layout(), b.layout(), out_layout);
  if (plan.stage_out) return staged(out, [&](const array& result) { blas_product(a, b, result); });
  if (plan.copy_a || plan.copy_b) {
    if (plan.copy_a) a = copied(a, out.dtype());
    if (plan.copy_b) b = copied(b, out.dtype());
    plan = codegen::plan_matmul(a.layout(), b.layout(), out_layout);
    if (plan.copy_a || plan.copy_b || plan.stage_out)
      throw internal_error("matmul: operands copied to C order still need a copy");
  }
  switch (plan.what) {
    case codegen::blas_plan::kind::nothing: return;
    case codegen::blas_plan::kind::zeros: return fill_zeros(out);
    default: detail::run_blas(plan, a.values, b.values, out);
  }
}

// sum(a[..., :, :, newaxis] * b[..., newaxis, :, :], axis=-2) in out's dtype (any(a & b) for
// bool): one reduction kernel reading both operands, no intermediate product array.
void integer_product(const operand& a, const operand& b, const array& out) {
  const bool a_vector = a.values.ndim() == 1, b_vector = b.values.ndim() == 1;
  const array rows = a_vector ? a.values.expand_dims(0) : a.values;
  const array cols = b_vector ? b.values.expand_dims(-1) : b.values;
  const expr left = rows.expand_dims(-1), right = cols.expand_dims(-3);
  array target = out;
  if (b_vector) target = target.expand_dims(-1);
  if (a_vector) target = target.expand_dims(-2);
  if (out.dtype() == bool_)
    std::move(target) = any(left & right, -2);
  else
    std::move(target) = sum(left * right, -2, out.dtype());
  ++detail::linalg_counts().integer_kernels;
}

void product(operand a, operand b, const array& out) {
  const dtype t = out.dtype();
  if (!is_inexact(t)) return integer_product(a, b, out);
  if (a.values.dtype() != t) a = copied(a, t);
  if (b.values.dtype() != t) b = copied(b, t);
  blas_product(std::move(a), std::move(b), out);
}

}  // namespace

bool detail::is_placeholder(const expr& e) {
  const node* n = e.node().get();
  if (n->op == op_code::conj) n = n->args[0].get();
  return n->op == op_code::input && n->value().buffer() == nullptr;
}

array matmul(const expr& a, const expr& b) {
  const shape result = codegen::matmul_shape(a.shape(), b.shape());
  const dtype t = promote_types(a.dtype(), b.dtype());
  if (detail::is_placeholder(a) || detail::is_placeholder(b)) return placeholder(result, t);
  const array out = empty(result, t);
  product(resolve(a), resolve(b), out);
  return out;
}

array matmul(const expr& a, const expr& b, const array& out) {
  const shape result = codegen::matmul_shape(a.shape(), b.shape());
  const dtype t = promote_types(a.dtype(), b.dtype());
  if (!(out.shape() == result))
    throw value_error("matmul: out has shape " + to_string(out.shape()) + ", but the product of " +
                      to_string(a.shape()) + " and " + to_string(b.shape()) + " has shape " +
                      to_string(result));
  if (out.dtype() != t)
    throw dtype_error("matmul: out has dtype " + std::string(name(out.dtype())) +
                      ", but the product of " + std::string(name(a.dtype())) + " and " +
                      std::string(name(b.dtype())) + " is " + std::string(name(t)));
  for (int d = 0; d < out.ndim(); ++d)
    if (out.strides()[d] == 0 && out.shape()[d] > 1)
      throw value_error("assignment destination is read-only (a broadcast view)");
  if (detail::is_placeholder(a) || detail::is_placeholder(b)) return out;
  operand x = resolve(a), y = resolve(b);
  // NumPy reads every operand before writing: an output sharing memory with one is computed aside.
  if (out.size() > 0 && (x.values.shares_buffer_with(out) || y.values.shares_buffer_with(out)))
    staged(out, [&](const array& result_array) { product(x, y, result_array); });
  else
    product(std::move(x), std::move(y), out);
  return out;
}

}  // namespace jet
