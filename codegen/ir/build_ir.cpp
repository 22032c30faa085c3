// Expression tree -> IR, merging common subexpressions and repeated operands.
#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "codegen/core/limits.hpp"
#include "codegen/ir/passes.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

// Whether shared memory adds values of dtype t by one atomic instruction.
bool shared_addable(dtype t) {
  switch (t) {
    case dtype::int32:
    case dtype::uint32:
    case dtype::int64:
    case dtype::uint64:
    case dtype::float32:
    case dtype::float64: return true;
    default: return false;
  }
}

// The strides over `extents` of an operand of shape `own` and strides `strides`: broadcast
// axes get stride 0.
shape broadcast_strides(const shape& own, const shape& strides, const shape& extents) {
  shape out = shape::filled(extents.size(), 0);
  const int lead = extents.size() - own.size();
  if (lead < 0)  // evaluation takes reductions out of a tree before it is built
    throw internal_error("an operand of " + std::to_string(own.size()) + " axes in a kernel over " +
                         std::to_string(extents.size()));
  for (int d = 0; d < own.size(); ++d) out[lead + d] = own[d] == 1 ? 0 : strides[d];
  return out;
}

// An array as an operand of a kernel over `extents`.
ir::operand operand_for(const array& a, const shape& extents) {
  ir::operand op;
  op.data = a.data();
  op.type = a.dtype();
  op.strides = broadcast_strides(a.shape(), a.strides(), extents);
  return op;
}

// A random draw as an operand: its elements' offsets are their C-order indexes in the draw.
ir::operand operand_for(const detail::random_node& n, const shape& extents) {
  ir::operand op;
  op.type = n.type;
  op.strides = broadcast_strides(n.extents(), contiguous_strides(n.extents()), extents);
  op.drawn = true;
  op.dist = n.dist;
  op.key = n.key;
  op.base = n.base;
  return op;
}

// Entries numbered 0, 1, 2, ... looked up by equality: a linear scan while they are few, then
// an open-addressing table of their hashes. The owner keeps and compares the entries, and the
// table is kept per thread, so lookups allocate nothing once it has grown.
class entry_index {
 public:
  void clear() {
    count_ = 0;
    hashed_ = false;
  }
  // The entry for which `same(entry)` holds, or -1; `hash` is the sought entry's hash.
  template <class Same>
  int find(std::uint64_t hash, Same&& same) const {
    if (!hashed_) {
      for (int e = 0; e < count_; ++e)
        if (same(e)) return e;
      return -1;
    }
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash & mask; slots_[i] >= 0; i = (i + 1) & mask)
      if (same(slots_[i])) return slots_[i];
    return -1;
  }
  // Adds the next entry, whose hash is `hash`; `hash_of(e)` is entry e's, for a new table.
  template <class HashOf>
  void add(std::uint64_t hash, HashOf&& hash_of) {
    const int entry = count_++;
    if (!hashed_ && count_ <= linear_limit) return;
    if (!hashed_ || 2 * static_cast<std::size_t>(count_) > slots_.size()) {
      // Sized for this expression: a large one earlier in the thread leaves its capacity,
      // not its size, so small ones do not clear a large table.
      std::size_t size = 64;
      while (2 * static_cast<std::size_t>(count_) > size) size *= 2;
      slots_.assign(size, -1);
      hashed_ = true;
      for (int e = 0; e < count_; ++e) place(hash_of(e), e);
      return;
    }
    place(hash, entry);
  }

 private:
  static constexpr int linear_limit = 16;
  void place(std::uint64_t hash, int entry) {
    const std::size_t mask = slots_.size() - 1;
    std::size_t i = hash & mask;
    while (slots_[i] >= 0) i = (i + 1) & mask;
    slots_[i] = entry;
  }
  std::vector<int> slots_;
  int count_ = 0;
  bool hashed_ = false;
};

std::uint64_t mix(std::uint64_t h) {
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdULL;
  return h ^ (h >> 33);
}

std::uint64_t hash_of(const detail::node* n) { return mix(reinterpret_cast<std::uintptr_t>(n)); }

std::uint64_t hash_of(const ir::instr& in) {
  auto bits = [](std::int16_t v) {
    return static_cast<std::uint64_t>(static_cast<std::uint16_t>(v));
  };
  const std::uint64_t head = static_cast<std::uint64_t>(in.op) << 24 |
                             static_cast<std::uint64_t>(in.type) << 16 | bits(in.slot);
  return mix(mix(head << 32 | bits(in.args[0]) << 16 | bits(in.args[1])) ^ bits(in.args[2]));
}

bool same(const ir::instr& a, const ir::instr& b) {
  return a.op == b.op && a.type == b.type && a.slot == b.slot && a.args[0] == b.args[0] &&
         a.args[1] == b.args[1] && a.args[2] == b.args[2];
}

// Whether `n` is 1 / x of float32 or float64 x, with a weak 1: the reciprocal, the same value
// (each rounds the quotient once), which the compiler computes faster where it sees the 1 (a
// reciprocal and a correction instead of a division; bench/NOTES.md, session 36).
bool divides_one(const detail::node& n) {
  const detail::node& one = *n.args[0];
  return one.is_weak() && one.scalar().number == 1.0 &&
         (n.type == dtype::float32 || n.type == dtype::float64) && n.args[1]->type == n.type;
}

// Scratch kept per thread so that a cache hit allocates nothing: the nodes seen (a node
// shared by several parents is lowered once) and an index of the instructions made (equal
// ones merge; scalars only in a several-output kernel, else each has a parameter of its own).
struct builder_scratch {
  std::vector<std::pair<const detail::node*, std::int16_t>> visited;
  entry_index seen_nodes, made;
};

class builder {
 public:
  builder(ir::graph& g, const shape& extents, builder_scratch& scratch)
      : g_(g), extents_(extents), s_(scratch) {
    s_.visited.clear();
    s_.seen_nodes.clear();
    s_.made.clear();
  }

  // Lowers `n`, which has other owners than the one parent it is reached from when `shared`.
  // Only shared nodes can be reached twice: the tree is immutable, and each parent holds its
  // operands, so the others need no entry among the nodes seen.
  std::int16_t visit(const detail::node& n, bool shared) {
    if (shared) {
      const int seen =
          s_.seen_nodes.find(hash_of(&n), [&](int e) { return s_.visited[e].first == &n; });
      if (seen >= 0) return s_.visited[seen].second;
    }
    ir::instr in;
    in.op = n.op;
    in.type = n.type;
    switch (n.op) {
      case detail::op_code::input: in.slot = add_input(n.value(), false); break;
      case detail::op_code::random: in.slot = add_draw(detail::draw_of(n)); break;
      case detail::op_code::gather:
      case detail::op_code::search_left:
      case detail::op_code::search_right:
        in.slot = add_input(n.value(), true);
        for (int i = 0; i < n.arity; ++i) in.args[i] = visit(*n.args[i], n.args[i].use_count() > 1);
        break;
      case detail::op_code::scalar: return add_scalar(n, n.type);
      case detail::op_code::true_divide:
        if (divides_one(n)) {
          in.op = detail::op_code::reciprocal;
          in.args[0] = visit(*n.args[1], n.args[1].use_count() > 1);
          break;
        }
        [[fallthrough]];
      default:
        for (int i = 0; i < n.arity; ++i) {
          const detail::node_ptr& arg = n.args[i];
          in.args[i] = arg->is_weak() ? add_scalar(*arg, n.type_of_operand(i))
                                      : visit(*arg, arg.use_count() > 1);
        }
    }
    const std::int16_t index = add(in);
    if (shared) {
      s_.visited.push_back({&n, index});
      s_.seen_nodes.add(hash_of(&n), [&](int e) { return hash_of(s_.visited[e].first); });
    }
    return index;
  }

  // A weak scalar as a parameter of dtype `as`, the one the op that uses it computes in. Each
  // use is a parameter of its own, of the dtype that use gives it, so scalars are never looked
  // up among the nodes seen.
  std::int16_t add_scalar(const detail::node& n, dtype as) {
    ir::instr in;
    in.op = detail::op_code::scalar;
    in.type = as;
    in.slot = merge_scalars_ ? equal_param(as, n.scalar()) : -1;
    if (in.slot < 0) {
      in.slot = static_cast<std::int16_t>(g_.params.size());
      g_.params.push_back({as, n.scalar()});
    }
    return add(in);
  }

  // Scalars of equal dtype and value share a parameter, so that the trees of a several-output
  // kernel, each with its own constants, merge what they compute alike (Black-Scholes' call and
  // put). Their pattern of equal values is then part of the kernel's key.
  void merge_scalars() { merge_scalars_ = true; }

  // Lowers `root` and casts its value to `type` where it differs; `shared` as visit takes it
  // (the roots of a several-output kernel may be one node, or nodes of each other).
  std::int16_t result(const detail::node& root, dtype type, bool shared = false) {
    std::int16_t value = visit(root, shared);
    if (root.type == type) return value;
    ir::instr cast;
    cast.op = detail::op_code::cast;
    cast.type = type;
    cast.args[0] = value;
    return add(cast);
  }

  std::int16_t add(const ir::instr& in) {
    const std::uint64_t hash = hash_of(in);
    const int found = s_.made.find(hash, [&](int e) { return same(g_.code[e], in); });
    if (found >= 0) return static_cast<std::int16_t>(found);
    if (g_.code.size() >= 32767) throw internal_error("expression too large for one kernel");
    g_.code.push_back(in);
    s_.made.add(hash, [&](int e) { return hash_of(g_.code[e]); });
    return static_cast<std::int16_t>(g_.code.size() - 1);
  }

 private:
  std::int16_t add_input(const array& a, bool gathered) {
    ir::operand op = operand_for(a, extents_);
    op.gathered = gathered;
    for (std::size_t i = 0; i < g_.inputs.size(); ++i) {
      const ir::operand& o = g_.inputs[i];
      if (o.data && o.data == op.data && o.type == op.type && o.strides == op.strides &&
          o.gathered == gathered)
        return static_cast<std::int16_t>(i);
    }
    g_.inputs.push_back(op);
    return static_cast<std::int16_t>(g_.inputs.size() - 1);
  }

  // The same draw read twice (copies of one node, or equal draws) is one operand.
  std::int16_t add_draw(const detail::random_node& n) {
    ir::operand op = operand_for(n, extents_);
    for (std::size_t i = 0; i < g_.inputs.size(); ++i) {
      const ir::operand& o = g_.inputs[i];
      if (o.drawn && o.dist == op.dist && o.key == op.key && o.base == op.base &&
          o.type == op.type && o.strides == op.strides)
        return static_cast<std::int16_t>(i);
    }
    g_.inputs.push_back(op);
    return static_cast<std::int16_t>(g_.inputs.size() - 1);
  }

  // The parameter of dtype `t` holding exactly `v` (bit for bit), or -1.
  std::int16_t equal_param(dtype t, const detail::scalar_value& v) const {
    for (std::size_t k = 0; k < g_.params.size(); ++k) {
      const ir::param& p = g_.params[k];
      if (p.type == t && p.value.kind == v.kind && p.value.is_unsigned == v.is_unsigned &&
          p.value.integer == v.integer &&
          std::memcmp(&p.value.number, &v.number, sizeof v.number) == 0)
        return static_cast<std::int16_t>(k);
    }
    return -1;
  }

  ir::graph& g_;
  const shape& extents_;
  builder_scratch& s_;
  bool merge_scalars_ = false;
};

}  // namespace

namespace {

// Makes `result` the last instruction, repeating it as a plain copy when it was merged into
// an earlier one.
void end_with(std::int16_t result, ir::graph& g) {
  if (result == static_cast<std::int16_t>(g.code.size() - 1)) return;
  ir::instr copy;
  copy.op = detail::op_code::positive;
  copy.type = g.code[result].type;
  copy.args[0] = result;
  g.code.push_back(copy);
}

// The code of `root` as `type`, last; with `store_offset`, the code of that first.
void build_code(const detail::node& root, dtype type, const detail::node* store_offset,
                ir::graph& g) {
  thread_local builder_scratch scratch;
  builder b(g, g.extents, scratch);
  if (store_offset) g.store_offset = b.visit(*store_offset, true);
  end_with(b.result(root, type), g);
}

}  // namespace

void build_code(const detail::node& root, const shape& extents, dtype type, ir::graph& g) {
  g.clear();
  g.extents = extents;
  build_code(root, type, nullptr, g);
}

void build_ir(const detail::node& root, const array& out, ir::graph& g) {
  build_code(root, out.shape(), out.dtype(), g);
  g.output = operand_for(out, g.extents);
}

namespace {

// The code of several trees, each as types[k]: roots[0]'s value last, the others' in
// more_results.
void build_codes(std::span<const detail::node* const> roots, std::span<const dtype> types,
                 ir::graph& g) {
  thread_local builder_scratch scratch;
  builder b(g, g.extents, scratch);
  b.merge_scalars();
  for (std::size_t k = 1; k < roots.size(); ++k)
    g.more_results.push_back(b.result(*roots[k], types[k], true));
  end_with(b.result(*roots[0], types[0], true), g);
}

}  // namespace

namespace {

// Checks a kernel's count of results; they are at most max_kernel_outputs.
void check_results(std::size_t count) {
  if (count == 0 || count > static_cast<std::size_t>(max_kernel_outputs))
    throw internal_error("a kernel of " + std::to_string(count) + " results");
}

}  // namespace

void build_code(std::span<const detail::node* const> roots, std::span<const dtype> types,
                const shape& extents, ir::graph& g) {
  check_results(roots.size());
  g.clear();
  g.extents = extents;
  build_codes(roots, types, g);
}

void build_ir(std::span<const detail::node* const> roots, std::span<const array> outs,
              ir::graph& g) {
  check_results(roots.size());
  g.clear();
  g.extents = outs[0].shape();
  std::array<dtype, max_kernel_outputs> types;
  for (std::size_t k = 0; k < outs.size(); ++k) types[k] = outs[k].dtype();
  build_codes(roots, std::span(types).first(roots.size()), g);
  for (std::size_t k = 1; k < roots.size(); ++k)
    g.more_outputs.push_back(operand_for(outs[k], g.extents));
  g.output = operand_for(outs[0], g.extents);
}

void build_scatter_ir(const detail::node& values, const detail::node& offset, const array& view,
                      detail::scatter_op combine, std::int64_t bins, ir::graph& g) {
  g.clear();
  g.extents = view.shape();
  build_code(values, view.dtype(), &offset, g);
  g.output = operand_for(view, g.extents);
  g.output.gathered = true;
  g.combine = combine;
  if (bins > 0 && combine == detail::scatter_op::add && shared_addable(view.dtype()) &&
      bins * static_cast<std::int64_t>(itemsize(view.dtype())) <= max_shared_bin_bytes &&
      std::all_of(view.strides().begin(), view.strides().end(),
                  [](std::int64_t s) { return s == 0; }))
    g.shared_bins = bins;
}

}  // namespace jet::codegen
