// Fuzzes jet-cache's command line (tools/jet-cache/args.cpp) and its size and duration parsers.
// An input is the arguments, separated by NUL bytes. Each argument is parsed as a duration and
// as a size and compared with the grammar and bounds their documentation states (digits, an
// optional unit, nothing after it; a duration fits int64 nanoseconds, a size fits 64 bits); an
// accepted value spelled back parses to itself. The whole line parses or throws usage_error.
#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/cache/disk_cache.hpp"
#include "tests/fuzz/fuzz_check.hpp"
#include "tools/jet-cache/args.hpp"

namespace {

using jet::fuzz::require;
using wide = unsigned __int128;

// The leading decimal number of `text` (which loses it), capped above 2^64; nullopt for none.
std::optional<wide> take_number(std::string_view& text) {
  std::size_t digits = 0;
  wide value = 0;
  for (; digits < text.size() && text[digits] >= '0' && text[digits] <= '9'; ++digits)
    if (value <= std::numeric_limits<std::uint64_t>::max())
      value = value * 10 + static_cast<unsigned>(text[digits] - '0');
  if (digits == 0) return std::nullopt;
  text.remove_prefix(digits);
  return value;
}

// "45", "45s", "10m", "2h", "7d", "1w", as seconds, while its nanoseconds fit in int64.
std::optional<std::int64_t> expected_duration(std::string_view text) {
  const std::optional<wide> count = take_number(text);
  if (!count) return std::nullopt;
  std::int64_t unit = 0;
  if (text.empty() || text == "s")
    unit = 1;
  else if (text == "m")
    unit = 60;
  else if (text == "h")
    unit = 3600;
  else if (text == "d")
    unit = 86400;
  else if (text == "w")
    unit = 7 * 86400;
  else
    return std::nullopt;
  const wide seconds = *count * static_cast<wide>(unit);
  if (seconds * 1000000000 > static_cast<wide>(std::numeric_limits<std::int64_t>::max()))
    return std::nullopt;
  return static_cast<std::int64_t>(seconds);
}

// "1048576", "512K", "64M", "1G", "2GiB" (binary units, either case, then B or iB or nothing),
// while it fits in 64 bits.
std::optional<std::uint64_t> expected_size(std::string_view text) {
  const std::optional<wide> count = take_number(text);
  if (!count) return std::nullopt;
  int shift = 0;
  if (!text.empty()) {
    const std::string_view units = "KMGTkmgt";
    const std::size_t unit = units.find(text[0]);
    const std::string_view rest = text.substr(1);
    if (unit == units.npos || !(rest.empty() || rest == "B" || rest == "iB")) return std::nullopt;
    shift = 10 * static_cast<int>(unit % 4 + 1);
  }
  const wide bytes = *count << shift;
  if (bytes > std::numeric_limits<std::uint64_t>::max()) return std::nullopt;
  return static_cast<std::uint64_t>(bytes);
}

std::optional<std::int64_t> parsed_duration(std::string_view text) {
  try {
    return jet::cli::parse_duration(text).count();
  } catch (const jet::cli::usage_error& e) {
    require(
        std::string_view(e.what()).find("'" + std::string(text) + "'") != std::string_view::npos,
        "a refused duration's message quotes it");
    return std::nullopt;
  }
}

void check_value_parsers(std::string_view text) {
  const std::optional<std::int64_t> seconds = parsed_duration(text);
  require(seconds == expected_duration(text),
          "parse_duration accepts exactly the documented durations, with their value");
  if (seconds)
    require(parsed_duration(std::to_string(*seconds) + "s") == seconds,
            "an accepted duration spelled in seconds parses to itself");
  const std::optional<std::uint64_t> bytes = jet::detail::parse_byte_size(text);
  require(bytes == expected_size(text),
          "parse_byte_size accepts exactly the documented sizes, with their value");
  if (bytes)
    require(jet::detail::parse_byte_size(std::to_string(*bytes)) == bytes,
            "an accepted size spelled in bytes parses to itself");
}

bool was_given(const jet::cli::invocation& inv, std::string_view option) {
  for (const std::string& given : inv.given)
    if (given == option) return true;
  return false;
}

void check_command_line(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (std::string& arg : args) argv.push_back(arg.data());
  argv.push_back(nullptr);
  jet::cli::invocation inv;
  try {
    inv = jet::cli::parse_command_line(static_cast<int>(args.size()), argv.data());
  } catch (const jet::cli::usage_error& e) {
    require(*e.what() != 0, "a refused command line has a message");
    return;
  }
  require(inv.given.size() < args.size(), "each option given is one of the arguments");
  require(!inv.max_bytes || was_given(inv, "--max-bytes"), "a size comes from --max-bytes");
  require(!inv.older_than || was_given(inv, "--older-than"), "a duration comes from --older-than");
  require(!inv.older_than || expected_duration(std::to_string(inv.older_than->count())),
          "a duration given is within its bound");
  require(!was_given(inv, "--dir") || !inv.dir.empty(), "--dir names a folder");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> args = {"jet-cache"};
  for (std::size_t start = 0; start <= text.size();) {
    const std::size_t end = std::min(text.find('\0', start), text.size());
    args.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  for (std::size_t k = 1; k < args.size(); ++k) check_value_parsers(args[k]);
  check_command_line(args);
  return 0;
}
