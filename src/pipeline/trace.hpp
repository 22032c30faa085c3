// JET_DEBUG: what the pipeline says about its stages on stderr.
#pragma once

namespace jet::detail {

// JET_DEBUG's value, read once.
int read_debug_level();
// JET_DEBUG's level: 0 quiet, 1 the stages of each kernel that has to be built (render,
// compile or disk load, load) with their times, 2 also its source, 3 every stage of every
// launch (key, look-up, launch size, packing, launch).
inline int debug_level() {
  static const int level = read_debug_level();
  return level;
}
// Prints "[jet] " and the formatted line on stderr.
[[gnu::format(printf, 1, 2)]] void print_trace(const char* format, ...);
// The same when JET_DEBUG is at least `level`: a quiet run pays one comparison.
template <class... Args>
void trace(int level, const char* format, Args... args) {
  if (debug_level() >= level) print_trace(format, args...);
}

}  // namespace jet::detail
