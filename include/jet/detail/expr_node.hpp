// What jet::expr needs of the nodes behind it: the op codes, a C++ scalar as it was written,
// and the factories that check and type each node when it is made. The nodes themselves are
// Jet's own (codegen/expr/node.hpp); an expression holds them through node_ptr.
#pragma once

#include <complex>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <type_traits>

#include "jet/detail/op_list.hpp"
#include "jet/dtype.hpp"
#include "jet/shape.hpp"

namespace jet {
class array;
}

namespace jet::detail {

enum class op_code : std::uint8_t {
  input,   // reads an array
  scalar,  // a kernel parameter
  cast,    // converts to the node's dtype
  index,   // the element's flat index in the result, as int64 (for arange, linspace)
  reduce,  // a reduction of its one argument
  gather,  // reads an array at the element's position plus an offset, its argument (indexing)
  checked_index,  // an index as a position on an axis: negatives wrap, out of bounds reported
  sort_key,       // an unsigned integer that orders as NumPy's sort orders its argument
  compare_key,    // likewise, but equal where NumPy's comparisons are (-0.0 and 0.0, NaNs)
  sort_value,     // the value a sort_key encodes
  search_left,    // where in a sorted array its argument goes, before equal elements
  search_right,   // likewise, after them
  random,         // a draw of random numbers, made by the kernel that reads it (jet::random)
#define JET_OP_ENUM(id, numpy_name, arity, loops, result) id,
  JET_ELEMENTWISE_OPS(JET_OP_ENUM)
#undef JET_OP_ENUM
};

// A C++ scalar as it was written: its weak kind and its exact value.
struct scalar_value {
  weak_kind kind = weak_kind::none;
  bool is_unsigned = false;     // integer holds a uint64 above INT64_MAX, bit for bit
  std::int64_t integer = 0;     // bool and integer values
  std::complex<double> number;  // floating and complex values (and integers, widened)
};

// The weak kind and exact value of a C++ arithmetic or complex scalar.
template <class T>
scalar_value to_scalar_value(T v) {
  scalar_value s;
  if constexpr (std::is_same_v<T, bool>) {
    s.kind = weak_kind::boolean;
    s.integer = v;
    s.number = v ? 1.0 : 0.0;
  } else if constexpr (std::is_integral_v<T>) {
    s.kind = weak_kind::integer;
    s.integer = static_cast<std::int64_t>(v);
    s.is_unsigned = std::is_unsigned_v<T> && s.integer < 0;
    s.number =
        s.is_unsigned ? static_cast<double>(static_cast<std::uint64_t>(v)) : static_cast<double>(v);
  } else if constexpr (std::is_floating_point_v<T>) {
    s.kind = weak_kind::floating;
    s.number = static_cast<double>(v);
  } else {
    s.kind = weak_kind::complex;
    s.number = std::complex<double>(v.real(), v.imag());
  }
  return s;
}

// How a scatter writes each value: stores it, or combines it with what is there atomically
// (NumPy's ufunc.at: jet::add_at and its kin).
enum class scatter_op : std::uint8_t { store, add, maximum, minimum };

struct node;
using node_ptr = std::shared_ptr<const node>;

// Factories: each checks its operands and throws jet::error kinds in NumPy's words.
node_ptr make_input(const array& value);
node_ptr make_scalar(scalar_value value);
node_ptr make_cast(node_ptr arg, dtype to);
node_ptr make_op(op_code op, node_ptr a);
node_ptr make_op(op_code op, node_ptr a, node_ptr b);
node_ptr make_op(op_code op, node_ptr a, node_ptr b, node_ptr c);

// A node made when it is first asked for, once for all the copies of its expression: the read
// of a boolean-mask index (jet::indexed), whose length is only known after a count.
class deferred_node {
 public:
  explicit deferred_node(std::function<node_ptr()> make) : make_(std::move(make)) {}
  const node_ptr& get();

 private:
  std::once_flag once_;
  std::function<node_ptr()> make_;
  node_ptr made_;
};

// A node's dtype and its result's shape.
dtype type_of(const node& n);
const shape& shape_of(const node& n);

}  // namespace jet::detail
