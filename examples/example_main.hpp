// The main() of the user-kernel examples: "skipped" and success without a GPU (as tour.cpp
// does), else `run()`'s exit code, or 1 with the message of a jet::error.
#pragma once

#include <cstdio>

#include <jet/jet.hpp>

template <class Run>
int example_main(const char* name, Run&& run) {
  if (!jet::device::available()) {
    std::printf("%s: %s skipped.\n", jet::device::unavailable_reason().c_str(), name);
    return 0;
  }
  try {
    return run();
  } catch (const jet::error& e) {
    std::fprintf(stderr, "jet error: %s\n", e.what());
    return 1;
  }
}
