// Parsing jet-cache's command line.
#include "tools/jet-cache/args.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <iterator>
#include <limits>
#include <utility>

#include "src/cache/directory.hpp"
#include "src/cache/disk_cache.hpp"

namespace jet::cli {
namespace {

bool takes_value(std::string_view name) {
  return name == "--dir" || name == "--max-bytes" || name == "--older-than" || name == "--arch";
}

void apply(invocation& inv, std::string_view name, const std::string& value) {
  if (name == "--json")
    inv.json = true;
  else if (name == "--fix")
    inv.fix = true;
  else if (name == "--help" || name == "-h")
    inv.help = true;
  else if (name == "--dir")
    inv.dir = value;
  else if (name == "--arch")
    inv.arch = value;
  else if (name == "--older-than")
    inv.older_than = parse_duration(value);
  else if (name == "--max-bytes") {
    inv.max_bytes = detail::parse_byte_size(value);
    if (!inv.max_bytes)
      throw usage_error("--max-bytes wants a size such as 500M or 1073741824, not '" + value + "'");
  } else {
    throw usage_error("unknown option '" + std::string(name) + "'");
  }
}

}  // namespace

std::chrono::seconds parse_duration(std::string_view text) {
  const auto not_duration = [&] {
    return usage_error("'" + std::string(text) +
                       "' is not a duration such as 30s, 10m, 2h, 7d or 2w");
  };
  std::size_t i = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
  const std::string_view digits = text.substr(0, i), unit = text.substr(i);
  static constexpr std::pair<std::string_view, std::int64_t> units[] = {
      {"", 1}, {"s", 1}, {"m", 60}, {"h", 3600}, {"d", 86400}, {"w", 7 * 86400}};
  const auto u = std::find_if(std::begin(units), std::end(units),
                              [&](const auto& row) { return row.first == unit; });
  if (digits.empty() || u == std::end(units)) throw not_duration();
  // The cutoff is kept in int64 nanoseconds: about 292 years at most.
  const std::int64_t most = std::numeric_limits<std::int64_t>::max() / 1000000000 / u->second;
  std::int64_t count = 0;
  for (char c : digits) {
    count = count * 10 + (c - '0');
    if (count > most)
      throw usage_error(fmt::format("'{}' is longer than jet-cache can count: at most {}{}", text,
                                    most, u->first.empty() ? "s" : u->first));
  }
  return std::chrono::seconds(count * u->second);
}

invocation parse_command_line(int argc, char** argv) {
  invocation inv;
  bool dir_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg.size() < 2 || arg[0] != '-') {
      if (inv.command.empty())
        inv.command = arg;
      else
        inv.operands.emplace_back(arg);
      continue;
    }
    const auto equals = arg.find('=');
    const std::string_view name = arg.substr(0, equals);
    std::string value;
    if (takes_value(name)) {
      if (equals != std::string_view::npos)
        value = arg.substr(equals + 1);
      else if (i + 1 < argc)
        value = argv[++i];
      else
        throw usage_error(std::string(name) + " needs a value");
    } else if (equals != std::string_view::npos) {
      throw usage_error(std::string(name) + " takes no value");
    }
    apply(inv, name, value);
    inv.given.emplace_back(name);
    dir_given = dir_given || name == "--dir";
  }
  if (dir_given && inv.dir.empty()) throw usage_error("--dir needs a folder");
  if (!dir_given) inv.dir = detail::cache_directory();
  return inv;
}

}  // namespace jet::cli
