// jet-cache, run as a user would.
#include <array>
#include <cstdio>
#include <memory>
#include <string>

#include "support/catch.hpp"

namespace {

struct outcome {
  int status;
  std::string output;
};

outcome run(const std::string& command) {
  std::string output;
  std::FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  REQUIRE(pipe);
  std::array<char, 256> chunk{};
  while (std::fgets(chunk.data(), chunk.size(), pipe)) output += chunk.data();
  const int status = pclose(pipe);
  return {WEXITSTATUS(status), output};
}

}  // namespace

TEST_CASE("jet-cache path follows JET_CACHE_DIR, XDG_CACHE_HOME, then HOME", "[host][cli]") {
  const std::string tool = JET_CACHE_TOOL;
  CHECK(run("JET_CACHE_DIR=/tmp/jc " + tool + " path").output == "/tmp/jc\n");
  CHECK(run("env -u JET_CACHE_DIR XDG_CACHE_HOME=/tmp/xdg " + tool + " path").output == "/tmp/xdg/jet/kernels\n");
  CHECK(run("env -u JET_CACHE_DIR -u XDG_CACHE_HOME HOME=/home/u " + tool + " path").output ==
        "/home/u/.cache/jet/kernels\n");
}

TEST_CASE("jet-cache exits 2 on usage errors and 0 on --help", "[host][cli]") {
  const std::string tool = JET_CACHE_TOOL;
  CHECK(run(tool).status == 2);
  const outcome bad = run(tool + " frobnicate");
  CHECK(bad.status == 2);
  CHECK(bad.output.find("unknown command 'frobnicate'") != std::string::npos);
  CHECK(run(tool + " --help").status == 0);
  CHECK(run(tool + " path --help").status == 0);
}
