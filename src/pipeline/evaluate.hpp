// Evaluating expressions: what cannot be one kernel is rewritten until it is, then each kernel
// is lowered to a plan and run (src/pipeline/run_plan.hpp).
#pragma once

#include <span>

#include "codegen/expr/node.hpp"
#include "jet/array.hpp"
#include "jet/expr.hpp"

namespace jet::detail {

// Computes `root` into `out` (same shape; a reduction's may broadcast to it); `out` must not
// overlap the operands except element for element.
void evaluate(const node& root, const array& out);

// Computes each of `roots` into the output of the same index: the trees of each output shape
// in one kernel that reads each shared operand once and computes what the trees share once
// (more than codegen::max_kernel_outputs: in several), and reductions that share a pass
// (joins_a_pass, same_pass) in one kernel, with the trees of their producers' shape
// (stored_by_pass); other reductions at a root run as kernels of their own, and a reduction
// inside several trees is computed once. The outputs must not overlap the operands, nor each
// other (the caller stages what does).
void evaluate_together(std::span<const node_ptr> roots, std::span<const array> outs);

// Whether the reduction `root`, written into `out`, can share its pass with other reductions
// (codegen::shares_a_pass, no scan, no reduction inside, `out` of its shape and not empty); and
// whether two such can be one kernel (producers of one shape, the same axes and keepdims).
bool joins_a_pass(const node& root, const array& out);
bool same_pass(const node& a, const node& b);
// Whether the pass of `reduction` can store the elements of `tree` (with its inner reductions
// replaced) into `out`: both of the shape the pass reads.
bool stored_by_pass(const node& reduction, const node& tree, const array& out);

// The array `e` reads when it is nothing but one (no copy), else `e` evaluated into a new one.
array as_array(const expr& e);

// Writes `values` into `view` (of the iteration space's shape) at each element's position plus
// `offset` (int64, in elements), stored or combined atomically with what is there by `combine`:
// advanced indexing's scatter. `view` must not be read by the operands (indexing.cpp stages
// what reads it). With `bins` > 0, every offset is in [0, bins) and every stride of `view` 0
// (a histogram's counts): few bins are added in shared memory first.
void evaluate_scatter(const node& values, const node& offset, const array& view,
                      scatter_op combine = scatter_op::store, std::int64_t bins = 0);

// `root` with each reduction below it replaced by an input reading `value_of(reduction)`
// (root stays a reduction if it is one): a reduction cannot fuse into the kernel that consumes
// it. A reduction used twice is replaced once.
node_ptr without_inner_reductions(const node& root, array (*value_of)(const node&));

// What Jet does for `root` written into a fresh array, for jet::explain.
explanation explain(const node& root);
// The same for several trees of one shape, none a reduction, or several reductions that share
// a pass with trees of their producers' shape: the one kernel computing them (jet::evaluate's;
// its outputs the reductions', then the trees'). Throws jet::value_error for other lists.
explanation explain(std::span<const node_ptr> roots);

}  // namespace jet::detail
