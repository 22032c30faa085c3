// jet::explain: an expression's kernel, as the pipeline would run it, stopped before the launch.
#include <string>

#include "codegen/core/limits.hpp"
#include "codegen/plan/kernel_plan.hpp"
#include "jet/device.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/pipeline/run_plan.hpp"

namespace jet::detail {
namespace {

array placeholder_of(const node& n) { return placeholder(n.extents(), n.type); }

std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

// One line per operand (dtype, access, strides), and the bytes the kernel moves.
void describe_operands(const ir::graph& g, explanation& e) {
  auto describe = [&](const std::string& what, const ir::operand& op) {
    e.operands += what + ": " + std::string(name(op.type)) + ", " + ir::access_name(op.mode) +
                  ", strides " + to_string(op.strides) + "\n";
    const std::int64_t elements = op.mode == ir::access::scalar ? 1 : g.size();
    e.bytes += elements * itemsize(op.type);
  };
  describe("out", g.output);
  for (std::size_t k = 0; k < g.inputs.size(); ++k) describe("in" + std::to_string(k), g.inputs[k]);
}

}  // namespace

explanation explain(const node& root) {
  // Inner reductions run as kernels of their own: here they stand as placeholders.
  const node_ptr shown =
      root.contains_reduction ? without_inner_reductions(root, placeholder_of) : nullptr;
  const bool has_device = device::available();
  ir::graph g;
  codegen::kernel_plan plan;
  codegen::lower(
      shown ? *shown : root, placeholder(root.extents(), root.type),
      has_device ? device::current().multiprocessors : codegen::reference_multiprocessors, g, plan);
  plan_trace stages;
  stages.arch = has_device ? device::arch() : codegen::reference_arch;
  run_plan(plan, &stages);
  explanation e;
  e.source = stages.source.source;
  e.kernel_name = stages.source.name;
  e.key = hex(stages.key);
  describe_operands(g, e);
  e.arch = stages.compiled.arch;
  e.compile_ms = stages.compiled.milliseconds;
  e.binary_bytes = stages.compiled.image.size();
  return e;
}

}  // namespace jet::detail
