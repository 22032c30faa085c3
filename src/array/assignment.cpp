// Assignment's checks: NumPy's casting and broadcasting rules for a destination, and whether
// the values read the memory they are written into.
#include "src/array/assignment.hpp"

#include <string>

#include "jet/error.hpp"

namespace jet::detail {
bool same_kind(dtype from, dtype to) {
  if (can_cast(from, to)) return true;
  auto rank = [](dtype t) {
    switch (kind(t)) {
      case dtype_kind::boolean: return 0;
      case dtype_kind::unsigned_int: return 1;
      case dtype_kind::signed_int: return 2;
      case dtype_kind::floating: return 3;
      case dtype_kind::complex: return 4;
    }
    return 0;
  };
  return rank(from) <= rank(to);
}

bool broadcasts_to(const shape& from, const shape& to) {
  if (from.size() > to.size()) return false;
  const int lead = to.size() - from.size();
  for (int d = 0; d < from.size(); ++d)
    if (from[d] != 1 && from[d] != to[lead + d]) return false;
  return true;
}

namespace {

// Whether a node reads its array wherever its code points: a gather, a search.
bool reads_anywhere(op_code op) {
  return op == op_code::gather || op == op_code::search_left || op == op_code::search_right;
}

// A shape as Python prints a tuple: "(2, 4)", "(3,)".
std::string python_tuple(const shape& s) {
  std::string out;
  for (std::int64_t e : s) out += (out.empty() ? "" : ", ") + std::to_string(e);
  return "(" + out + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

void check_broadcast_objects(const std::vector<shape>& shapes) {
  int ndim = 0;
  for (const shape& s : shapes) ndim = std::max(ndim, s.size());
  for (int i = 0; i < ndim; ++i) {
    std::int64_t extent = 1;
    std::size_t from = 0;
    for (std::size_t j = 0; j < shapes.size(); ++j) {
      const int k = i + shapes[j].size() - ndim;
      if (k < 0 || shapes[j][k] == 1) continue;
      if (extent == 1) {
        extent = shapes[j][k];
        from = j;
      } else if (shapes[j][k] != extent) {
        throw shape_error(
            "shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is "
            "between arg " +
            std::to_string(from) + " with shape " + python_tuple(shapes[from]) + " and arg " +
            std::to_string(j) + " with shape " + python_tuple(shapes[j]) + ".");
      }
    }
  }
}

void check_same_kind_cast(dtype from, dtype to, bool scalar) {
  if (same_kind(from, to)) return;
  throw dtype_error(std::string("Cannot cast ") + (scalar ? "scalar" : "array data") +
                    " from dtype('" + std::string(name(from)) + "') to dtype('" +
                    std::string(name(to)) + "') according to the rule 'same_kind'");
}

void check_same_kind(const node& result, dtype to) {
  if (same_kind(result.type, to)) return;
  throw dtype_error("Cannot cast ufunc '" + std::string(op_name(result.op)) +
                    "' output from dtype('" + std::string(name(result.type)) + "') to dtype('" +
                    std::string(name(to)) + "') with casting rule 'same_kind'");
}

void check_assignable(const shape& values, const shape& target, const array& destination) {
  if (!broadcasts_to(values, target))
    throw shape_error("could not broadcast input array from shape " + to_string(values) +
                      " into shape " + to_string(target));
  for (int d = 0; d < destination.ndim(); ++d)
    if (destination.strides()[d] == 0 && destination.shape()[d] > 1)
      throw value_error("assignment destination is read-only (a broadcast view)");
}

bool reads_targets(const node& root, std::span<const array> targets, std::size_t own) {
  return any_node(root, [&](const node& n) {
    if (n.op != op_code::input && !reads_anywhere(n.op)) return false;
    const array& v = n.value();
    if (v.size() == 0) return false;
    for (std::size_t j = 0; j < targets.size(); ++j) {
      const array& a = targets[j];
      if (!v.shares_buffer_with(a)) continue;
      // Its own target may be read element for element; a gather reads wherever it points.
      if (j != own || reads_anywhere(n.op) ||
          !(v.data() == a.data() && v.shape() == a.shape() && v.strides() == a.strides()))
        return true;
    }
    return false;
  });
}

bool overlaps(const node& root, const array& a) { return reads_targets(root, {&a, 1}, 0); }

bool reads_memory_of(const node& root, const array& a) { return reads_targets(root, {&a, 1}, 1); }

}  // namespace jet::detail
