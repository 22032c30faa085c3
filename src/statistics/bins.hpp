// What bincount, histogram and histogramdd share: adding into bins, and what they read from
// the data on the host.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "jet/array.hpp"
#include "jet/expr.hpp"

namespace jet::detail {

// `values` (broadcast to bin's shape) added at `bin` (int64, each in [0, size)) into a new
// array of `size` elements of dtype t, by one kernel (adding into each block's bins in shared
// memory first where they fit there).
array add_into_bins(const expr& bin, const expr& values, std::int64_t size, dtype t);
// The smallest and largest value of `a` (not empty), read on the host.
std::pair<double, double> extremes(const expr& a);
// Whether the 1-D `edges` ever decrease (read on the host, a wait).
bool decreases(const array& edges);
// A double as Python prints a float: 0.5, 2.0, inf, nan.
std::string python_float(double v);

}  // namespace jet::detail
