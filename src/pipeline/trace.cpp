// JET_DEBUG's lines.
#include "src/pipeline/trace.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>

namespace jet::detail {

int read_debug_level() {
  const char* v = std::getenv("JET_DEBUG");
  return v ? std::atoi(v) : 0;
}

void print_trace(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::fputs("[jet] ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

}  // namespace jet::detail
