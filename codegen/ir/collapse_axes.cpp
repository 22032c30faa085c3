// Collapse axes: drop extent-1 axes, merge neighbours contiguous in every operand.
#include "codegen/ir/passes.hpp"

namespace jet::codegen {

int collapse_axes(ir::graph& g, int boundary) {
  for (int d = g.extents.size() - 1; d >= 0; --d) {
    if (g.extents[d] != 1) continue;
    if (d < boundary) --boundary;
    g.extents.erase(d);
    g.for_each_operand([d](ir::operand& op) { op.strides.erase(d); });
  }
  for (int d = g.extents.size() - 2; d >= 0; --d) {
    if (d + 1 == boundary) continue;  // axes before the boundary never merge with those after
    bool mergeable = true;
    g.for_each_operand([&](ir::operand& op) {
      mergeable = mergeable && op.strides[d] == op.strides[d + 1] * g.extents[d + 1];
    });
    if (!mergeable) continue;
    if (d + 1 < boundary) --boundary;
    g.extents[d] *= g.extents[d + 1];
    g.extents.erase(d + 1);
    g.for_each_operand([d](ir::operand& op) {
      op.strides[d] = op.strides[d + 1];
      op.strides.erase(d + 1);
    });
  }
  return boundary;
}

}  // namespace jet::codegen
