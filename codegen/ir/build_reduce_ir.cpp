// Reduction node -> IR: the producer lowered as an elementwise graph, its axes reordered
// (kept, then reduced) and merged, and the kernel layout chosen.
#include <algorithm>
#include <cstdlib>

#include "codegen/ir/passes.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

using detail::reduce_op;

template <class F>
void for_each_operand(ir::graph& g, F&& f) {
  f(g.output);
  for (ir::operand& op : g.inputs) f(op);
}

// Reorders every operand's axes by `order` (kept axes first), with the output's strides
// taken from `out` for kept axes and 0 for reduced ones.
void order_axes(ir::graph& g, const detail::reduce_spec& spec, const array& out) {
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
  g.output.data = out.data();
  g.output.type = out.dtype();
  g.output.strides = shape::filled(n, 0);
  for (int i = 0; i < n; ++i) {
    if ((spec.axes >> order[i]) & 1u) continue;
    // Kept axes come first in input order: the output's axis i, or with keepdims order[i].
    const int axis = spec.keepdims ? order[i] : i;
    g.output.strides[i] = out.shape()[axis] == 1 ? 0 : out.strides()[axis];
  }
  g.reduce.kept = 0;
  for (int d = 0; d < n; ++d) g.reduce.kept += !((spec.axes >> d) & 1u);
}

// Drops extent-1 axes, then merges neighbours of the same group contiguous in every operand.
void collapse_groups(ir::graph& g) {
  for (int d = g.extents.size() - 1; d >= 0; --d) {
    if (g.extents[d] != 1) continue;
    if (d < g.reduce.kept) --g.reduce.kept;
    g.extents.erase(d);
    for_each_operand(g, [d](ir::operand& op) { op.strides.erase(d); });
  }
  for (int d = g.extents.size() - 2; d >= 0; --d) {
    if (d + 1 == g.reduce.kept) continue;  // never merge across the kept/reduced boundary
    bool mergeable = true;
    for_each_operand(g, [&](ir::operand& op) {
      mergeable = mergeable && op.strides[d] == op.strides[d + 1] * g.extents[d + 1];
    });
    if (!mergeable) continue;
    if (d + 1 < g.reduce.kept) --g.reduce.kept;
    g.extents[d] *= g.extents[d + 1];
    g.extents.erase(d + 1);
    for_each_operand(g, [d](ir::operand& op) {
      op.strides[d] = op.strides[d + 1];
      op.strides.erase(d + 1);
    });
  }
}

std::int64_t span_of(const ir::operand& op, const shape& extents) {
  std::int64_t span = 0;
  for (int d = 0; d < extents.size(); ++d) span += std::abs(op.strides[d]) * (extents[d] - 1);
  return span;
}

// Rows whose one reduced axis has unit stride in the operands that move along it (and stride 0
// in the rest) load 16-byte vectors: those operands become strided_unit_inner, the others
// strided_zero_inner, so that the key tells the two apart. Alignment is checked per row.
void choose_vectors(ir::graph& g) {
  const int n = g.extents.size(), inner = n - 1;
  if (n - g.reduce.kept != 1) return;
  int widest = 0;
  for (const ir::operand& op : g.inputs) {
    if (op.mode == ir::access::scalar || op.strides[inner] == 0) continue;
    if (op.strides[inner] != 1) return;
    widest = std::max(widest, itemsize(op.type));
  }
  if (widest == 0 || widest > 8) return;
  g.vector_width = 16 / widest;
  for (ir::operand& op : g.inputs)
    if (op.mode != ir::access::scalar)
      op.mode = op.strides[inner] == 1 ? ir::access::strided_unit_inner : ir::access::strided_zero_inner;
}

// Rows when the reduced axes are innermost in memory for the largest input (or when there
// is little to spread over outputs), else a thread per output.
void choose_layout(ir::graph& g, int multiprocessors) {
  ir::reduction& r = g.reduce;
  const int n = g.extents.size();
  r.outputs = 1;
  for (int d = 0; d < r.kept; ++d) r.outputs *= g.extents[d];
  r.length = 1;
  for (int d = r.kept; d < n; ++d) r.length *= g.extents[d];
  std::int64_t largest = r.outputs * r.length;
  const ir::operand* primary = nullptr;
  for (ir::operand& op : g.inputs) {
    const bool broadcast = std::all_of(op.strides.begin(), op.strides.end(), [](std::int64_t s) { return s == 0; });
    op.mode = broadcast ? ir::access::scalar : ir::access::strided;
    const std::int64_t span = span_of(op, g.extents);
    largest = std::max(largest, span + 1);
    if (!broadcast && (!primary || span > span_of(*primary, g.extents))) primary = &op;
  }
  const bool output_scalar = std::all_of(g.output.strides.begin(), g.output.strides.end(),
                                         [](std::int64_t s) { return s == 0; });
  g.output.mode = output_scalar ? ir::access::scalar : ir::access::strided;
  largest = std::max(largest, span_of(g.output, g.extents) + 1);
  g.index64 = largest >= (std::int64_t{1} << 31);
  r.columns = primary && r.kept > 0 && r.kept < n &&
              columns_layout(primary->strides[r.kept - 1], primary->strides[n - 1], r.outputs);
  r.group = rows_group(r.outputs, r.length, multiprocessors);
  if (!r.columns) choose_vectors(g);
}

// Bytes of one accumulator state on the device (an upper bound; see preamble_reduce.cpp).
std::size_t state_bytes(reduce_op op, dtype value) {
  const std::size_t v = value == dtype::float16 || value == dtype::bfloat16 ? 4 : itemsize(value);
  const std::size_t base = (v + 7) / 8 * 8;
  if (is_complex(value) && (op == reduce_op::nanmin || op == reduce_op::nanmax)) return 2 * (base + 8);
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

}  // namespace

void build_reduce_ir(const detail::node& root, const array& out, ir::graph& g, int multiprocessors) {
  if (root.op != detail::op_code::reduce) throw internal_error("build_reduce_ir of a node that is no reduction");
  const detail::node& producer = *root.args[0];
  build_code(producer, producer.extents(), producer.type, g);
  const detail::reduce_spec& spec = detail::spec_of(root);
  g.reduce.active = true;
  g.reduce.op = spec.op;
  g.reduce.post = spec.post;
  g.reduce.post_arg = spec.post_arg;
  g.reduce.result = root.type;
  order_axes(g, spec, out);
  collapse_groups(g);
  choose_layout(g, multiprocessors);
}

bool columns_layout(std::int64_t kept_stride, std::int64_t reduced_stride, std::int64_t outputs) {
  return std::abs(kept_stride) == 1 && std::abs(reduced_stride) > 1 && outputs >= 64;
}

int rows_group(std::int64_t outputs, std::int64_t length, int multiprocessors) {
  // A warp per output when there are enough outputs to fill the GPU with warps, or too few
  // elements per output to keep a block busy.
  return outputs >= std::int64_t{multiprocessors} * 32 || length <= 2048 ? 32 : 256;
}

std::size_t plan_chunks(ir::graph& g, std::int64_t wanted_blocks, std::int64_t resident_blocks) {
  ir::reduction& r = g.reduce;
  // Blocks of 256 threads that fill the GPU in one wave, and the fewest elements worth a chunk.
  const std::int64_t target = std::max<std::int64_t>(wanted_blocks, 1);
  const std::int64_t per_block = r.columns ? 256 : 256 / r.group;
  const std::int64_t blocks = (r.outputs + per_block - 1) / per_block;
  const std::int64_t lane_step = g.vector_width > 1 ? vector_unroll(g.vector_width) * g.vector_width : 4;
  const std::int64_t step = r.columns ? column_loads : lane_step * r.group;
  const std::int64_t min_chunk = r.columns ? 64 : 32 * r.group;
  std::int64_t splits = 1;
  if (2 * blocks <= target && r.length > min_chunk)
    splits = std::min({(target + blocks - 1) / blocks, std::max<std::int64_t>(resident_blocks / blocks, 1),
                       (r.length + min_chunk - 1) / min_chunk, std::int64_t{65535}});
  r.chunk = std::max<std::int64_t>(1, (r.length + splits - 1) / splits);
  r.chunk = (r.chunk + step - 1) / step * step;
  r.splits = std::max<std::int64_t>(1, (r.length + r.chunk - 1) / r.chunk);
  if (r.splits == 1) return 0;
  return static_cast<std::size_t>(r.splits * r.outputs) * state_bytes(r.op, g.code.back().type);
}

}  // namespace jet::codegen
