// Host arithmetic in a floating dtype, where NumPy computes with scalars of the array's dtype.
#pragma once

#include "jet/dtype.hpp"

namespace jet::detail {

// `v` rounded to the floating dtype t (float16, bfloat16 and float32 round; float64 keeps it).
inline double rounded(double v, dtype t) {
  if (t == float32) return static_cast<float>(v);
  if (t == float16) return static_cast<float>(float16_t(static_cast<float>(v)));
  if (t == bfloat16) return static_cast<float>(bfloat16_t(static_cast<float>(v)));
  return v;
}

}  // namespace jet::detail
