// Evaluating expressions: the pipeline driver.
#pragma once

#include "jet/array.hpp"
#include "jet/detail/node.hpp"
#include "jet/expr.hpp"

namespace jet::detail {

// Computes `root` into `out` (same shape) with one fused kernel; `out` must not overlap
// the operands except element for element.
void evaluate(const node& root, const array& out);

// The rendered kernel for `root` written into a fresh array, for jet::explain.
explanation explain(const node& root);

}  // namespace jet::detail
