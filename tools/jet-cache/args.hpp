// jet-cache's command line: a command, its operands, and options before or after it.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace jet::cli {

// A mistake on the command line: reported with a pointer to --help, exit status 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct invocation {
  std::string command;
  std::vector<std::string> operands;
  std::vector<std::string> given;  // the options given, as spelled ("--json")
  std::string dir;                 // --dir, else the cache directory of the environment
  bool json = false;
  bool fix = false;
  bool help = false;
  std::optional<std::uint64_t> max_bytes;
  std::optional<std::chrono::seconds> older_than;
  std::string arch;
};

// Parses argv (options as "--name value" or "--name=value"); throws usage_error.
invocation parse_command_line(int argc, char** argv);

// "45" or "45s", "10m", "2h", "7d", "1w"; throws usage_error otherwise.
std::chrono::seconds parse_duration(std::string_view text);

}  // namespace jet::cli
