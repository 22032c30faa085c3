// Reduction axes as a bit mask, with NumPy's errors.
#include "codegen/core/axes.hpp"

#include "jet/error.hpp"

namespace jet::detail {

std::uint32_t axis_mask(const axes& axis, int ndim) {
  if (axis.all()) return ndim == 0 ? 0 : (std::uint32_t{1} << ndim) - 1;
  std::uint32_t mask = 0;
  for (std::int64_t a : axis.list()) {
    const int d = normalize_axis(a, ndim);
    if ((mask >> d) & 1u) throw value_error("duplicate value in 'axis'");
    mask |= std::uint32_t{1} << d;
  }
  return mask;
}

}  // namespace jet::detail
