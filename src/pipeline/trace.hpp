// JET_DEBUG: what the pipeline says about its stages on stderr.
#pragma once

namespace jet::detail {

// JET_DEBUG's level: 0 quiet, 1 the stages of each kernel that has to be built (render,
// compile or disk load, load) with their times, 2 also its source, 3 every stage of every
// launch (key, look-up, launch size, packing, launch).
int debug_level();
// Prints "[jet] " and the formatted line on stderr when JET_DEBUG is at least `level`.
[[gnu::format(printf, 2, 3)]] void trace(int level, const char* format, ...);

}  // namespace jet::detail
