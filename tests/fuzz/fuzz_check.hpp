// What every fuzz target uses to state a property: a violation stops the run as a finding,
// and libFuzzer saves the input that caused it.
#pragma once

#include <cstdio>
#include <cstdlib>

namespace jet::fuzz {

inline void require(bool holds, const char* property) {
  if (holds) return;
  std::fprintf(stderr, "fuzz property violated: %s\n", property);
  std::abort();
}

}  // namespace jet::fuzz
