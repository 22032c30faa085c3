// Products built on matmul (dot, vdot, inner, tensordot, matrix_power), outer as a lazy
// elementwise product, and diagonal views with trace over them.
#include <algorithm>
#include <optional>
#include <string>

#include "codegen/expr/node.hpp"
#include "codegen/linalg/contraction.hpp"
#include "jet/error.hpp"
#include "jet/linalg.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "src/linalg/linalg_detail.hpp"

namespace jet {
namespace {

// An operand as an array: arrays as they are, other expressions evaluated.
array as_array(const expr& e) {
  if (e.node()->op == detail::op_code::input) return e.node()->value();
  return array(e);
}

// x reshaped; NumPy's rule copies when the strides do not allow a view, and so does Jet.
array reshaped(const array& x, const shape& s) {
  array r = x.reshape(s);
  if (x.size() > 0 && !r.shares_buffer_with(x)) ++detail::linalg_counts().copies;
  return r;
}

bool placeholders(const expr& a, const expr& b) {
  return detail::is_placeholder(a) || detail::is_placeholder(b);
}

array contract(const expr& a, const expr& b, const codegen::contraction& c) {
  if (placeholders(a, b)) return placeholder(c.result, promote_types(a.dtype(), b.dtype()));
  const array left = reshaped(as_array(a).transpose(c.a_order), {c.m, c.k});
  const array right = reshaped(as_array(b).transpose(c.b_order), {c.k, c.n});
  return matmul(left, right).reshape(c.result);
}

// dot and inner with a 0-d operand: NumPy multiplies.
array multiplied(const expr& a, const expr& b) {
  const expr p = a * b;
  if (placeholders(a, b)) return placeholder(p.shape(), p.dtype());
  return p;
}

}  // namespace

array dot(const expr& a, const expr& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiplied(a, b);
  return contract(a, b, codegen::dot_contraction(a.shape(), b.shape()));
}

array inner(const expr& a, const expr& b) {
  if (a.ndim() == 0 || b.ndim() == 0) return multiplied(a, b);
  return contract(a, b, codegen::inner_contraction(a.shape(), b.shape()));
}

array vdot(const expr& a, const expr& b) {
  if (a.size() != b.size())
    throw value_error("cannot reshape array of size " + std::to_string(b.size()) + " into shape (" +
                      std::to_string(a.size()) + ",)");
  if (placeholders(a, b)) return placeholder({}, promote_types(a.dtype(), b.dtype()));
  const array left = reshaped(as_array(a), {-1}), right = reshaped(as_array(b), {-1});
  return matmul(is_complex(left.dtype()) ? conj(left) : expr(left), right);
}

expr outer(const expr& a, const expr& b) {
  const array left = as_array(a).ravel(), right = as_array(b).ravel();
  return left(slice(), newaxis) * right(newaxis, slice());
}

array tensordot(const expr& a, const expr& b, std::int64_t axes) {
  return contract(a, b, codegen::tensordot_contraction(a.shape(), b.shape(), axes));
}

array tensordot(const expr& a, const expr& b, const shape& a_axes, const shape& b_axes) {
  return contract(a, b, codegen::tensordot_contraction(a.shape(), b.shape(), a_axes, b_axes));
}

array diagonal(const array& a, std::int64_t offset, std::int64_t axis1, std::int64_t axis2) {
  if (a.ndim() < 2) throw value_error("diag requires an array of at least two dimensions");
  const std::int64_t given[2] = {axis1, axis2};
  for (int i = 0; i < 2; ++i)
    if (given[i] < -a.ndim() || given[i] >= a.ndim())
      throw index_error("axis" + std::to_string(i + 1) + ": axis " + std::to_string(given[i]) +
                        " is out of bounds for array of dimension " + std::to_string(a.ndim()));
  const int d1 = normalize_axis(axis1, a.ndim()), d2 = normalize_axis(axis2, a.ndim());
  if (d1 == d2) throw value_error("axis1 and axis2 cannot be the same");
  shape extents, strides;
  for (int d = 0; d < a.ndim(); ++d) {
    if (d == d1 || d == d2) continue;
    extents.push_back(a.shape()[d]);
    strides.push_back(a.strides()[d]);
  }
  const std::int64_t row = offset < 0 ? -offset : 0, col = offset > 0 ? offset : 0;
  const std::int64_t length =
      std::max<std::int64_t>(0, std::min(a.shape()[d1] - row, a.shape()[d2] - col));
  extents.push_back(length);
  strides.push_back(a.strides()[d1] + a.strides()[d2]);
  const std::int64_t start = length > 0 ? row * a.strides()[d1] + col * a.strides()[d2] : 0;
  return array(a.buffer(), a.dtype(), extents, strides, a.offset() + start);
}

expr trace(const array& a, std::int64_t offset, std::int64_t axis1, std::int64_t axis2) {
  return sum(diagonal(a, offset, axis1, axis2), -1);
}

namespace linalg {

array matrix_power(const expr& a, std::int64_t n) {
  const int ndim = a.ndim();
  if (ndim < 2)
    throw value_error(std::to_string(ndim) +
                      "-dimensional array given. Array must be at least two-dimensional");
  if (a.shape()[ndim - 1] != a.shape()[ndim - 2])
    throw value_error("Last 2 dimensions of the array must be square");
  if (n < 0)
    throw value_error("matrix_power: the negative power " + std::to_string(n) +
                      " needs a matrix inverse, which Jet does not have");
  if (detail::is_placeholder(a)) return placeholder(a.shape(), a.dtype());
  const array x = as_array(a);
  if (n == 0) {
    array out = empty(x.shape(), x.dtype());
    std::move(out) = eye(x.shape()[x.ndim() - 1], std::nullopt, 0, x.dtype());
    return out;
  }
  if (n == 1) return x.copy();
  // Binary powering, as NumPy does: x^n from the squares x, x^2, x^4, ... that n's bits name.
  std::optional<array> result;
  array square = x;
  for (;;) {
    if (n & 1) result = result ? matmul(*result, square) : square;
    n >>= 1;
    if (n == 0) break;
    square = matmul(square, square);
  }
  return *result;
}

}  // namespace linalg
}  // namespace jet
