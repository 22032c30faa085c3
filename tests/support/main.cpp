// Test runner for both executables. The GPU executable, built with JET_GPU_TESTS, exits with
// ctest's skip code (77) when there is no device, so CI reports its tests skipped, not passed.
#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#endif

#include <cstdio>
#include <string_view>

#ifdef JET_GPU_TESTS
#include "jet/device.hpp"
#endif

int main(int argc, char** argv) {
#ifdef JET_GPU_TESTS
  bool listing = false;
  for (int i = 1; i < argc; ++i)
    listing = listing || std::string_view(argv[i]).rfind("--list", 0) == 0;
  if (!listing && !jet::device::available()) {
    std::printf("%s: GPU test skipped\n", jet::device::unavailable_reason().c_str());
    return 77;
  }
#endif
  return Catch::Session().run(argc, argv);
}
