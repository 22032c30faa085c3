// One kernel for a join of elementwise expressions. Each part is rebuilt over the joined shape,
// its arrays read through gathers that are guarded by the part's slab of the result and
// shifted back to the part's own positions; the result picks each element's part with where.
#include "src/array/fused_join.hpp"

#include <algorithm>
#include <utility>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/ops.hpp"

namespace jet::detail {
namespace {

// Ops that cost about as much as the reads beside them. The one kernel computes every part's
// expression at every element, so a part with costlier ones takes a kernel of its own (the
// H200 and H100 measured a join of exp(a) * sin(a) and log1p(b) / b 1.6x slower in one kernel
// than part by part; bench/NOTES.md).
bool cheap(op_code op) {
  switch (op) {
    case op_code::cast:
    case op_code::negative:
    case op_code::positive:
    case op_code::absolute:
    case op_code::sign:
    case op_code::square:
    case op_code::floor:
    case op_code::ceil:
    case op_code::trunc:
    case op_code::isnan:
    case op_code::isinf:
    case op_code::isfinite:
    case op_code::logical_not:
    case op_code::real:
    case op_code::imag:
    case op_code::conj:
    case op_code::add:
    case op_code::subtract:
    case op_code::multiply:
    case op_code::bitwise_and:
    case op_code::bitwise_or:
    case op_code::bitwise_xor:
    case op_code::invert:
    case op_code::left_shift:
    case op_code::right_shift:
    case op_code::equal:
    case op_code::not_equal:
    case op_code::less:
    case op_code::less_equal:
    case op_code::greater:
    case op_code::greater_equal:
    case op_code::logical_and:
    case op_code::logical_or:
    case op_code::logical_xor:
    case op_code::maximum:
    case op_code::minimum:
    case op_code::fmax:
    case op_code::fmin:
    case op_code::copysign:
    case op_code::where: return true;
    default: return false;
  }
}

// A part's expression rebuilt with each array it reads replaced by a guarded gather.
class part_over_join {
 public:
  part_over_join(const join_part& p, const shape& joined, int axis, std::int64_t start,
                 node_ptr guard)
      : part_(p), joined_(joined), axis_(axis), start_(start), guard_(std::move(guard)) {}

  // Null where the part holds what a guarded gather cannot stand for.
  node_ptr operator()(const node_ptr& n) {
    for (const auto& [from, to] : done_)
      if (from == n.get()) return to;
    node_ptr out = rebuilt(n);
    if (n.use_count() > 1) done_.emplace_back(n.get(), out);
    return out;
  }

 private:
  node_ptr rebuilt(const node_ptr& n) {
    switch (n->op) {
      case op_code::input: return gathered(n->value());
      case op_code::scalar: return n;
      case op_code::index:
      case op_code::reduce:
      case op_code::gather:
      case op_code::checked_index: return nullptr;
      default:
        if (!cheap(n->op)) return nullptr;
    }
    node_ptr args[3];
    for (int i = 0; i < n->arity; ++i)
      if (!(args[i] = (*this)(n->args[i]))) return nullptr;
    node_ptr out;
    if (n->op == op_code::cast)
      out = make_cast(args[0], n->type);
    else if (n->arity == 1)
      out = make_op(n->op, args[0]);
    else if (n->arity == 2)
      out = make_op(n->op, args[0], args[1]);
    else
      out = make_op(n->op, args[0], args[1], args[2]);
    const bool same = out->type == n->type && out->operand_type == n->operand_type;
    return same ? out : nullptr;
  }

  // `a` seen over the whole joined shape (its strides as broadcast to the part's shape, an
  // extent-1 axis for each one the part's atleast_*d form adds), read `start_` back along the
  // axis: element c of the part's slab reads the part's element c - start_. Null unless it is
  // read along its rows (innermost stride 0 or 1): a part read across them, such as a
  // transposed one, is faster in a kernel of its own, which stages it through tiles.
  node_ptr gathered(const array& a) {
    const array own = a.broadcast_to(part_.value.shape());
    shape strides;
    int d = 0;
    for (std::int64_t extent : part_.joined) {
      while (extent != 1 && own.shape()[d] == 1) ++d;
      strides.push_back(extent == 1 ? 0 : own.strides()[d++]);
    }
    if (strides.back() != 0 && strides.back() != 1) return nullptr;
    const array over(own.buffer(), own.dtype(), joined_, strides, own.offset());
    return make_gather(over, make_scalar(to_scalar_value(-start_ * strides[axis_])), guard_);
  }

  const join_part& part_;
  const shape& joined_;
  int axis_;
  std::int64_t start_;
  node_ptr guard_;
  std::vector<std::pair<const node*, node_ptr>> done_;
};

}  // namespace

node_ptr fused_join(std::span<const join_part> parts, int axis, const shape& joined, dtype t) {
  const auto has_elements = [](const join_part& p) { return p.joined.product() > 0; };
  if (joined.product() == 0 ||
      std::count_if(parts.begin(), parts.end(), has_elements) > fused_join_parts)
    return nullptr;
  std::int64_t inner = 1;
  for (int d = axis + 1; d < joined.size(); ++d) inner *= joined[d];
  // The element's position along the axis, times `inner`: its flat index, within a row of
  // the axes before it.
  expr at(make_index(joined));
  if (axis > 0) at = at % (joined[axis] * inner);
  std::vector<std::pair<node_ptr, node_ptr>> picks;  // each part's guard and value
  std::int64_t end = 0;
  for (const join_part& p : parts) {
    const std::int64_t start = end;
    end += p.joined[axis];
    if (!has_elements(p)) continue;
    const expr guard = start == 0            ? at < end * inner
                       : end == joined[axis] ? at >= start * inner
                                             : logical_and(at >= start * inner, at < end * inner);
    node_ptr value = part_over_join(p, joined, axis, start, guard.node())(p.value.node());
    if (!value) return nullptr;
    if (value->type != t) value = make_cast(value, t);
    picks.emplace_back(guard.node(), std::move(value));
  }
  node_ptr root = picks.back().second;
  for (std::size_t k = picks.size() - 1; k-- > 0;)
    root = make_op(op_code::where, picks[k].first, picks[k].second, root);
  return root;
}

}  // namespace jet::detail
