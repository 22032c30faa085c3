// Several results at once: jet::evaluate(e1, e2, ...) and jet::assign, one kernel per shape
// (and per pass of reductions).
#include <cstddef>
#include <span>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/expr.hpp"
#include "src/array/assignment.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

// Whether jet::assign must compute every value before writing any: a value reads another
// value's target (which a kernel of another shape, or a reduction's, may write first), or its
// own other than element for element, or two targets share memory.
bool needs_staging(std::span<const detail::node_ptr> values, std::span<const array> targets) {
  for (std::size_t k = 0; k < values.size(); ++k) {
    if (detail::reads_targets(*values[k], targets, k)) return true;
    for (std::size_t j = 0; j < k; ++j)
      if (targets[j].shares_buffer_with(targets[k])) return true;
  }
  return false;
}

}  // namespace

std::vector<array> evaluate(std::span<const expr> exprs) {
  std::vector<detail::node_ptr> values;
  std::vector<array> results;
  for (const expr& e : exprs) {
    values.push_back(e.node());
    results.push_back(empty(e.shape(), e.dtype()));
  }
  detail::evaluate_together(values, results);
  return results;
}

void assign(std::span<const assignment> list) {
  std::vector<detail::node_ptr> values;
  std::vector<array> targets;
  for (const assignment& a : list) {
    detail::check_assignable(a.value.shape(), a.target.shape(), a.target);
    values.push_back(a.value.node());
    targets.push_back(a.target);
  }
  if (needs_staging(values, targets)) {
    std::vector<expr> staged_values;
    for (const assignment& a : list) staged_values.push_back(a.value);
    const std::vector<array> staged = evaluate(staged_values);
    for (std::size_t k = 0; k < list.size(); ++k) array(list[k].target) = staged[k];
    return;
  }
  detail::evaluate_together(values, targets);
}

explanation explain(std::span<const expr> exprs) {
  std::vector<detail::node_ptr> roots;
  for (const expr& e : exprs) roots.push_back(e.node());
  return detail::explain(roots);
}

void assign(std::initializer_list<assignment> list) {
  assign(std::span<const assignment>(list.begin(), list.size()));
}

}  // namespace jet
