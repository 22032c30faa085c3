// Access classes, index width and vector width for a collapsed graph.
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "codegen/ir/passes.hpp"

namespace jet::codegen {
namespace {

bool aligned(const void* p, int bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % static_cast<std::uintptr_t>(bytes) == 0;
}

bool heavy(detail::op_code op) {
  using detail::op_code;
  switch (op) {
    case op_code::sqrt:
    case op_code::cbrt:
    case op_code::reciprocal:
    case op_code::exp:
    case op_code::exp2:
    case op_code::expm1:
    case op_code::log:
    case op_code::log2:
    case op_code::log10:
    case op_code::log1p:
    case op_code::sin:
    case op_code::cos:
    case op_code::tan:
    case op_code::arcsin:
    case op_code::arccos:
    case op_code::arctan:
    case op_code::sinh:
    case op_code::cosh:
    case op_code::tanh:
    case op_code::arcsinh:
    case op_code::arccosh:
    case op_code::arctanh:
    case op_code::true_divide:
    case op_code::floor_divide:
    case op_code::remainder:
    case op_code::fmod:
    case op_code::power:
    case op_code::arctan2:
    case op_code::hypot: return true;
    default: return false;
  }
}

// Float64 kernels with several divisions or transcendentals are bound by arithmetic, not
// memory: a thread then takes one element, as two lanes in sequence hold each input's second
// value in registers that more resident threads use better (Black-Scholes takes 60 registers a
// thread with two lanes, 40 with one; bench/NOTES.md).
bool arithmetic_bound(const ir::graph& g) {
  int count = 0;
  for (const ir::instr& in : g.code) count += in.type == dtype::float64 && heavy(in.op);
  return count >= 4;
}

// Vector width the graph can use: 16 bytes of its widest operand type per access, when every
// operand's innermost axis is unit or zero stride, aligned, and chunks never cross a row.
int vector_width_for(const ir::graph& g) {
  // A gather reads one element at a time, wherever its index points; a join's reads (in
  // order) are element by element too, but the vector's lanes issue them together.
  if (g.extents.empty() || (g.gathers() && !g.gathers_in_order())) return 1;
  int widest = itemsize(g.output.type);
  for (const ir::operand& op : g.more_outputs) widest = std::max(widest, itemsize(op.type));
  for (const ir::operand& op : g.inputs) widest = std::max(widest, itemsize(op.type));
  const int width = std::max(1, 16 / widest);
  if (width == 1 || (width == 2 && arithmetic_bound(g))) return 1;
  const int inner = g.extents.size() - 1;
  const bool one_dim = g.extents.size() == 1;
  if (!one_dim && g.extents[inner] % width != 0) return 1;
  auto fits = [&](const ir::operand& op) {
    if (op.mode == ir::access::scalar) return true;
    if (op.gathered) return op.strides[inner] == 0 || op.strides[inner] == 1;
    if (op.strides[inner] == 0 && op.mode != ir::access::contiguous) return true;
    if (op.strides[inner] != 1) return false;
    if (!aligned(op.data, width * itemsize(op.type))) return false;
    for (int d = 0; d < inner; ++d)
      if (op.strides[d] % width != 0) return false;
    return true;
  };
  auto stores = [&](const ir::operand& op) { return fits(op) && op.strides[inner] == 1; };
  if (!stores(g.output) || !std::all_of(g.more_outputs.begin(), g.more_outputs.end(), stores))
    return 1;
  return std::all_of(g.inputs.begin(), g.inputs.end(), fits) ? width : 1;
}

}  // namespace

void choose_access(ir::graph& g) {
  const shape contiguous = contiguous_strides(g.extents);
  g.for_each_operand([&](ir::operand& op) {
    if (op.strides == contiguous)
      op.mode = ir::access::contiguous;
    else if (op.reads_one_element())
      op.mode = ir::access::scalar;
    else
      op.mode = ir::access::strided;
  });
  g.index64 = g.needs_index64();
  // An input that runs fastest along the outer axis of a 2-D kernel reads uncoalesced:
  // stage it through shared-memory tiles instead.
  g.tiled = false;
  if (g.extents.size() == 2 && g.output.strides[1] == 1 && !g.gathers() && g.more_outputs.empty()) {
    for (ir::operand& op : g.inputs) {
      if (op.mode != ir::access::strided || op.strides[0] == 0 || op.drawn) continue;
      if (std::abs(op.strides[0]) < std::abs(op.strides[1])) {
        op.mode = ir::access::transposed;
        g.tiled = true;
      }
    }
  }
  if (g.tiled) {
    g.vector_width = 1;
    return;
  }
  g.vector_width = vector_width_for(g);
  if (g.vector_width == 1 || g.extents.empty()) return;
  const int inner = g.extents.size() - 1;
  for (ir::operand& op : g.inputs) {
    if (op.mode != ir::access::strided) continue;
    op.mode =
        op.strides[inner] == 0 ? ir::access::strided_zero_inner : ir::access::strided_unit_inner;
  }
  auto unit_inner = [](ir::operand& op) {
    if (op.mode == ir::access::strided) op.mode = ir::access::strided_unit_inner;
  };
  unit_inner(g.output);
  for (ir::operand& op : g.more_outputs) unit_inner(op);
}

}  // namespace jet::codegen
