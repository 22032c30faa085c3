// A join of a few elementwise expressions written by one kernel over the whole result.
#pragma once

#include <span>

#include "codegen/expr/node.hpp"
#include "jet/expr.hpp"

namespace jet::detail {

// A part of a join: its value, and the shape it joins with (its own, or its atleast_*d form).
struct join_part {
  expr value;
  shape joined;
};

// The most parts one kernel joins: each element evaluates every part's expression (only its
// own part's reads happen), so more parts would cost more arithmetic than launches save.
inline constexpr std::ptrdiff_t fused_join_parts = 4;

// The parts joined along `axis` into `joined` (the result's shape) as `t`, in one expression
// that reads each part's arrays only in its slab of the result. Null where that is not one
// kernel: a result with no elements, too many parts, a part that holds a reduction, a gather,
// an element index or an op costlier than a read (a division, a transcendental function), or
// one that reads an array across its rows (a transposed part).
node_ptr fused_join(std::span<const join_part> parts, int axis, const shape& joined, dtype t);

}  // namespace jet::detail
