// Test runner for both executables. The GPU executable, built with JET_GPU_TESTS, exits with
// ctest's skip code (77) when there is no device, so CI reports its tests skipped, not passed.
// A filter that matches no test fails the run (exit status 2): a mistyped name or tag must not
// pass as "No tests ran". Catch2 3 does so by default; Catch2 2 only when warned of NoTests.
#if __has_include(<catch2/catch_session.hpp>)
#include <catch2/catch_session.hpp>
#else
#define CATCH_CONFIG_RUNNER
#define JET_CATCH2_2
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
  // The cases that need two devices ([multigpu]) are skipped on one.
  bool multi = false;
  for (int i = 1; i < argc; ++i) multi = multi || std::string_view(argv[i]) == "[multigpu]";
  if (!listing && multi && jet::device::count() < 2) {
    std::printf("%d CUDA device: the [multigpu] tests skipped\n", jet::device::count());
    return 77;
  }
#endif
  Catch::Session session;
  if (const int status = session.applyCommandLine(argc, argv)) return status;
#ifdef JET_CATCH2_2
  Catch::ConfigData& config = session.configData();
  config.warnings =
      static_cast<Catch::WarnAbout::What>(config.warnings | Catch::WarnAbout::NoTests);
#endif
  return session.run();
}
