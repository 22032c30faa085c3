// numpy.matmul's shape rule, for the cuBLAS-backed products.
#pragma once

#include "jet/shape.hpp"

namespace jet::codegen {

// The shape of matmul(a, b): 1-D operands gain an axis that the result drops again; the
// leading (batch) axes broadcast. Throws jet::value_error with NumPy's message for a 0-d
// operand, a core-dimension mismatch, or batch axes that do not broadcast.
shape matmul_shape(const shape& a, const shape& b);

}  // namespace jet::codegen
