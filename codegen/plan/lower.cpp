// Jet's expressions lowered to one kernel's plan: the IR passes in order, the parameter block,
// the launch.
#include "codegen/core/limits.hpp"
#include "codegen/ir/passes.hpp"
#include "codegen/plan/kernel_plan.hpp"

namespace jet::codegen {
namespace {

bool uses_index(const ir::graph& g) {
  for (const ir::instr& in : g.code)
    if (in.op == detail::op_code::index) return true;
  return false;
}

// The plan of an elementwise graph that `g` holds as built.
void plan_elementwise(ir::graph& g, kernel_plan& plan) {
  collapse_axes(g);
  choose_access(g);
  plan.launch.work_items = g.work_items();
  plan.launch.tiled = g.tiled;
  plan.launch.uncapped = g.gathers();
}

lowering finish(ir::graph& g, kernel_plan& plan) {
  layout_params(g, plan.params);
  plan.reports_errors = g.reports_errors();
  if (g.reduce.active && uses_index(g)) return lowering::reads_index;
  return plan.params.bytes() > max_param_bytes ? lowering::too_many_parameters
                                               : lowering::one_kernel;
}

void start(ir::graph& g, kernel_plan& plan) {
  plan.body = &g;
  plan.launch = {};
  plan.extras = &jet_kernel_extras();
}

}  // namespace

lowering lower(const detail::node& root, const array& out, int multiprocessors, ir::graph& g,
               kernel_plan& plan) {
  start(g, plan);
  if (root.op == detail::op_code::reduce) {
    build_reduce_ir(root, out, g, multiprocessors);
    plan.launch.reduction = &g.reduce.geometry;
    plan.launch.scan = g.reduce.scan;
  } else {
    build_ir(root, out, g);
    plan_elementwise(g, plan);
  }
  return finish(g, plan);
}

lowering lower(std::span<const detail::node* const> roots, std::span<const array> outs,
               int multiprocessors, ir::graph& g, kernel_plan& plan) {
  start(g, plan);
  if (roots[0]->op == detail::op_code::reduce) {
    build_reduce_ir(roots, outs, g, multiprocessors);
    plan.launch.reduction = &g.reduce.geometry;
  } else {
    build_ir(roots, outs, g);
    plan_elementwise(g, plan);
  }
  return finish(g, plan);
}

lowering lower_scatter(const detail::node& values, const detail::node& offset, const array& view,
                       detail::scatter_op combine, std::int64_t bins, ir::graph& g,
                       kernel_plan& plan) {
  start(g, plan);
  build_scatter_ir(values, offset, view, combine, bins, g);
  plan_elementwise(g, plan);
  // Each block adds its bins into the output once: as many blocks as fill the GPU once.
  if (g.shared_bins) {
    plan.launch.uncapped = false;
    plan.launch.blocks_per_sm = max_threads_per_sm / block_threads;
  }
  return finish(g, plan);
}

}  // namespace jet::codegen
