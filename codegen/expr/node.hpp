// The immutable nodes behind jet::expr. Built only through the make_* factories, which check
// operands and resolve the result's dtype and shape when the node is made.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <vector>

#include "jet/array.hpp"
#include "jet/detail/expr_node.hpp"
#include "jet/dtype.hpp"
#include "jet/shape.hpp"

namespace jet::detail {

// An expression node. Nodes are small (64 bytes: an expression makes and frees one per
// operation on every call, from per-thread lists of free blocks, node_pool.hpp). What only some
// nodes need lives in the subclasses below, and a node's shape is usually one of its operands'
// shapes, so it points there instead of holding a copy.
struct node {
  // User-provided, so that allocate_shared's value-initialization does not zero the whole node
  // before the member initializers run (which costs every expression's host time).
  node() {}  // NOLINT(modernize-use-equals-default)
  op_code op = op_code::input;
  dtype type = dtype::float64;
  // The dtype of the node's operands (where's condition aside, which is bool): an op's loop
  // dtype, which its weak scalar operands take when the kernel is built; a cast's source dtype.
  dtype operand_type = dtype::float64;
  bool contains_reduction = false;  // this node or one below it is a reduction

 private:
  std::int8_t shared_with_ = -1;  // see set_extents

 public:
  std::int8_t arity = 0;
  node_ptr args[3];

  // The broadcast shape of the result.
  const shape& extents() const { return *extents_; }
  // The shape is args[i]'s (shared_with = i), or one that lives as long as the node
  // (shared_with = -1: its own, an array's, or the empty shape of scalars).
  void set_extents(const shape& extents, int shared_with) {
    extents_ = &extents;
    shared_with_ = static_cast<std::int8_t>(shared_with);
  }
  // Replaces args[i] by a node of the same shape (nodes made by copy_node only).
  void set_arg(int i, node_ptr arg) {
    args[i] = std::move(arg);
    if (shared_with_ == i) extents_ = &args[i]->extents();
  }

  bool is_weak() const { return op == op_code::scalar; }
  // The array an op_code::input node reads.
  const array& value() const;
  // The value of an op_code::scalar node.
  const scalar_value& scalar() const;
  // The dtype operand `i` computes in: a weak scalar takes it (operand_type, or bool for
  // where's condition); anything else has it already.
  dtype type_of_operand(int i) const {
    return op == op_code::where && i == 0 ? dtype::bool_ : operand_type;
  }

 private:
  const shape* extents_ = nullptr;
};

// Only input nodes carry an array, which keeps the other nodes small and cheap to make.
struct input_node final : node {
  input_node() {}  // NOLINT(modernize-use-equals-default): as node()
  input_node(const input_node& other) : node(other), data(other.data) {
    set_extents(data.shape(), -1);
  }
  input_node& operator=(const input_node&) = delete;
  array data;
};

// A weak scalar keeps the dtype its kind defaults to (default_dtype); the op that consumes it
// decides the dtype it takes in the kernel (node::type_of_operand).
struct scalar_node final : node {
  scalar_node() {}  // NOLINT(modernize-use-equals-default): as node()
  scalar_value value;
};

// A node whose shape is none of its operands' (index nodes, broadcasts that make a new shape,
// reductions).
struct shaped_node : node {
  shaped_node() {}  // NOLINT(modernize-use-equals-default): as node()
  shaped_node(const shaped_node& other) : node(other), own(other.own) { set_extents(own, -1); }
  shaped_node& operator=(const shaped_node&) = delete;
  shape own;
};

inline const array& node::value() const { return static_cast<const input_node*>(this)->data; }
inline const scalar_value& node::scalar() const {
  return static_cast<const scalar_node*>(this)->value;
}

// What a reduction computes. Norms are sums, maxima or minima of a transformed input with a
// post-step (see src/array/reduce.cpp).
enum class reduce_op : std::uint8_t {
  sum,
  prod,
  nansum,
  mean,
  nanmean,
  var,
  min,
  max,
  nanmin,
  nanmax,
  ptp,
  argmin,
  argmax,
  all,
  any,
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
  // A scan (cumsum, cumprod: op sum or prod): every prefix along the reduced axes is kept.
  // One axis keeps the operand's shape; all axes of an n-d operand scan it flattened (1-D).
  bool scan = false;
};

struct reduce_node final : shaped_node {
  reduce_node() {}  // NOLINT(modernize-use-equals-default): as node()
  reduce_spec spec;
};
inline const reduce_spec& spec_of(const node& n) { return static_cast<const reduce_node&>(n).spec; }

// What the elements of a random draw are: Philox's words (uint32, or two as a uint64), uniforms
// on [0, 1) or standard normals (float32 or float64).
enum class random_dist : std::uint8_t { words, uniform, normal };

// A draw of random numbers of the node's shape, made by the kernel that reads it: element e (in
// C order) is value e % N of the Philox4x32-10 block at counter base + e / N under `key`, where
// a block (four words) makes N = values_per_block(dtype) values. Fused into any expression or
// materialized, an element is the same number.
struct random_node final : shaped_node {
  random_node() {}  // NOLINT(modernize-use-equals-default): as node()
  random_node(const random_node& other) = default;
  random_node& operator=(const random_node&) = delete;
  random_dist dist = random_dist::uniform;
  std::uint64_t key = 0;
  std::uint64_t base = 0;
};
inline const random_node& draw_of(const node& n) { return static_cast<const random_node&>(n); }
// Values of a draw per Philox block: two of the 8-byte dtypes (64-bit words, 53-bit uniforms, a
// Box-Muller pair of float64 normals), four of the others.
inline int values_per_block(dtype t) { return itemsize(t) == 8 ? 2 : 4; }
node_ptr make_random(random_dist dist, dtype t, const shape& extents, std::uint64_t key,
                     std::uint64_t base);

// The element index over `extents`, as int64.
node_ptr make_index(const shape& extents);
// Reads `source`, a view over the result's shape, at each element's own position plus `offset`
// (an int64 node, in elements): a gather, which indexing builds with stride 0 on the axes its
// index arrays replace and their positions times the strides in `offset`. With a `guard` (a
// bool node), an element reads only where the guard holds and is 0 elsewhere: a fused join's
// parts (src/array/fused_join.cpp) each read where their slab of the result is.
node_ptr make_gather(const array& source, node_ptr offset, node_ptr guard = nullptr);
// What make_checked_index does with an index: the `how` of an index checked on axis `a` is `a`.
inline constexpr std::int64_t index_wraps = -1;  // take's mode="wrap": modulo the size
inline constexpr std::int64_t index_clips = -2;  // mode="clip": into [0, size)
// Reported as the ValueError of unravel_index, ravel_multi_index and choose, whose indexes are
// cast to uint64 first, since NumPy's are out of bounds when negative (device_errors.cpp).
inline constexpr std::int64_t index_in_flat_array = -3;
inline constexpr std::int64_t index_in_coordinates = -4;
inline constexpr std::int64_t index_in_choices = -5;
// Data checks (make_data_check) report through the same channel, as NumPy's ValueErrors.
inline constexpr std::int64_t all_nan_slice = -6;
inline constexpr std::int64_t weights_sum_to_zero = -7;
// `index` (an integer node) as a position on an axis of `size` (int64): a negative index
// counts from the end and one out of bounds is reported through the device error channel as
// on axis `how` (NumPy's IndexError), or it wraps or clips (index_wraps, index_clips).
node_ptr make_checked_index(node_ptr index, std::int64_t size, std::int64_t how);
// `value` where the bool node `bad` (which broadcasts to it) is false everywhere; where it
// holds, the kernel reports `how` (all_nan_slice, weights_sum_to_zero) through the device error
// channel, raised at the next synchronization, and `value` is still what it gives.
node_ptr make_data_check(node_ptr value, node_ptr bad, std::int64_t how);
// Sort keys: unsigned integers whose order is NumPy's sort order of the values (NaN last; for
// complex, NumPy's lexicographic order with its NaN classes), the dtype of the keys of `t`
// being uint8, uint16, uint32 or uint64 by its size, and complex128's a 16-byte integer carried
// as complex128. A comparing key is equal where the values compare equal (-0.0 and 0.0, every
// NaN); otherwise the key keeps every bit of a real value, so that make_sort_value gives it back
// (-0.0 then sorts before 0.0, and NaNs by their payload).
dtype sort_key_dtype(dtype t);
node_ptr make_sort_key(node_ptr value, bool comparing);
node_ptr make_sort_value(node_ptr key, dtype to);
// Where each of `values` goes in the 1-D `sorted` (in NumPy's sort order, compared as the
// values' dtype): a binary search over compare keys, before (or, `right`, after) the equal
// elements; int64.
node_ptr make_search(const array& sorted, node_ptr values, bool right);
// A reduction of `arg` (already in the dtype it accumulates in) to `result` dtype. Checks
// the axes against NumPy's rules for `op` (empty extremes, argmin over several axes).
node_ptr make_reduce(node_ptr arg, const reduce_spec& spec, dtype result);
// NumPy's name of a reduction ("sum", "argmax", ...).
const char* reduce_name(reduce_op op);

// A copy of `n` (of its own node type) whose arguments may then be replaced with set_arg.
std::shared_ptr<node> copy_node(const node& n);

// Whether `pred` holds for a node of the expression under `root` (root included). Each node is
// looked at once, though one used several times is reached by several paths (`x = x + x`
// repeated n times makes 2^n of them); only nodes with other owners than their parent can be.
template <class Pred>
bool any_node(const node& root, Pred&& pred) {
  std::vector<const node*> seen;  // the nodes with several owners reached so far
  auto visit = [&](auto& self, const node& n) -> bool {
    if (pred(n)) return true;
    for (int i = 0; i < n.arity; ++i) {
      const node_ptr& arg = n.args[i];
      if (arg.use_count() > 1) {
        if (std::find(seen.begin(), seen.end(), arg.get()) != seen.end()) continue;
        seen.push_back(arg.get());
      }
      if (self(self, *arg)) return true;
    }
    return false;
  };
  return visit(visit, root);
}

// The NumPy name of an op ("add", "sin", ...).
const char* op_name(op_code op);

}  // namespace jet::detail
