// JET_DEBUG's lines.
#include "src/pipeline/trace.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace jet::detail {

int debug_level() {
  static const int level = [] {
    const char* v = std::getenv("JET_DEBUG");
    return v ? std::atoi(v) : 0;
  }();
  return level;
}

void trace(int level, const char* format, ...) {
  if (debug_level() < level) return;
  std::va_list args;
  va_start(args, format);
  std::fputs("[jet] ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

}  // namespace jet::detail
