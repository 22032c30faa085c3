// How jet-cache spells times and sizes, and its progress lines.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace jet::cli {

// --json output keeps its members in the order they are added.
using json = nlohmann::ordered_json;
// Prints `document` and a newline on stdout; text that is not UTF-8 shows as U+FFFD.
void print_json(const json& document);

// "2025-11-30T03:29:00Z".
std::string format_time(std::int64_t unix_seconds);
// "812 B", "3.1 KiB", "1.0 GiB".
std::string format_bytes(std::uint64_t bytes);

// Progress on stderr for work that runs past a second: silent for quick runs, then one
// line a second, and a last line when done.
class progress {
 public:
  progress(std::string what, std::string unit);
  // Reports `done` of `total`; prints only when a second has passed since the last line.
  void update(std::size_t done, std::size_t total);
  // Prints the final count if any line was printed.
  void finish(std::size_t done, std::size_t total);

 private:
  void print(std::size_t done, std::size_t total);
  std::string what_;
  std::string unit_;
  std::chrono::steady_clock::time_point next_;
  bool printed_ = false;
};

}  // namespace jet::cli
