// jet::explain: an expression's kernel, as the pipeline would run it, stopped before the launch.
#include <fmt/format.h>

#include <span>
#include <string>
#include <vector>

#include "codegen/core/limits.hpp"
#include "codegen/plan/kernel_plan.hpp"
#include "codegen/render/render.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/pipeline/run_plan.hpp"

namespace jet::detail {
namespace {

array placeholder_of(const node& n) { return placeholder(n.extents(), n.type); }

// The SMs the kernels are planned for: the device's, or the reference GPU's without one.
int multiprocessors() {
  return device::available() ? device::current().multiprocessors
                             : codegen::reference_multiprocessors;
}

std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

// What a random draw's values are and where they start, or nothing for an operand in memory.
std::string draw_text(const ir::operand& op) {
  if (!op.drawn) return "";
  constexpr const char* dists[] = {"32-bit words", "uniform on [0, 1)", "standard normal"};
  return ", random draw (made in the kernel, no memory): " +
         std::string(dists[static_cast<int>(op.dist)]) + ", Philox4x32-10 key " +
         fmt::format("{:#x}", op.key) + " from counter " + std::to_string(op.base);
}

// One line per operand (dtype, access, strides), and the bytes the kernel moves.
void describe_operands(const ir::graph& g, explanation& e) {
  auto describe = [&](const std::string& what, const ir::operand& op) {
    e.operands += what + ": " + std::string(name(op.type)) + ", " + ir::access_name(op.mode) +
                  ", strides " + to_string(op.strides) + draw_text(op) + "\n";
    const std::int64_t elements = op.mode == ir::access::scalar ? 1 : g.size();
    if (!op.drawn) e.bytes += elements * itemsize(op.type);
  };
  describe("out", g.output);
  for (std::size_t k = 0; k < g.more_outputs.size(); ++k)
    describe(codegen::output_name(static_cast<int>(k + 1)), g.more_outputs[k]);
  for (std::size_t k = 0; k < g.inputs.size(); ++k) describe("in" + std::to_string(k), g.inputs[k]);
}

// The explanation of the plan lowered into `g` and `plan`: compiled, not launched.
explanation explained(const ir::graph& g, codegen::kernel_plan& plan) {
  plan_trace stages;
  stages.arch = device::available() ? device::arch() : codegen::reference_arch;
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

// What a reduction is called in jet::explain's refusals.
std::string reduction_named(const node& r) {
  const reduce_spec& spec = spec_of(r);
  return spec.scan ? "the scan"
                   : std::string("the ") + reduce_name(spec.op) + " of " +
                         std::string(name(r.args[0]->type));
}

// Why jet::explain cannot show `r` in the one kernel of a list that starts (reductions first)
// with `first`: the shape it should have, or the reduction that cannot share a pass.
std::string one_kernel_only(const node& first, const node& r) {
  const bool pass = first.op == op_code::reduce;
  const shape& want = pass && r.op != op_code::reduce ? first.args[0]->extents() : first.extents();
  const std::string why =
      !(r.extents() == want)
          ? "the shape should be " + to_string(want) + ", not " + to_string(r.extents())
      : r.op == op_code::reduce && joins_a_pass(first, placeholder(first.extents(), first.type))
          ? reduction_named(r) + " cannot share the pass"
          : reduction_named(first) + " cannot share a pass";
  return "jet::explain of several expressions shows the one kernel that computes them: they "
         "must have one shape and not be reductions, or be reductions that share a pass (the "
         "same axes and keepdims over expressions of one shape; not argmin, argmax, ptp, "
         "complex extremes or scans) and expressions of the shape the reductions read; here " +
         why;
}

}  // namespace

explanation explain(const node& root) {
  // Inner reductions run as kernels of their own: here they stand as placeholders.
  const node_ptr shown =
      root.contains_reduction ? without_inner_reductions(root, placeholder_of) : nullptr;
  ir::graph g;
  codegen::kernel_plan plan;
  codegen::lower(shown ? *shown : root, placeholder(root.extents(), root.type), multiprocessors(),
                 g, plan);
  return explained(g, plan);
}

explanation explain(std::span<const node_ptr> roots) {
  if (roots.size() == 1) return explain(*roots[0]);
  // The kernel's results: the reductions first (they share a pass), then the other trees.
  std::vector<node_ptr> ordered;
  for (int reductions = 1; reductions >= 0; --reductions)
    for (const node_ptr& r : roots)
      if ((r->op == op_code::reduce) == (reductions == 1)) ordered.push_back(r);
  const node& first = *ordered[0];
  const bool pass = first.op == op_code::reduce;
  std::vector<node_ptr> shown;
  std::vector<const node*> trees;
  std::vector<array> outs;
  for (const node_ptr& r : ordered) {
    const array out = placeholder(r->extents(), r->type);
    const node_ptr tree = r->contains_reduction && r->op != op_code::reduce
                              ? without_inner_reductions(*r, placeholder_of)
                              : r;
    const bool fits = r->op == op_code::reduce ? joins_a_pass(*r, out) && same_pass(first, *r)
                                               : (pass ? stored_by_pass(first, *tree, out)
                                                       : r->extents() == first.extents());
    if (!fits) throw value_error(one_kernel_only(first, *r));
    shown.push_back(tree);
    trees.push_back(tree.get());
    outs.push_back(out);
  }
  ir::graph g;
  codegen::kernel_plan plan;
  codegen::lower(trees, outs, pass ? multiprocessors() : 0, g, plan);
  return explained(g, plan);
}

}  // namespace jet::detail
