// jet::expr: a cheap handle to an immutable lazy expression node. Nothing runs until an
// array is needed.
#pragma once

#include <array>
#include <complex>
#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "jet/array.hpp"
#include "jet/detail/expr_node.hpp"

namespace jet {

template <class T>
concept arithmetic_scalar = std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
    std::is_same_v<T, std::complex<double>>;

// A lazy expression: a cheap handle to an immutable node, evaluated into an array (one fused
// kernel) when converted to jet::array, assigned, printed or copied to the host.
class expr {
 public:
  expr(const array& a) : node_(detail::make_input(a)) {}  // NOLINT: arrays are expressions
  // C++ scalars are weak, like Python scalars under NumPy 2 (NEP 50).
  template <arithmetic_scalar T>
  expr(T value) : node_(detail::make_scalar(detail::to_scalar_value(value))) {}  // NOLINT
  explicit expr(detail::node_ptr n) : node_(std::move(n)) {}

  jet::dtype dtype() const { return detail::type_of(*node()); }
  const jet::shape& shape() const { return detail::shape_of(*node()); }
  int ndim() const { return shape().size(); }
  std::int64_t size() const { return shape().product(); }
  // Evaluates into a new array (one fused kernel).
  array eval() const { return array(*this); }
  expr astype(jet::dtype to) const { return expr(detail::make_cast(node(), to)); }

  // jet::array's views and host copies: each evaluates the expression into a new array, then
  // gives that array's view or values (`(a + b).T()`, `(a * b)(0, jet::slice(1, 3))`).
  template <class... Items>
  auto operator()(const Items&... items) const {
    return eval()(items...);
  }
  array index(std::span<const index_item> items) const { return eval().index(items); }
  array T() const { return eval().T(); }
  array transpose() const { return eval().T(); }
  array transpose(const jet::shape& axes) const { return eval().transpose(axes); }
  template <std::integral I, std::integral... Rest>
  array transpose(I first, Rest... rest) const {
    return eval().transpose(first, rest...);
  }
  array swapaxes(std::int64_t a, std::int64_t b) const { return eval().swapaxes(a, b); }
  array reshape(const jet::shape& new_shape) const { return eval().reshape(new_shape); }
  template <std::integral I, std::integral... Rest>
  array reshape(I first, Rest... rest) const {
    return eval().reshape(first, rest...);
  }
  array squeeze() const { return eval().squeeze(); }
  array squeeze(std::int64_t axis) const { return eval().squeeze(axis); }
  array expand_dims(std::int64_t axis) const { return eval().expand_dims(axis); }
  array broadcast_to(const jet::shape& target) const { return eval().broadcast_to(target); }
  array diagonal_view(std::int64_t k = 0) const { return eval().diagonal_view(k); }
  // The evaluated array is new, so its flat view is already a copy.
  array ravel() const { return eval().ravel(); }
  array flatten() const { return eval().ravel(); }
  array copy() const { return eval(); }
  // Device -> host; these wait for the current stream.
  template <class T>
  std::vector<T> to_vector() const {
    return eval().to_vector<T>();
  }
  template <class T>
  void to_host(std::span<T> destination) const {
    eval().to_host(destination);
  }
  // The single element of a size-1 expression; throws jet::value_error otherwise.
  template <class T>
  T item() const {
    return eval().item<T>();
  }

  // Reductions, as the free functions of jet/reduce.hpp: `x.sum(1)` is `jet::sum(x, 1)`.
  JET_REDUCTION_MEMBERS

  const detail::node_ptr& node() const {
    if (!node_ && deferred_) node_ = deferred_->get();
    return node_;
  }
  // Hands the node over, leaving this expr empty.
  detail::node_ptr take() && {
    node();
    deferred_.reset();
    return std::move(node_);
  }

 protected:
  // An expression whose node is made when first needed (jet::indexed with a boolean mask).
  explicit expr(std::shared_ptr<detail::deferred_node> deferred) : deferred_(std::move(deferred)) {}

 private:
  mutable detail::node_ptr node_;
  std::shared_ptr<detail::deferred_node> deferred_;
};

// What Jet will do for an expression: source, key, operand access classes, bytes moved.
struct explanation {
  std::string source;
  std::string key;
  std::string kernel_name;
  std::string operands;  // one line per operand: dtype, access class, strides
  std::int64_t bytes = 0;
  std::string arch;       // what NVRTC compiled it for (the device's, else sm_90)
  double compile_ms = 0;  // NVRTC's time for this kernel
  std::size_t binary_bytes = 0;
};
explanation explain(const expr& e);
// The one kernel jet::evaluate runs for several expressions of one shape (none a reduction),
// or for several reductions that share a pass, with expressions of the shape they reduce:
// outputs "out", "out1", ... in the order given, the reductions first. Throws
// jet::value_error for other lists.
explanation explain(std::span<const expr> exprs);

// Several expressions evaluated together into new arrays, in the order given:
//   auto [call, put] = jet::evaluate(e1, e2);
// Results of one shape come from one kernel, which reads each operand once and computes the
// subexpressions the expressions share once (up to 32 results a kernel); results of other
// shapes from a kernel per shape. Reductions over the same axes (and keepdims) of expressions
// of one shape share one pass, which reads each operand once:
//   auto [total, squares, top] = jet::evaluate(jet::sum(x), jet::sum(x * x), jet::max(x));
//   auto [m, v] = jet::evaluate(jet::mean(x), jet::var(x));
// except argmin, argmax, ptp, complex minima and maxima and scans, which run as kernels of
// their own, as do reductions of other axes. Expressions of the shape such a pass reduces are
// computed and stored by it, so a result and its reduction read the operands once:
//   const jet::expr y = jet::exp(x) * w;
//   auto [values, total] = jet::evaluate(y, jet::sum(y));
// A reduction inside several expressions is computed once.
std::vector<array> evaluate(std::span<const expr> exprs);
template <class... E>
requires(sizeof...(E) >= 2 && (std::is_convertible_v<const E&, expr> &&
                               ...)) std::array<array, sizeof...(E)> evaluate(const E&... e) {
  const expr list[] = {expr(e)...};
  std::vector<array> results = evaluate(std::span<const expr>(list));
  std::array<array, sizeof...(E)> out;
  for (std::size_t k = 0; k < out.size(); ++k) out[k] = std::move(results[k]);
  return out;
}

// One write of jet::assign: `value` into `target`, an array or a view, as
// `target(jet::ellipsis) = value` writes it (broadcast, cast as assignment casts).
struct assignment {
  array target;
  expr value;
};
// Writes each value into its target, targets of one shape by one kernel:
//   jet::assign({{call, e1}, {put(jet::slice(0, 10)), e2}});
// Every value is computed from the arrays as they were before any of the writes, as Python's
// `a, b = b * 2, a + 1` does; where targets overlap each other, the later one's values are left.
void assign(std::initializer_list<assignment> assignments);
void assign(std::span<const assignment> assignments);

}  // namespace jet
