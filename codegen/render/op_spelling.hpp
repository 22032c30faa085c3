// How each op is written in CUDA C, by the kind of dtype it computes in.
#pragma once

#include "codegen/expr/node.hpp"

namespace jet::codegen {

// Templates: $0 $1 $2 are operands, $T the value type, $R its real type, $f the suffix of
// single-precision math functions ("f" or ""). Null where the op has no loop of that kind.
// The jet_ functions a template calls are helpers of preamble.hpp's table: a kernel's source
// holds the helpers its ops name.
struct op_spelling {
  const char* boolean;
  const char* integer;
  const char* floating;
  const char* complex;
};

const op_spelling& spelling(detail::op_code op);

}  // namespace jet::codegen
