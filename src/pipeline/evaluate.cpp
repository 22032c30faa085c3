// Evaluating expressions: reductions inside an expression run first, a reduction assigned into
// a broadcast view runs once and is copied across, what passes a kernel's limits runs in
// parts; then the expression is lowered to one kernel's plan and run.
#include "src/pipeline/evaluate.hpp"

#include <algorithm>
#include <span>
#include <utility>
#include <vector>

#include "codegen/core/limits.hpp"
#include "codegen/ir/passes.hpp"
#include "codegen/plan/kernel_plan.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/device/placement.hpp"
#include "src/pipeline/run_plan.hpp"

namespace jet::detail {
namespace {

std::int64_t input_count(const node& root) {
  std::int64_t count = 0;
  any_node(root, [&](const node& n) {
    count += n.op == op_code::input;
    return false;
  });
  return count;
}

// Replaces the argument subtree with the most inputs by its materialized value.
node_ptr split_largest(const node& root) {
  int largest = 0;
  for (int i = 1; i < root.arity; ++i)
    if (input_count(*root.args[i]) > input_count(*root.args[largest])) largest = i;
  auto copy = copy_node(root);
  const node& child = *root.args[largest];
  if (child.arity == 0) throw internal_error("cannot split an expression with a leaf argument");
  array value = empty(child.extents(), child.type);
  evaluate(child, value);
  copy->set_arg(largest, make_input(value));
  return copy;
}

// What replace_reductions made of the nodes with several owners it has met: a reduction used
// twice (`(x - m) * (x - m)` with `m = mean(x)`) is computed once, and stays shared.
using replaced_nodes = std::vector<std::pair<const node*, node_ptr>>;

// `n` with every reduction in it replaced by an input node reading `value_of(reduction)`.
node_ptr replace_reductions(const node_ptr& n, array (*value_of)(const node&),
                            replaced_nodes& done) {
  if (!n->contains_reduction) return n;
  const bool shared = n.use_count() > 1;
  if (shared)
    for (const auto& [from, to] : done)
      if (from == n.get()) return to;
  node_ptr result;
  if (n->op == op_code::reduce) {
    result = make_input(value_of(*n));
  } else {
    auto copy = copy_node(*n);
    copy->contains_reduction = false;
    for (int i = 0; i < n->arity; ++i)
      copy->set_arg(i, replace_reductions(n->args[i], value_of, done));
    result = std::move(copy);
  }
  if (shared) done.emplace_back(n.get(), result);
  return result;
}

array evaluated(const node& n) {
  array value = empty(n.extents(), n.type);
  evaluate(n, value);
  return value;
}

// The reduction `root` over `producer` instead of its own argument.
node_ptr reduction_of(const node& root, node_ptr producer) {
  auto copy = copy_node(root);
  copy->set_arg(0, std::move(producer));
  return copy;
}

// The reduction over its argument's evaluated value: for producers the reduction kernel
// cannot compute in place (an index expression, too many parameters).
node_ptr reduction_of_value(const node& root) {
  return reduction_of(root, make_input(evaluated(*root.args[0])));
}

// Throws unless every input that a kernel over `g` reads has memory: placeholders are for
// planning, and an empty kernel reads nothing.
void check_evaluable(const ir::graph& g) {
  if (g.size() == 0) return;
  for (const ir::operand& op : g.inputs)
    if (!op.data && !op.drawn) throw value_error("a jet::placeholder array cannot be evaluated");
}

// Throws unless every array the expression reads, and `out`, are on the current device.
void check_devices(const node& root, const array& out) {
  if (device::count() < 2) return;
  check_on_current_device(out, "jet");
  any_node(root, [](const node& n) {
    if (n.op == op_code::input) check_on_current_device(n.value(), "jet");
    return false;
  });
}

// NumPy computes each operand before it broadcasts, so an integer to a negative integer power
// raises even where the result it feeds is empty. Evaluates the outermost such powers under
// `n` that have elements, so that their device-side check runs.
void evaluate_unread_powers(const node& n) {
  if (n.op == op_code::power && is_integer(n.type) && n.extents().product() > 0) {
    evaluated(n);
    return;
  }
  for (int i = 0; i < n.arity; ++i) evaluate_unread_powers(*n.args[i]);
}

}  // namespace

void evaluate_scatter(const node& values, const node& offset, const array& view, scatter_op combine,
                      std::int64_t bins) {
  if (view.size() == 0) {
    evaluate_unread_powers(values);
    return;
  }
  check_devices(values, view);
  check_devices(offset, view);
  if (values.contains_reduction) {
    evaluate_scatter(*make_input(evaluated(values)), offset, view, combine, bins);
    return;
  }
  thread_local ir::graph g;
  thread_local codegen::kernel_plan plan;
  const codegen::lowering lowered =
      codegen::lower_scatter(values, offset, view, combine, bins, g, plan);
  check_evaluable(g);
  if (lowered != codegen::lowering::one_kernel) {
    // Past the parameter limit: the values first, then a scatter of one array.
    if (values.op == op_code::input) throw internal_error("a scatter past the parameter limit");
    evaluate_scatter(*make_input(evaluated(values)), offset, view, combine, bins);
    return;
  }
  run_plan(plan);
}

namespace {

// without_inner_reductions, with the reductions replaced so far in `done` (shared by the trees
// of one evaluate_together).
node_ptr strip_reductions(const node& root, array (*value_of)(const node&), replaced_nodes& done) {
  std::shared_ptr<node> copy = copy_node(root);
  copy->contains_reduction = root.op == op_code::reduce;
  for (int i = 0; i < root.arity; ++i)
    copy->set_arg(i, replace_reductions(root.args[i], value_of, done));
  return copy;
}

// Trees without reductions into outputs of one shape, or reductions sharing a pass, at most
// max_kernel_outputs of them: one kernel, or each on its own where one kernel would pass the
// parameter limit (or a producer reads the element index).
void evaluate_fused(std::span<const node* const> roots, std::span<const array> outs) {
  if (roots.size() == 1) return evaluate(*roots[0], outs[0]);
  thread_local ir::graph g;
  thread_local codegen::kernel_plan plan;
  const int sms = roots[0]->op == op_code::reduce ? device::current().multiprocessors : 0;
  const codegen::lowering lowered = codegen::lower(roots, outs, sms, g, plan);
  check_evaluable(g);
  if (lowered == codegen::lowering::one_kernel) return run_plan(plan);
  for (std::size_t k = 0; k < roots.size(); ++k) evaluate(*roots[k], outs[k]);
}

// Trees and their outputs that one kernel, or a kernel per max_kernel_outputs, computes.
struct kernel_group {
  std::vector<const node*> roots;
  std::vector<array> outs;

  void run() const {
    for (std::size_t first = 0; first < roots.size(); first += codegen::max_kernel_outputs) {
      const std::size_t count =
          std::min<std::size_t>(codegen::max_kernel_outputs, roots.size() - first);
      evaluate_fused(std::span(roots).subspan(first, count), std::span(outs).subspan(first, count));
    }
  }
};

// Adds `root` into `out` to the first of `groups` whose first tree and output it `fits`, or to
// a new group.
template <class Fits>
void add_to_group(std::vector<kernel_group>& groups, const node& root, const array& out,
                  Fits&& fits) {
  for (kernel_group& group : groups)
    if (fits(*group.roots[0], group.outs[0])) {
      group.roots.push_back(&root);
      group.outs.push_back(out);
      return;
    }
  groups.push_back({{&root}, {out}});
}

// Moves the trees of `group` (of one shape) that a pass can store into that pass, which then
// stores their elements as it reads them (jet::evaluate(y, jet::sum(y)) reads once).
void move_into_passes(kernel_group& group, std::vector<kernel_group>& passes) {
  kernel_group rest;
  for (std::size_t k = 0; k < group.roots.size(); ++k) {
    const auto pass = std::find_if(passes.begin(), passes.end(), [&](const kernel_group& p) {
      return stored_by_pass(*p.roots[0], *group.roots[k], group.outs[k]);
    });
    kernel_group& into = pass == passes.end() ? rest : *pass;
    into.roots.push_back(group.roots[k]);
    into.outs.push_back(group.outs[k]);
  }
  group = std::move(rest);
}

}  // namespace

bool stored_by_pass(const node& reduction, const node& tree, const array& out) {
  const shape& read = reduction.args[0]->extents();
  return tree.op != op_code::reduce && !tree.contains_reduction && tree.extents() == read &&
         out.shape() == read;
}

node_ptr without_inner_reductions(const node& root, array (*value_of)(const node&)) {
  replaced_nodes done;
  return strip_reductions(root, value_of, done);
}

bool joins_a_pass(const node& root, const array& out) {
  if (root.op != op_code::reduce || out.size() == 0 || !(out.shape() == root.extents()))
    return false;
  const reduce_spec& spec = spec_of(root);
  return !spec.scan && !root.args[0]->contains_reduction &&
         codegen::shares_a_pass(spec.op, root.args[0]->type);
}

bool same_pass(const node& a, const node& b) {
  const reduce_spec &x = spec_of(a), &y = spec_of(b);
  return x.axes == y.axes && x.keepdims == y.keepdims &&
         a.args[0]->extents() == b.args[0]->extents();
}

void evaluate_together(std::span<const node_ptr> roots, std::span<const array> outs) {
  if (roots.size() == 1) return evaluate(*roots[0], outs[0]);
  std::vector<node_ptr> stripped;    // owns the trees with their reductions replaced
  std::vector<kernel_group> shapes;  // trees without reductions, a group per output shape
  std::vector<kernel_group> passes;  // reductions sharing a pass
  replaced_nodes done;               // a reduction two trees share is computed once
  for (std::size_t k = 0; k < roots.size(); ++k) {
    const node& root = *roots[k];
    const array& out = outs[k];
    check_devices(root, out);
    if (joins_a_pass(root, out)) {
      add_to_group(passes, root, out,
                   [&](const node& r, const array&) { return same_pass(r, root); });
    } else if (out.size() == 0 || root.op == op_code::reduce) {
      evaluate(root, out);  // a reduction of its own
    } else {
      if (root.contains_reduction) stripped.push_back(strip_reductions(root, evaluated, done));
      add_to_group(shapes, root.contains_reduction ? *stripped.back() : root, out,
                   [&](const node&, const array& o) { return o.shape() == out.shape(); });
    }
  }
  for (kernel_group& group : shapes) {
    move_into_passes(group, passes);
    if (!group.roots.empty()) group.run();
  }
  for (const kernel_group& pass : passes) pass.run();
}

array as_array(const expr& e) {
  const node& n = *e.node();
  return n.op == op_code::input ? n.value() : array(e);
}

void evaluate(const node& root, const array& out) {
  if (out.size() == 0) {
    evaluate_unread_powers(root);
    return;
  }
  check_devices(root, out);
  const bool reduction = root.op == op_code::reduce;
  if (reduction && !(out.shape() == root.extents())) {
    // Assigned into a view it broadcasts to: reduce once, then copy across.
    evaluate(*make_input(evaluated(root)), out);
    return;
  }
  if (reduction ? root.args[0]->contains_reduction : root.contains_reduction) {
    evaluate(*without_inner_reductions(root, evaluated), out);
    return;
  }
  // Per-thread scratch: a cache hit allocates nothing.
  thread_local ir::graph g;
  thread_local codegen::kernel_plan plan;
  const int sms = reduction ? device::current().multiprocessors : 0;
  const codegen::lowering lowered = codegen::lower(root, out, sms, g, plan);
  check_evaluable(g);
  if (lowered != codegen::lowering::one_kernel) {
    // Too much for one kernel: a part of it runs first.
    evaluate(reduction ? *reduction_of_value(root) : *split_largest(root), out);
    return;
  }
  run_plan(plan);
}

}  // namespace jet::detail
