// Collapse axes: drop extent-1 axes, merge neighbours contiguous in every operand.
#include "codegen/ir/passes.hpp"

namespace jet::codegen {
namespace {

template <class F>
void for_each_operand(ir::graph& g, F&& f) {
  f(g.output);
  for (ir::operand& op : g.inputs) f(op);
}

}  // namespace

void collapse_axes(ir::graph& g) {
  for (int d = g.extents.size() - 1; d >= 0; --d) {
    if (g.extents[d] != 1) continue;
    g.extents.erase(d);
    for_each_operand(g, [d](ir::operand& op) { op.strides.erase(d); });
  }
  for (int d = g.extents.size() - 2; d >= 0; --d) {
    bool mergeable = true;
    for_each_operand(g, [&](ir::operand& op) {
      mergeable = mergeable && op.strides[d] == op.strides[d + 1] * g.extents[d + 1];
    });
    if (!mergeable) continue;
    g.extents[d] *= g.extents[d + 1];
    g.extents.erase(d + 1);
    for_each_operand(g, [d](ir::operand& op) {
      op.strides[d] = op.strides[d + 1];
      op.strides.erase(d + 1);
    });
  }
}

}  // namespace jet::codegen
