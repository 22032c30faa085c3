// numpy.tensordot, dot and inner as one matrix product: each operand's axes permuted (free
// then summed for a, summed then free for b) and reshaped to a matrix, the product reshaped back.
#pragma once

#include <cstdint>

#include "jet/shape.hpp"

namespace jet::codegen {

struct contraction {
  shape a_order, b_order;            // the permutations of a's and b's axes
  std::int64_t m = 1, k = 1, n = 1;  // a as (m, k), b as (k, n)
  shape result;                      // a's free extents, then b's
};

// tensordot over a_axes[i] of a against b_axes[i] of b, with NumPy's errors ("shape-mismatch
// for sum", "duplicate axes are not allowed in tensordot"; jet::index_error out of range).
contraction tensordot_contraction(const shape& a, const shape& b, const shape& a_axes,
                                  const shape& b_axes);
// tensordot over a's last `axes` axes and b's first `axes`.
contraction tensordot_contraction(const shape& a, const shape& b, std::int64_t axes);
// numpy.dot of operands with at least one axis: a's last axis against b's second-to-last (its
// only one when 1-D); NumPy's "shapes (2,3) and (4,5) not aligned: ..." on a mismatch.
contraction dot_contraction(const shape& a, const shape& b);
// numpy.inner of operands with at least one axis: the last axes of both.
contraction inner_contraction(const shape& a, const shape& b);

}  // namespace jet::codegen
