// NumPy's order of the dtypes, smallest first: promote_types and a ufunc's loop search both
// take the first dtype in it that every operand casts to safely.
#pragma once

#include "jet/dtype.hpp"

namespace jet::detail {

inline constexpr dtype safe_cast_order[dtype_count] = {
    dtype::bool_,    dtype::int8,    dtype::uint8,   dtype::int16,     dtype::uint16,
    dtype::int32,    dtype::uint32,  dtype::int64,   dtype::uint64,    dtype::float16,
    dtype::bfloat16, dtype::float32, dtype::float64, dtype::complex64, dtype::complex128,
};

}  // namespace jet::detail
