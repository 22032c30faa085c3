// Reduction node -> IR: the producer lowered as an elementwise graph, its axes reordered
// (kept, then reduced) and merged, and the kernel layout chosen.
#include <algorithm>
#include <array>
#include <span>
#include <string>

#include "codegen/core/limits.hpp"
#include "codegen/ir/passes.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

using detail::reduce_op;

// A scan's output moves along the scanned axes too: out's own strides for one axis (out has
// the operand's shape), or those of a C-order walk of the operand's shape over the 1-D out.
void scan_output_strides(ir::graph& g, const array& out, const shape& order) {
  const int n = g.extents.size();
  if (out.ndim() == n) {
    for (int i = g.reduce.kept; i < n; ++i)
      g.output.strides[i] = out.shape()[order[i]] == 1 ? 0 : out.strides()[order[i]];
    return;
  }
  std::int64_t stride = out.strides()[0];
  for (int i = n - 1; i >= 0; --i) {
    g.output.strides[i] = g.extents[i] == 1 ? 0 : stride;
    stride *= g.extents[i];
  }
}

// `out` as an output over axes in `order` (kept axes first): its strides for kept axes, 0 for
// reduced ones.
ir::operand output_for(const detail::reduce_spec& spec, const shape& order, const array& out) {
  const int n = order.size();
  ir::operand op;
  op.data = out.data();
  op.type = out.dtype();
  op.strides = shape::filled(n, 0);
  for (int i = 0; i < n; ++i) {
    if ((spec.axes >> order[i]) & 1u) continue;
    // Kept axes come first in input order: the output's axis i, or order[i] where the output
    // keeps every axis (keepdims, a scan).
    const int axis = spec.keepdims || spec.scan ? order[i] : i;
    op.strides[i] = out.shape()[axis] == 1 ? 0 : out.strides()[axis];
  }
  return op;
}

// `out`, of the producers' shape, as an output storing each element over axes in `order`.
ir::operand elements_output(const shape& order, const array& out) {
  const int n = order.size();
  ir::operand op;
  op.data = out.data();
  op.type = out.dtype();
  op.strides = shape::filled(n, 0);
  for (int i = 0; i < n; ++i)
    op.strides[i] = out.shape()[order[i]] == 1 ? 0 : out.strides()[order[i]];
  return op;
}

// Reorders every operand's axes (kept axes first), with the reductions' outputs' strides taken
// from `outs` for kept axes and 0 for reduced ones.
void order_axes(ir::graph& g, const detail::reduce_spec& spec, std::span<const array> outs) {
  const int n = g.extents.size();
  shape order;
  for (int pass = 0; pass < 2; ++pass)
    for (int d = 0; d < n; ++d)
      if (((spec.axes >> d) & 1u) == static_cast<unsigned>(pass)) order.push_back(d);
  const shape extents = g.extents;
  for (int i = 0; i < n; ++i) g.extents[i] = extents[order[i]];
  for (ir::operand& op : g.inputs) {
    const shape strides = op.strides;
    for (int i = 0; i < n; ++i) op.strides[i] = strides[order[i]];
  }
  g.output = output_for(spec, order, outs[0]);
  for (std::size_t k = 1; k < outs.size(); ++k)
    g.more_outputs.push_back(g.stores_elements(k) ? elements_output(order, outs[k])
                                                  : output_for(spec, order, outs[k]));
  g.reduce.kept = 0;
  for (int d = 0; d < n; ++d) g.reduce.kept += !((spec.axes >> d) & 1u);
  if (spec.scan) scan_output_strides(g, outs[0], order);
}

// Bytes of a value in the kernel (float16 and bfloat16 compute in float).
std::size_t value_bytes(dtype value) {
  return value == dtype::float16 || value == dtype::bfloat16 ? 4 : itemsize(value);
}

// Rows whose one reduced axis has unit stride in the operands that move along it (and stride 0
// in the rest) load 16-byte vectors: those operands become strided_unit_inner, the others
// strided_zero_inner, so that the key tells the two apart. Alignment is checked per row.
void choose_vectors(ir::graph& g) {
  const int n = g.extents.size(), inner = n - 1;
  if (n - g.reduce.kept != 1) return;
  int widest = 0;
  for (const ir::operand& op : g.inputs) {
    // A gather reads one element at a time, wherever its index points; a random draw's
    // vectors are made a Philox block at a time.
    if (op.gathered) return;
    if (op.mode == ir::access::scalar || op.strides[inner] == 0) continue;
    if (op.strides[inner] != 1) return;
    widest = std::max(widest, itemsize(op.type));
  }
  // Outputs storing elements take vectors as the inputs give them.
  for (std::size_t k = 1; k <= g.more_outputs.size(); ++k) {
    if (!g.stores_elements(k)) continue;
    const ir::operand& op = g.more_outputs[k - 1];
    if (op.strides[inner] != 1) return;
    widest = std::max(widest, itemsize(op.type));
  }
  if (widest == 0 || widest > 8) return;
  g.vector_width = 16 / widest;
  g.reduce.geometry.step_loads = vector_unroll(g.vector_width) * g.vector_width;
  for (ir::operand& op : g.inputs)
    if (op.mode != ir::access::scalar)
      op.mode =
          op.strides[inner] == 1 ? ir::access::strided_unit_inner : ir::access::strided_zero_inner;
  for (std::size_t k = 1; k <= g.more_outputs.size(); ++k)
    if (g.stores_elements(k)) g.more_outputs[k - 1].mode = ir::access::strided_unit_inner;
}

// Rows when the reduced axes are innermost in memory for the largest input (or when there
// is little to spread over outputs), else a thread per output.
void choose_layout(ir::graph& g, int multiprocessors) {
  ir::reduction_geometry& r = g.reduce.geometry;
  const int n = g.extents.size(), kept = g.reduce.kept;
  r.outputs = 1;
  for (int d = 0; d < kept; ++d) r.outputs *= g.extents[d];
  r.length = 1;
  for (int d = kept; d < n; ++d) r.length *= g.extents[d];
  const ir::operand* primary = nullptr;
  g.for_each_operand([&](ir::operand& op) {
    op.mode = op.reads_one_element() ? ir::access::scalar : ir::access::strided;
    const bool input = &op != &g.output;
    if (input && op.mode != ir::access::scalar &&
        (!primary || op.span(g.extents) > primary->span(g.extents)))
      primary = &op;
  });
  g.index64 = g.needs_index64();
  choose_reduction_layout(r, primary, kept, n, multiprocessors);
  if (g.reduce.scan)
    choose_scan_tiles(r, value_bytes(g.code.back().type));
  else if (!r.columns)
    choose_vectors(g);
}

// Bytes of one accumulator state on the device (an upper bound; see preamble_reduce.cpp).
std::size_t state_bytes(reduce_op op, dtype value) {
  const std::size_t v = value_bytes(value);
  const std::size_t base = (v + 7) / 8 * 8;
  if (is_complex(value) && (op == reduce_op::nanmin || op == reduce_op::nanmax))
    return 2 * (base + 8);
  switch (op) {
    case reduce_op::nanmean: return base + 8;
    case reduce_op::var: return 48;
    case reduce_op::min:
    case reduce_op::max:
    case reduce_op::nanmin:
    case reduce_op::nanmax:
    case reduce_op::argmin:
    case reduce_op::argmax: return base + 8;
    case reduce_op::ptp: return 2 * (base + 8);
    case reduce_op::all:
    case reduce_op::any:
    case reduce_op::count_nonzero: return 8;
    default: return base;
  }
}

// The reduction's own fields (output 0) and its axes, layout and state, once the producers'
// code is built.
void finish_reduction(const detail::node& root, std::span<const array> outs, ir::graph& g,
                      int multiprocessors) {
  const detail::reduce_spec& spec = detail::spec_of(root);
  g.reduce.active = true;
  g.reduce.op = spec.op;
  g.reduce.post = spec.post;
  g.reduce.post_arg = spec.post_arg;
  g.reduce.result = root.type;
  g.reduce.scan = spec.scan;
  order_axes(g, spec, outs);
  g.reduce.kept = collapse_axes(g, g.reduce.kept);
  choose_layout(g, multiprocessors);
  if (spec.scan) return;
  std::size_t bytes = state_bytes(spec.op, g.code.back().type);
  for (std::size_t k = 0; k < g.reduce.more.size(); ++k)
    bytes += state_bytes(g.reduce.more[k].op, g.code[g.more_results[k]].type);
  g.reduce.geometry.state_bytes = bytes;
}

void check_reduction(const detail::node& root) {
  if (root.op != detail::op_code::reduce)
    throw internal_error("build_reduce_ir of a node that is no reduction");
}

// A result of a pass: a reduction that can share it (`reduces`: one that comes before every
// tree stored element by element), else a tree over the producers' `extents`.
void check_part(const detail::node& root, bool reduces, const shape& extents) {
  if (!reduces) {
    if (root.op == detail::op_code::reduce || !(root.extents() == extents))
      throw internal_error("a tree of " + to_string(root.extents()) +
                           " stored by the pass of a reduction over " + to_string(extents));
    return;
  }
  const detail::reduce_spec& spec = detail::spec_of(root);
  if (spec.scan || !shares_a_pass(spec.op, root.args[0]->type))
    throw internal_error(std::string("a ") + detail::reduce_name(spec.op) +
                         " sharing a reduction's pass");
}

}  // namespace

bool shares_a_pass(detail::reduce_op op, dtype value) {
  switch (op) {
    case reduce_op::argmin:
    case reduce_op::argmax:
    case reduce_op::ptp: return false;
    case reduce_op::min:
    case reduce_op::max:
    case reduce_op::nanmin:
    case reduce_op::nanmax: return !is_complex(value);
    default: return true;
  }
}

void build_reduce_ir(const detail::node& root, const array& out, ir::graph& g,
                     int multiprocessors) {
  check_reduction(root);
  const detail::node& producer = *root.args[0];
  build_code(producer, producer.extents(), producer.type, g);
  finish_reduction(root, std::span(&out, 1), g, multiprocessors);
}

void build_reduce_ir(std::span<const detail::node* const> roots, std::span<const array> outs,
                     ir::graph& g, int multiprocessors) {
  std::array<const detail::node*, max_kernel_outputs> producers{};
  std::array<dtype, max_kernel_outputs> types{};
  if (roots.empty() || roots.size() > producers.size())
    throw internal_error("a reduction kernel of " + std::to_string(roots.size()) + " results");
  check_reduction(*roots[0]);
  const shape& extents = roots[0]->args[0]->extents();
  std::size_t reductions = 0;
  for (std::size_t k = 0; k < roots.size(); ++k) {
    const bool reduces = roots[k]->op == detail::op_code::reduce;
    check_part(*roots[k], reduces && k == reductions, extents);
    reductions += reduces;
    producers[k] = reduces ? roots[k]->args[0].get() : roots[k];
    types[k] = reduces ? producers[k]->type : outs[k].dtype();
  }
  build_code(std::span(producers).first(roots.size()), std::span(types).first(roots.size()),
             extents, g);
  for (std::size_t k = 1; k < reductions; ++k) {
    const detail::reduce_spec& spec = detail::spec_of(*roots[k]);
    g.reduce.more.push_back({spec.op, spec.post, roots[k]->type, spec.post_arg});
  }
  finish_reduction(*roots[0], outs, g, multiprocessors);
}

}  // namespace jet::codegen
