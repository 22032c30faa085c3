// Elementwise operators and ufuncs on arrays, expressions and scalars. Each builds a node.
#pragma once

#include "jet/expr.hpp"
#include "jet/indexing.hpp"

namespace jet {

// Operands: anything an expr converts from (arrays, exprs, C++ scalars), with at least one
// Jet type so that plain C++ arithmetic stays plain.
template <class T>
concept jet_operand = std::is_same_v<std::remove_cvref_t<T>, array> ||
    std::is_base_of_v<expr, std::remove_cvref_t<T>>;
template <class A, class B>
concept operand_pair =
    (jet_operand<A> ||
     jet_operand<B>)&&std::is_convertible_v<A, expr>&& std::is_convertible_v<B, expr>;

namespace detail {
// Operands come by value so that temporaries hand their nodes over without reference-count
// traffic: building an expression is part of the host cost of every call.
inline expr apply(op_code op, expr a) { return expr(make_op(op, std::move(a).take())); }
inline expr apply(op_code op, expr a, expr b) {
  return expr(make_op(op, std::move(a).take(), std::move(b).take()));
}
inline expr apply(op_code op, expr a, expr b, expr c) {
  return expr(make_op(op, std::move(a).take(), std::move(b).take(), std::move(c).take()));
}
}  // namespace detail

// Every ufunc, with NumPy's name, arity and meaning. Each takes arrays, expressions and C++
// scalars (weak, as Python scalars), broadcasts, and returns a lazy jet::expr. They are
// generated from detail/op_list.hpp, which also gives the dtypes each has loops for.
//
// Arithmetic
//   add(a, b)              2  a + b (also `+`)
//   subtract(a, b)         2  a - b (`-`; not on bool, as NumPy)
//   multiply(a, b)         2  a * b (`*`)
//   true_divide(a, b)      2  true division a / b (`/`), float for integers; alias divide
//   floor_divide(a, b)     2  a // b, rounding toward minus infinity
//   remainder(a, b)        2  a % b with the divisor's sign, as Python (`%`); alias mod
//   fmod(a, b)             2  C's remainder, with the dividend's sign
//   power(a, b)            2  a ** b
//   negative(a)            1  -a (`-`)
//   positive(a)            1  +a (`+`)
//   absolute(a)            1  |a|, real for complex input; alias abs
//   sign(a)                1  -1, 0 or 1 (z / |z| for complex)
//   square(a)              1  a * a
//   reciprocal(a)          1  1 / a (integer division for integers, as NumPy)
//   sqrt(a)  cbrt(a)       1  square and cube roots
// Exponents and logarithms
//   exp(a)  exp2(a)        1  e ** a, 2 ** a
//   expm1(a)               1  exp(a) - 1, accurate near 0
//   log(a)  log2(a)        1  natural and base-2 logarithms
//   log10(a)               1  base-10 logarithm
//   log1p(a)               1  log(1 + a), accurate near 0
// Trigonometric and hyperbolic (radians)
//   sin cos tan            1  sine, cosine, tangent
//   arcsin arccos arctan   1  their inverses
//   arctan2(y, x)          2  the angle of (x, y), quadrant-aware
//   hypot(a, b)            2  sqrt(a * a + b * b) without overflow
//   sinh cosh tanh         1  hyperbolic functions
//   arcsinh arccosh arctanh  1  their inverses
//   degrees(a)  radians(a) 1  radians to degrees and back
// Rounding
//   floor ceil trunc       1  toward -inf, +inf, 0
//   rint(a)                1  to the nearest integer, halves to even (round below: decimals)
// Floating-point tests and bits
//   isnan isinf isfinite   1  bool tests
//   copysign(a, b)         2  |a| with b's sign
// Complex numbers
//   real(a)  imag(a)       1  the parts (imag of a real array is 0)
//   conj(a)                1  complex conjugate; NumPy's conjugate, alias conjugate
//   angle(a)               1  the argument of a complex number, in radians
// Comparisons and extremes (bool results, or the operands' dtype)
//   equal not_equal        2  `==`, `!=`
//   less less_equal        2  `<`, `<=`
//   greater greater_equal  2  `>`, `>=`
//   maximum minimum        2  elementwise extremes; NaN propagates
//   fmax fmin              2  elementwise extremes; NaN is ignored
// Logic (bool results; any nonzero is true)
//   logical_and logical_or 2  `&&`, `||`
//   logical_xor            2  exclusive or
//   logical_not            1  `!`
// Bitwise (bool and integers)
//   bitwise_and bitwise_or bitwise_xor  2  `&`, `|`, `^`
//   invert(a)              1  `~`
//   left_shift right_shift 2  `<<`, `>>`
// Selection
//   where(c, x, y)         3  x where c is true, else y
//
// Built from them below: abs, divide, mod, conjugate, clip, round and astype.

#define JET_UNARY_OPERATOR(symbol, id) \
  inline expr operator symbol(expr a) { return detail::apply(detail::op_code::id, std::move(a)); }
#define JET_BINARY_OPERATOR(symbol, id)                                                            \
  template <class A, class B>                                                                      \
  requires operand_pair<A, B> expr operator symbol(A&& a, B&& b) {                                 \
    return detail::apply(detail::op_code::id, expr(std::forward<A>(a)), expr(std::forward<B>(b))); \
  }
#define JET_UFUNC(id, numpy_name, arity, loops, result) JET_UFUNC_##arity(id)
#define JET_UFUNC_1(id) \
  inline expr id(expr a) { return detail::apply(detail::op_code::id, std::move(a)); }
#define JET_UFUNC_2(id)                                                    \
  inline expr id(expr a, expr b) {                                         \
    return detail::apply(detail::op_code::id, std::move(a), std::move(b)); \
  }
#define JET_UFUNC_3(id)                                                                  \
  inline expr id(expr a, expr b, expr c) {                                               \
    return detail::apply(detail::op_code::id, std::move(a), std::move(b), std::move(c)); \
  }

JET_ELEMENTWISE_OPS(JET_UFUNC)

JET_UNARY_OPERATOR(-, negative)
JET_UNARY_OPERATOR(+, positive)
JET_UNARY_OPERATOR(~, invert)
JET_UNARY_OPERATOR(!, logical_not)
JET_BINARY_OPERATOR(+, add)
JET_BINARY_OPERATOR(-, subtract)
JET_BINARY_OPERATOR(*, multiply)
JET_BINARY_OPERATOR(/, true_divide)
JET_BINARY_OPERATOR(%, remainder)
JET_BINARY_OPERATOR(&, bitwise_and)
JET_BINARY_OPERATOR(|, bitwise_or)
JET_BINARY_OPERATOR(^, bitwise_xor)
JET_BINARY_OPERATOR(<<, left_shift)
JET_BINARY_OPERATOR(>>, right_shift)
JET_BINARY_OPERATOR(==, equal)
JET_BINARY_OPERATOR(!=, not_equal)
JET_BINARY_OPERATOR(<, less)
JET_BINARY_OPERATOR(<=, less_equal)
JET_BINARY_OPERATOR(>, greater)
JET_BINARY_OPERATOR(>=, greater_equal)
JET_BINARY_OPERATOR(&&, logical_and)
JET_BINARY_OPERATOR(||, logical_or)

#undef JET_UNARY_OPERATOR
#undef JET_BINARY_OPERATOR
#undef JET_UFUNC
#undef JET_UFUNC_1
#undef JET_UFUNC_2
#undef JET_UFUNC_3

// NumPy's aliases and the functions built from ufuncs.
inline expr abs(expr a) { return absolute(std::move(a)); }
inline expr divide(expr a, expr b) { return true_divide(std::move(a), std::move(b)); }
inline expr mod(expr a, expr b) { return remainder(std::move(a), std::move(b)); }
inline expr conjugate(expr a) { return conj(std::move(a)); }
// Clips into [lo, hi]; NaN propagates as in numpy.clip.
inline expr clip(expr a, expr lo, expr hi) {
  return minimum(maximum(std::move(a), std::move(lo)), std::move(hi));
}
// Rounds half to even at `decimals` places (numpy.round).
expr round(const expr& a, int decimals = 0);
// Converts to `to`, as NumPy's astype (no casting check: float to integer truncates).
expr astype(const expr& a, dtype to);

}  // namespace jet
