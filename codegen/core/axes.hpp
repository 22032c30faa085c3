// The axes a reduction names, checked and normalized as NumPy does.
#pragma once

#include <cstdint>

#include "jet/axes.hpp"

namespace jet::detail {

// The axes `axis` names among `ndim` as a bit mask (bit d: axis d); every axis for axis=None.
// Throws jet::index_error for an axis out of range and jet::value_error for one named twice.
std::uint32_t axis_mask(const axes& axis, int ndim);

}  // namespace jet::detail
