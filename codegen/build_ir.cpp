// Expression tree -> IR, merging common subexpressions and repeated operands.
#include <algorithm>

#include "codegen/passes.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

// An array as an operand of a kernel over `extents`: broadcast axes get stride 0.
ir::operand operand_for(const array& a, const shape& extents) {
  ir::operand op;
  op.data = a.data();
  op.type = a.dtype();
  op.strides = shape::filled(extents.size(), 0);
  const int lead = extents.size() - a.ndim();
  for (int d = 0; d < a.ndim(); ++d) op.strides[lead + d] = a.shape()[d] == 1 ? 0 : a.strides()[d];
  return op;
}

class builder {
 public:
  builder(ir::graph& g, const shape& extents,
          std::vector<std::pair<const detail::node*, std::int16_t>>& visited)
      : g_(g), extents_(extents), visited_(visited) {}

  std::int16_t visit(const detail::node& n) {
    for (const auto& [seen, index] : visited_)
      if (seen == &n) return index;
    ir::instr in;
    in.op = n.op;
    in.type = n.type;
    switch (n.op) {
      case detail::op_code::input: in.slot = add_input(n.value()); break;
      case detail::op_code::scalar:
        in.slot = static_cast<std::int16_t>(g_.params.size());
        g_.params.push_back({n.type, n.scalar});
        break;
      default:
        for (int i = 0; i < n.arity; ++i) in.args[i] = visit(*n.args[i]);
    }
    const std::int16_t index = add(in);
    visited_.push_back({&n, index});
    return index;
  }

  std::int16_t add(const ir::instr& in) {
    if (in.op != detail::op_code::scalar) {
      for (std::size_t i = 0; i < g_.code.size(); ++i) {
        const ir::instr& c = g_.code[i];
        if (c.op == in.op && c.type == in.type && c.slot == in.slot &&
            std::equal(c.args, c.args + 3, in.args))
          return static_cast<std::int16_t>(i);
      }
    }
    if (g_.code.size() >= 32767) throw internal_error("expression too large for one kernel");
    g_.code.push_back(in);
    return static_cast<std::int16_t>(g_.code.size() - 1);
  }

 private:
  std::int16_t add_input(const array& a) {
    const ir::operand op = operand_for(a, extents_);
    for (std::size_t i = 0; i < g_.inputs.size(); ++i) {
      const ir::operand& o = g_.inputs[i];
      if (o.data && o.data == op.data && o.type == op.type && o.strides == op.strides)
        return static_cast<std::int16_t>(i);
    }
    g_.inputs.push_back(op);
    return static_cast<std::int16_t>(g_.inputs.size() - 1);
  }

  ir::graph& g_;
  const shape& extents_;
  std::vector<std::pair<const detail::node*, std::int16_t>>& visited_;
};

}  // namespace

void build_code(const detail::node& root, const shape& extents, dtype type, ir::graph& g) {
  g.clear();
  g.extents = extents;
  // Scratch kept per thread so that a cache hit allocates nothing.
  thread_local std::vector<std::pair<const detail::node*, std::int16_t>> visited;
  visited.clear();
  builder b(g, g.extents, visited);
  std::int16_t result = b.visit(root);
  if (root.type != type) {
    ir::instr cast;
    cast.op = detail::op_code::cast;
    cast.type = type;
    cast.args[0] = result;
    result = b.add(cast);
  }
  if (result != static_cast<std::int16_t>(g.code.size() - 1)) {
    // The result was merged into an earlier instruction: repeat it last as a plain copy.
    ir::instr copy;
    copy.op = detail::op_code::positive;
    copy.type = g.code[result].type;
    copy.args[0] = result;
    g.code.push_back(copy);
  }
}

void build_ir(const detail::node& root, const array& out, ir::graph& g) {
  build_code(root, out.shape(), out.dtype(), g);
  g.output = operand_for(out, g.extents);
}

}  // namespace jet::codegen

namespace jet {

void ir::graph::clear() {
  code.clear();
  inputs.clear();
  params.clear();
  output = {};
  extents = {};
  index64 = false;
  vector_width = 1;
  tiled = false;
  reduce = {};
}

}  // namespace jet
