// Every test case's name survives catch_discover_tests: CMake splits lists at ';' and does not
// split inside '[' ... ']', so one such character in a name once merged 56 GPU cases into a
// single ctest entry that ran none of them.
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>

#include "support/catch.hpp"

TEST_CASE("test case names hold no character that CMake lists split on or group by", "[host]") {
  const std::filesystem::path tests =
      std::filesystem::path(JET_TEST_DATA).parent_path().parent_path();
  const std::regex name(R"(TEST_CASE\(\s*"([^"]*)\")");
  int names = 0;
  for (const char* folder : {"host", "gpu"}) {
    for (const auto& entry : std::filesystem::directory_iterator(tests / folder)) {
      if (entry.path().extension() != ".cpp") continue;
      std::ifstream in(entry.path());
      std::stringstream text;
      text << in.rdbuf();
      const std::string source = text.str();
      for (std::sregex_iterator it(source.begin(), source.end(), name), end; it != end; ++it) {
        const std::string n = (*it)[1];
        INFO(entry.path().filename().string() << ": \"" << n << "\"");
        CHECK(n.find_first_of(";[]") == std::string::npos);
        ++names;
      }
    }
  }
  CHECK(names > 150);
}
