// Elementwise operators and ufuncs on arrays, expressions and scalars. Each builds a node.
#pragma once

#include "jet/expr.hpp"

namespace jet {

// Operands: anything an expr converts from (arrays, exprs, C++ scalars), with at least one
// Jet type so that plain C++ arithmetic stays plain.
template <class T>
concept jet_operand =
    std::is_same_v<std::remove_cvref_t<T>, array> || std::is_same_v<std::remove_cvref_t<T>, expr>;
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
expr astype(const expr& a, dtype to);

}  // namespace jet
