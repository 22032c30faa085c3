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
#include "jet/distributed.hpp"

// Whether an argument of the command line selects `tag` (names it, not as ~tag).
static bool names_tag(int argc, char** argv, std::string_view tag) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg(argv[i]);
    const std::size_t at = arg.find(tag);
    if (at != std::string_view::npos && (at == 0 || arg[at - 1] != '~')) return true;
  }
  return false;
}
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
  // Filters naming what this machine lacks are skipped: [multigpu] on one device,
  // [distributed] in a build without NCCL.
  if (!listing && names_tag(argc, argv, "[multigpu]") && jet::device::count() < 2) {
    std::printf("%d CUDA device: the [multigpu] tests skipped\n", jet::device::count());
    return 77;
  }
  if (!listing && names_tag(argc, argv, "[distributed]") && !jet::distributed::available()) {
    std::printf("%s: the [distributed] tests skipped\n",
                jet::distributed::unavailable_reason().c_str());
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
