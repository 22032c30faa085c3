// jet::expr: a cheap handle to an immutable lazy expression node. Nothing runs until an
// array is needed.
#pragma once

#include <complex>
#include <concepts>
#include <string>
#include <type_traits>

#include "jet/array.hpp"
#include "jet/detail/expr_node.hpp"

namespace jet {

template <class T>
concept arithmetic_scalar = std::is_arithmetic_v<T> || std::is_same_v<T, std::complex<float>> ||
    std::is_same_v<T, std::complex<double>>;

class expr {
 public:
  expr(const array& a) : node_(detail::make_input(a)) {}  // NOLINT: arrays are expressions
  // C++ scalars are weak, like Python scalars under NumPy 2 (NEP 50).
  template <arithmetic_scalar T>
  expr(T value) : node_(detail::make_scalar(detail::to_scalar_value(value))) {}  // NOLINT
  explicit expr(detail::node_ptr n) : node_(std::move(n)) {}

  jet::dtype dtype() const { return detail::type_of(*node_); }
  const jet::shape& shape() const { return detail::shape_of(*node_); }
  int ndim() const { return shape().size(); }
  std::int64_t size() const { return shape().product(); }
  // Evaluates into a new array.
  array eval() const { return array(*this); }
  expr astype(jet::dtype to) const { return expr(detail::make_cast(node_, to)); }

  // Reductions, as the free functions of jet/reduce.hpp: `x.sum(1)` is `jet::sum(x, 1)`.
  JET_REDUCTION_MEMBERS

  const detail::node_ptr& node() const { return node_; }
  // Hands the node over, leaving this expr empty.
  detail::node_ptr take() && { return std::move(node_); }

 private:
  detail::node_ptr node_;
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

}  // namespace jet
