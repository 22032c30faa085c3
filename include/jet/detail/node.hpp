// The immutable nodes behind jet::expr. Built only through make_* factories, which check
// operands and resolve the result's dtype and shape when the node is made.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>

#include "jet/array.hpp"
#include "jet/detail/op_list.hpp"
#include "jet/dtype.hpp"
#include "jet/shape.hpp"

namespace jet::detail {

enum class op_code : std::uint8_t {
  input,   // reads an array
  scalar,  // a kernel parameter
  cast,    // converts to the node's dtype
  index,   // the element's flat index in the result, as int64 (for arange, linspace)
  reduce,  // a reduction of its one argument (a reduce_node)
#define JET_OP_ENUM(id, numpy_name, arity, loops, result) id,
  JET_ELEMENTWISE_OPS(JET_OP_ENUM)
#undef JET_OP_ENUM
};

// A C++ scalar as it was written: its weak kind and its exact value.
struct scalar_value {
  weak_kind kind = weak_kind::none;
  std::int64_t integer = 0;     // bool and integer values
  bool is_unsigned = false;     // integer holds a uint64 above INT64_MAX, bit for bit
  std::complex<double> number;  // floating and complex values (and integers, widened)
};

struct node;
using node_ptr = std::shared_ptr<const node>;

struct node {
  // User-provided, so that make_shared's value-initialization does not zero the whole node
  // before the member initializers run (it showed in the host cost of every expression).
  node() {}  // NOLINT(modernize-use-equals-default)
  op_code op = op_code::input;
  dtype type = dtype::float64;
  shape extents;  // the broadcast shape of the result
  int arity = 0;
  node_ptr args[3];
  scalar_value scalar;  // op_code::scalar (type is then the scalar's default dtype)

  bool contains_reduction = false;  // this node or one below it is a reduction

  bool is_weak() const { return op == op_code::scalar; }
  // The array an op_code::input node reads.
  const array& value() const;
};

// Only input nodes carry an array, which keeps the other nodes small and cheap to make.
struct input_node final : node {
  input_node() {}  // NOLINT(modernize-use-equals-default): as node()
  array data;
};

inline const array& node::value() const { return static_cast<const input_node*>(this)->data; }

// What a reduction computes. Norms are sums, maxima or minima of a transformed input with a
// post-step (see src/reduce.cpp).
enum class reduce_op : std::uint8_t {
  sum, prod, nansum, mean, nanmean, var, min, max, nanmin, nanmax, ptp, argmin, argmax, all, any,
  count_nonzero,
};
// Applied to the reduced value inside the kernel.
enum class reduce_post : std::uint8_t { none, sqrt, power };

struct reduce_spec {
  reduce_op op = reduce_op::sum;
  std::uint32_t axes = 0;  // bit d set: input axis d is reduced
  bool keepdims = false;
  reduce_post post = reduce_post::none;
  double post_arg = 0;  // var's ddof, or the exponent of reduce_post::power
};

struct reduce_node final : node {
  reduce_node() {}  // NOLINT(modernize-use-equals-default): as node()
  reduce_spec spec;
};
inline const reduce_spec& spec_of(const node& n) { return static_cast<const reduce_node&>(n).spec; }

// Factories: each checks its operands and throws jet::error kinds in NumPy's words.
node_ptr make_input(const array& value);
node_ptr make_scalar(scalar_value value);
node_ptr make_cast(node_ptr arg, dtype to);
node_ptr make_index(const shape& extents);
// A reduction of `arg` (already in the dtype it accumulates in) to `result` dtype. Checks
// the axes against NumPy's rules for `op` (empty extremes, argmin over several axes).
node_ptr make_reduce(node_ptr arg, const reduce_spec& spec, dtype result);
// NumPy's name of a reduction ("sum", "argmax", ...).
const char* reduce_name(reduce_op op);
node_ptr make_op(op_code op, node_ptr a);
node_ptr make_op(op_code op, node_ptr a, node_ptr b);
node_ptr make_op(op_code op, node_ptr a, node_ptr b, node_ptr c);

// The NumPy name of an op ("add", "sin", ...).
const char* op_name(op_code op);
int op_arity(op_code op);

}  // namespace jet::detail
