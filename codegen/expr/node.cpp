// Node factories: every expression node is checked and typed here, when it is made.
#include "codegen/expr/node.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "codegen/core/dtype_order.hpp"
#include "codegen/expr/node_pool.hpp"
#include "jet/error.hpp"

namespace jet::detail {
namespace {

enum loop_kind : unsigned { B = 1, I = 2, F = 4, C = 8 };
enum class result_rule { same, boolean, real };

struct op_row {
  const char* name;
  int arity;
  unsigned loops;
  result_rule result;
};

constexpr op_row rows[] = {{"input", 0, 0, result_rule::same},
                           {"scalar", 0, 0, result_rule::same},
                           {"cast", 1, 0, result_rule::same},
                           {"index", 0, 0, result_rule::same},
                           {"reduce", 1, 0, result_rule::same},
                           {"gather", 1, 0, result_rule::same},
                           {"checked_index", 3, 0, result_rule::same},
                           {"sort_key", 1, 0, result_rule::same},
                           {"compare_key", 1, 0, result_rule::same},
                           {"sort_value", 1, 0, result_rule::same},
                           {"search_left", 3, 0, result_rule::same},
                           {"search_right", 3, 0, result_rule::same},
                           {"random", 0, 0, result_rule::same},
#define JET_OP_ROW(id, numpy_name, arity, loops, result) \
  {numpy_name, arity, loops, result_rule::result},
                           JET_ELEMENTWISE_OPS(JET_OP_ROW)
#undef JET_OP_ROW
};

const op_row& row(op_code op) { return rows[static_cast<int>(op)]; }

bool has_loop(unsigned loops, dtype t) {
  switch (kind(t)) {
    case dtype_kind::boolean: return loops & B;
    case dtype_kind::signed_int:
    case dtype_kind::unsigned_int: return loops & I;
    case dtype_kind::floating: return loops & F;
    case dtype_kind::complex: return loops & C;
  }
  return false;
}

std::string type_list(const node_ptr* args, int n) {
  std::string out = "(";
  for (int i = 0; i < n; ++i) {
    if (i) out += ", ";
    out += args[i]->is_weak() ? "Python scalar" : std::string(name(args[i]->type));
  }
  return out + ")";
}

// NumPy's words for a Python int that a C long (int64) cannot hold, where it needs one.
void check_fits_long(const scalar_value& s) {
  if (s.is_unsigned) throw value_error("Python int too large to convert to C long");
}

// The dtype Python scalars alone take in a ufunc: NumPy's C long for ints; a lone one is the
// array it makes, uint64 above INT64_MAX (np.negative(2**64 - 1)). Several refuse such an int
// once their loop is known (resolve_loop).
dtype weak_default(const node_ptr* args, int n, weak_kind weak) {
  if (n == 1 && args[0]->scalar().is_unsigned) return dtype::uint64;
  return default_dtype(weak);
}

// NEP 50: strong operands promote among themselves; weak scalars only raise the kind.
dtype common_dtype(const node_ptr* args, int n) {
  bool any_strong = false;
  dtype strong = dtype::bool_;
  weak_kind weak = weak_kind::none;
  for (int i = 0; i < n; ++i) {
    if (args[i]->is_weak()) {
      weak = std::max(weak, args[i]->scalar().kind);
    } else {
      strong = any_strong ? promote_types(strong, args[i]->type) : args[i]->type;
      any_strong = true;
    }
  }
  return any_strong ? promote_weak(strong, weak) : weak_default(args, n, weak);
}

// Whether the operands are bool arrays and Python scalars, one array at least.
bool strong_bools(const node_ptr* args, int n) {
  return std::all_of(args, args + n,
                     [](const node_ptr& a) { return a->is_weak() || a->type == dtype::bool_; }) &&
         std::any_of(args, args + n, [](const node_ptr& a) { return !a->is_weak(); });
}

bool is_comparison(op_code op) { return op >= op_code::equal && op <= op_code::greater_equal; }

// NumPy resolves these with its uniform resolver: only a loop of the operands' common dtype
// itself will do, so bool is not cast up to an integer loop (np.positive(bool) is an error).
bool needs_exact_loop(op_code op) {
  return op == op_code::positive || op == op_code::sign || op == op_code::maximum ||
         op == op_code::minimum || op == op_code::fmax || op == op_code::fmin;
}

// NumPy's loop search: every operand must cast safely to the loop dtype. Arrays cast from
// their own dtype (int8 and uint8 meet in a float16 loop, not at their common int16); weak
// scalars from the common dtype, which they have already raised to their kind.
bool loop_accepts(dtype loop, op_code op, const node_ptr* args, int n, dtype common) {
  if (!has_loop(row(op).loops, loop)) return false;
  if (needs_exact_loop(op)) return loop == common;
  for (int i = 0; i < n; ++i)
    if (!can_cast(args[i]->is_weak() ? common : args[i]->type, loop)) return false;
  return true;
}

// True unless `s` is a weak integer that the integer dtype `t` cannot hold.
bool weak_integer_fits(const scalar_value& s, dtype t) {
  if (s.kind != weak_kind::integer || !is_integer(t)) return true;
  const int bits = itemsize(t) * 8;
  if (s.is_unsigned) return t == dtype::uint64;
  if (kind(t) == dtype_kind::signed_int)
    return bits == 64 || (s.integer >= -(std::int64_t{1} << (bits - 1)) &&
                          s.integer < (std::int64_t{1} << (bits - 1)));
  return s.integer >= 0 && (bits == 64 || s.integer < (std::int64_t{1} << bits));
}

// NumPy 2 refuses a Python int that the chosen integer dtype cannot hold.
void check_weak_integer_fits(const scalar_value& s, dtype t) {
  if (weak_integer_fits(s, t)) return;
  const std::string value = s.is_unsigned ? std::to_string(static_cast<std::uint64_t>(s.integer))
                                          : std::to_string(s.integer);
  throw value_error("Python integer " + value + " out of bounds for " + std::string(name(t)));
}

// Converts the operands to the loop dtype: arrays get a cast; weak scalars stay as they are and
// take the loop dtype when the kernel is built (node::type_of_operand).
void type_operands(node_ptr* args, int n, dtype loop) {
  for (int i = 0; i < n; ++i)
    if (!args[i]->is_weak() && args[i]->type != loop) args[i] = make_cast(std::move(args[i]), loop);
}

// The node of `op` over `args`, which it takes (moved: every shared_ptr copy is an atomic
// count on a multi-threaded host, several per node of every expression).
node_ptr finish(op_code op, dtype type, dtype loop, node_ptr* args, int n) {
  // Equal shapes and scalars (no axes) are the common cases: the result's shape is then an
  // operand's. Only a broadcast that makes a new shape needs a node that holds one.
  int shared_with = 0;
  shape broadcast;
  for (int i = 1; i < n; ++i) {
    const shape& e = args[i]->extents();
    const shape& so_far = shared_with < 0 ? broadcast : args[shared_with]->extents();
    if (e.empty() || e == so_far) continue;
    if (so_far.empty()) {
      shared_with = i;
      continue;
    }
    broadcast = broadcast_shapes(so_far, e);
    if (broadcast == e)
      shared_with = i;
    else if (!(broadcast == so_far))
      shared_with = -1;
  }
  std::shared_ptr<node> out;
  if (shared_with < 0) {
    auto shaped = new_node<shaped_node>();
    shaped->own = broadcast;
    shaped->set_extents(shaped->own, -1);
    out = std::move(shaped);
  } else {
    out = new_node<node>();
    out->set_extents(args[shared_with]->extents(), shared_with);
  }
  out->op = op;
  out->type = type;
  out->operand_type = loop;
  out->arity = static_cast<std::int8_t>(n);
  for (int i = 0; i < n; ++i) {
    out->contains_reduction = out->contains_reduction || args[i]->contains_reduction;
    out->args[i] = std::move(args[i]);
  }
  return out;
}

// NumPy's loop for `op` over `args` (not where), found by NEP 50's promotion and NumPy's loop
// search; throws what NumPy raises when there is none.
dtype resolve_loop(op_code op, const node_ptr* args, int n) {
  const dtype common = common_dtype(args, n);
  if (common == dtype::bool_ && (op == op_code::subtract || op == op_code::negative)) {
    throw dtype_error(op == op_code::subtract
                          ? "numpy boolean subtract, the `-` operator, is not supported, use the "
                            "bitwise_xor, the `^` operator, or the logical_xor function instead."
                          : "The numpy boolean negative, the `-` operator, is not supported, use "
                            "the `~` operator or the logical_not function instead.");
  }
  dtype loop = common;
  if (op == op_code::true_divide && !is_inexact(common)) {
    loop = dtype::float64;  // NumPy's true division of integers and bools
  } else if (!loop_accepts(common, op, args, n, common)) {
    // When the common dtype's own loop accepts the operands no earlier loop in the safe-cast
    // order can: the search is needed only when it does not.
    const dtype* found =
        std::find_if(std::begin(safe_cast_order), std::end(safe_cast_order),
                     [&](dtype t) { return loop_accepts(t, op, args, n, common); });
    if (found == std::end(safe_cast_order))
      throw dtype_error("ufunc '" + std::string(row(op).name) +
                        "' not supported for the input types " + type_list(args, n));
    loop = *found;
  }
  // Python ints alone meet in a C long, which refuses one past INT64_MAX (np.add(2**64 - 1, 1)),
  // once NumPy has found a loop at all (np.right_shift(-1.5, 2**64 - 1) is a TypeError).
  const bool all_weak = std::all_of(args, args + n, [](const node_ptr& a) { return a->is_weak(); });
  if (n > 1 && all_weak && common == dtype::int64 && !is_comparison(op))
    for (int i = 0; i < n; ++i) check_fits_long(args[i]->scalar());
  for (int i = 0; i < n; ++i) {
    if (!args[i]->is_weak()) continue;
    // Comparisons take any Python int, as NumPy 2 does: compare in a type that holds it; but
    // bools meet a Python int as int64.
    if (is_comparison(op) && common == dtype::int64 && strong_bools(args, n))
      check_fits_long(args[i]->scalar());
    if (is_comparison(op) && is_integer(loop)) {
      if (!weak_integer_fits(args[i]->scalar(), loop))
        loop = args[i]->scalar().is_unsigned || kind(common) == dtype_kind::unsigned_int
                   ? dtype::float64
                   : dtype::int64;
    } else {
      check_weak_integer_fits(args[i]->scalar(), loop);
    }
  }
  return loop;
}

// The common case, which resolve_loop would answer the same way: the arrays share one dtype,
// not bool, that the op has a loop for, and the weak scalars are of no higher kind (and no
// Python int meets an integer dtype, which would need its range checked). The loop is then
// that dtype. Sets `loop` when the case holds.
bool uniform_loop(op_code op, const node_ptr* args, int n, dtype& loop) {
  const node_ptr* first_strong =
      std::find_if(args, args + n, [](const node_ptr& a) { return !a->is_weak(); });
  if (first_strong == args + n) return false;
  const dtype strong = (*first_strong)->type;
  weak_kind weak = weak_kind::none;
  for (int i = 0; i < n; ++i) {
    if (args[i]->is_weak())
      weak = std::max(weak, args[i]->scalar().kind);
    else if (args[i]->type != strong)
      return false;
  }
  const dtype_kind k = kind(strong);
  const bool weak_fits =
      weak <= weak_kind::boolean ||
      (weak == weak_kind::complex ? k == dtype_kind::complex : k >= dtype_kind::floating);
  if (strong == dtype::bool_ || !weak_fits || !has_loop(row(op).loops, strong)) return false;
  if (op == op_code::true_divide && !is_inexact(strong)) return false;
  loop = strong;
  return true;
}

node_ptr make_checked(op_code op, node_ptr* args, int n);

// NumPy's functions that are not plain ufunc loops, in NumPy's own terms; null when `op` is a
// plain ufunc over these operands.
node_ptr make_special(op_code op, node_ptr* args, int n) {
  const bool weak = args[0]->is_weak();
  // real and imag read the attribute of a Python scalar, which stays a Python scalar.
  if ((op == op_code::real || op == op_code::imag) && weak) {
    const scalar_value& s = args[0]->scalar();
    scalar_value part;
    const bool complex = s.kind == weak_kind::complex;
    part.kind = complex                         ? weak_kind::floating
                : s.kind == weak_kind::floating ? s.kind
                                                : weak_kind::integer;
    if (op == op_code::real) {
      part.is_unsigned = s.is_unsigned;
      part.integer = s.integer;
      part.number = s.number.real();
    } else {
      part.number = s.number.imag();
    }
    return make_scalar(part);
  }
  // angle of a real z is arctan2(0, z), the Python int 0 taking z's kind.
  if (op == op_code::angle && !is_complex(args[0]->type)) {
    scalar_value zero;
    zero.kind = weak_kind::integer;
    node_ptr operands[] = {make_scalar(zero), std::move(args[0])};
    return make_checked(op_code::arctan2, operands, 2);
  }
  // The logical ufuncs take a Python int by its truth, as far as a C long holds it.
  if (op == op_code::logical_and || op == op_code::logical_or || op == op_code::logical_xor) {
    for (int i = 0; i < n; ++i) {
      if (!args[i]->is_weak() || args[i]->scalar().kind != weak_kind::integer) continue;
      check_fits_long(args[i]->scalar());
      scalar_value truth;
      truth.kind = weak_kind::boolean;
      truth.integer = args[i]->scalar().integer != 0;
      truth.number = static_cast<double>(truth.integer);
      args[i] = make_scalar(truth);
    }
  }
  return nullptr;
}

// Checks, types and makes the node of `op` over `args`, which it takes.
node_ptr make_checked(op_code op, node_ptr* args, int n) {
  const op_row& r = row(op);
  if (n != r.arity)
    throw internal_error(std::string(r.name) + " takes " + std::to_string(r.arity) + " operands");
  for (int i = 0; i < n; ++i)
    if (!args[i]) throw internal_error("undefined operand of " + std::string(op_name(op)));
  if (node_ptr special = make_special(op, args, n)) return special;
  if (op == op_code::where) {
    const dtype t = common_dtype(args + 1, 2);
    for (int i = 1; i < 3; ++i)
      if (args[i]->is_weak()) check_weak_integer_fits(args[i]->scalar(), t);
    if (args[0]->type != dtype::bool_) args[0] = make_cast(std::move(args[0]), dtype::bool_);
    type_operands(args + 1, 2, t);
    return finish(op, t, t, args, 3);
  }
  dtype loop;
  if (!uniform_loop(op, args, n, loop)) loop = resolve_loop(op, args, n);
  const dtype result = r.result == result_rule::boolean ? dtype::bool_
                       : r.result == result_rule::real  ? real_dtype(loop)
                                                        : loop;
  type_operands(args, n, loop);
  return finish(op, result, loop, args, n);
}

}  // namespace

const char* op_name(op_code op) { return row(op).name; }
dtype type_of(const node& n) { return n.type; }
const shape& shape_of(const node& n) { return n.extents(); }

const node_ptr& deferred_node::get() {
  std::call_once(once_, [this] {
    made_ = make_();
    make_ = nullptr;
  });
  return made_;
}

node_ptr make_input(const array& value) {
  auto out = new_node<input_node>();
  out->op = op_code::input;
  out->type = value.dtype();
  out->operand_type = out->type;
  out->data = value;
  out->set_extents(out->data.shape(), -1);
  return out;
}

node_ptr make_scalar(scalar_value value) {
  static const shape no_axes;
  auto out = new_node<scalar_node>();
  out->op = op_code::scalar;
  out->type = value.is_unsigned ? dtype::uint64 : default_dtype(value.kind);
  out->operand_type = out->type;
  out->set_extents(no_axes, -1);
  out->value = value;
  return out;
}

namespace {

// A node of one operand, `arg`, whose shape it has.
node_ptr make_unary(op_code op, node_ptr arg, dtype type) {
  auto out = new_node<node>();
  out->op = op;
  out->type = type;
  out->operand_type = arg->type;
  out->arity = 1;
  out->set_extents(arg->extents(), 0);
  out->contains_reduction = arg->contains_reduction;
  out->args[0] = std::move(arg);
  return out;
}

}  // namespace

node_ptr make_cast(node_ptr arg, dtype to) {
  if (!arg) throw internal_error("cast of an undefined operand");
  if (arg->type == to && !arg->is_weak()) return arg;
  return make_unary(op_code::cast, std::move(arg), to);
}

node_ptr make_index(const shape& extents) {
  auto out = new_node<shaped_node>();
  out->op = op_code::index;
  out->type = dtype::int64;
  out->operand_type = out->type;
  out->own = extents;
  out->set_extents(out->own, -1);
  return out;
}

node_ptr make_random(random_dist dist, dtype t, const shape& extents, std::uint64_t key,
                     std::uint64_t base) {
  const bool fits = dist == random_dist::words ? t == dtype::uint32 || t == dtype::uint64
                                               : t == dtype::float32 || t == dtype::float64;
  if (!fits) throw internal_error("a random draw of dtype " + std::string(name(t)));
  auto out = new_node<random_node>();
  out->op = op_code::random;
  out->type = t;
  out->operand_type = t;
  out->own = extents;
  out->set_extents(out->own, -1);
  out->dist = dist;
  out->key = key;
  out->base = base;
  return out;
}

node_ptr make_gather(const array& source, node_ptr offset, node_ptr guard) {
  if (!offset || offset->type != dtype::int64)
    throw internal_error("a gather's offset must be an int64 node");
  if (guard && guard->type != dtype::bool_) throw internal_error("a gather's guard must be bool");
  if (!(broadcast_shapes(offset->extents(), source.shape()) == source.shape()))
    throw internal_error("a gather's offset of shape " + to_string(offset->extents()) +
                         " over a source of shape " + to_string(source.shape()));
  auto out = new_node<input_node>();
  out->op = op_code::gather;
  out->type = source.dtype();
  out->operand_type = dtype::int64;
  out->data = source;
  out->set_extents(out->data.shape(), -1);
  out->contains_reduction = offset->contains_reduction || (guard && guard->contains_reduction);
  out->arity = guard ? 2 : 1;
  out->args[0] = std::move(offset);
  out->args[1] = std::move(guard);
  return out;
}

node_ptr make_checked_index(node_ptr index, std::int64_t size, std::int64_t how) {
  if (!index || !is_integer(index->type))
    throw internal_error("a checked index must be an integer node");
  auto out = new_node<node>();
  out->op = op_code::checked_index;
  out->type = dtype::int64;
  out->operand_type = dtype::int64;
  out->arity = 3;
  out->set_extents(index->extents(), 0);
  out->contains_reduction = index->contains_reduction;
  out->args[0] = std::move(index);
  out->args[1] = make_scalar(to_scalar_value(size));
  out->args[2] = make_scalar(to_scalar_value(how));
  return out;
}

dtype sort_key_dtype(dtype t) {
  switch (t) {
    case dtype::bool_:
    case dtype::int8:
    case dtype::uint8: return dtype::uint8;
    case dtype::int16:
    case dtype::uint16:
    case dtype::float16:
    case dtype::bfloat16: return dtype::uint16;
    case dtype::int32:
    case dtype::uint32:
    case dtype::float32: return dtype::uint32;
    case dtype::int64:
    case dtype::uint64:
    case dtype::float64:
    case dtype::complex64: return dtype::uint64;
    case dtype::complex128: return dtype::complex128;
  }
  return t;
}

node_ptr make_sort_key(node_ptr value, bool comparing) {
  if (!value || value->is_weak()) throw internal_error("a sort key of an undefined operand");
  if (!comparing && is_complex(value->type))
    throw internal_error("complex values have no decodable sort key");
  const dtype key = sort_key_dtype(value->type);
  return make_unary(comparing ? op_code::compare_key : op_code::sort_key, std::move(value), key);
}

node_ptr make_sort_value(node_ptr key, dtype to) {
  if (!key || is_complex(to) || key->type != sort_key_dtype(to))
    throw internal_error("a sort value of " + std::string(name(to)) + " from a key of " +
                         (key ? std::string(name(key->type)) : std::string("nothing")));
  return make_unary(op_code::sort_value, std::move(key), to);
}

node_ptr make_search(const array& sorted, node_ptr values, bool right) {
  if (sorted.ndim() != 1 || !values || values->is_weak())
    throw internal_error("a search needs a 1-D array and defined values");
  auto out = new_node<input_node>();
  out->op = right ? op_code::search_right : op_code::search_left;
  out->type = dtype::int64;
  out->operand_type = dtype::int64;
  // The array seen over the values' shape with no strides: the kernel gets its first element's
  // address, and finds the rest by the stride.
  out->data = array(sorted.buffer(), sorted.dtype(), values->extents(),
                    shape::filled(values->extents().size(), 0), sorted.offset());
  out->set_extents(out->data.shape(), -1);
  out->contains_reduction = values->contains_reduction;
  out->arity = 3;
  out->args[0] = std::move(values);
  out->args[1] = make_scalar(to_scalar_value(sorted.shape()[0]));
  out->args[2] = make_scalar(to_scalar_value(sorted.strides()[0]));
  return out;
}

node_ptr make_data_check(node_ptr value, node_ptr bad, std::int64_t how) {
  if (!value || !bad || bad->type != dtype::bool_)
    throw internal_error("a data check needs a value and a bool condition");
  // A position on an axis of one element: 1 (out of bounds, reported) where `bad` holds, and
  // the check reads 0 either way.
  node_ptr position = make_op(op_code::where, std::move(bad), make_scalar(to_scalar_value(1)),
                              make_scalar(to_scalar_value(0)));
  node_ptr checked = make_checked_index(std::move(position), 1, how);
  node_ptr fine = make_op(op_code::equal, std::move(checked), make_scalar(to_scalar_value(0)));
  node_ptr same = value;
  return make_op(op_code::where, std::move(fine), std::move(value), std::move(same));
}

std::shared_ptr<node> copy_node(const node& n) {
  switch (n.op) {
    case op_code::input:
    case op_code::gather:
    case op_code::search_left:
    case op_code::search_right: return new_node<input_node>(static_cast<const input_node&>(n));
    case op_code::scalar: return new_node<scalar_node>(static_cast<const scalar_node&>(n));
    case op_code::reduce: return new_node<reduce_node>(static_cast<const reduce_node&>(n));
    case op_code::index: return new_node<shaped_node>(static_cast<const shaped_node&>(n));
    case op_code::random: return new_node<random_node>(static_cast<const random_node&>(n));
    default: break;
  }
  // An op holds its shape only when no operand has it (see finish).
  for (int i = 0; i < n.arity; ++i)
    if (&n.extents() == &n.args[i]->extents()) return new_node<node>(n);
  return new_node<shaped_node>(static_cast<const shaped_node&>(n));
}

node_ptr make_op(op_code op, node_ptr a) {
  node_ptr args[] = {std::move(a)};
  return make_checked(op, args, 1);
}
node_ptr make_op(op_code op, node_ptr a, node_ptr b) {
  node_ptr args[] = {std::move(a), std::move(b)};
  return make_checked(op, args, 2);
}
node_ptr make_op(op_code op, node_ptr a, node_ptr b, node_ptr c) {
  node_ptr args[] = {std::move(a), std::move(b), std::move(c)};
  return make_checked(op, args, 3);
}

}  // namespace jet::detail
