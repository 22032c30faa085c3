// Evaluating expressions: the pipeline driver.
#pragma once

#include <cuda_runtime.h>

#include <memory>

#include "codegen/ir/ir.hpp"
#include "jet/array.hpp"
#include "codegen/expr/node.hpp"
#include "jet/expr.hpp"
#include "src/device/loaded_kernel.hpp"
#include "src/device/memory.hpp"

namespace jet::detail {

// Computes `root` into `out` (same shape) with one fused kernel; `out` must not overlap
// the operands except element for element.
void evaluate(const node& root, const array& out);

// The launch of a reduction kernel over g's reduction (Jet's own, and user reduction
// kernels): chunks planned for `kernel`'s occupancy (codegen::plan_chunks), and room for the
// partial states: the stream's scratch, else `work`, allocated here. Sets g.reduce.work and
// .counters; returns the grid, blocks of outputs by chunks.
dim3 plan_reduction_launch(ir::reduction_geometry& r, const loaded_kernel& kernel, std::shared_ptr<buffer>& work);

// The rendered kernel for `root` written into a fresh array, for jet::explain.
explanation explain(const node& root);

}  // namespace jet::detail
