// Times, sizes and progress for jet-cache.
#include "tools/jet-cache/output.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <ctime>

namespace jet::cli {

void print_json(const json& document) {
  const std::string text = document.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
  std::fwrite(text.data(), 1, text.size(), stdout);
}

std::string format_time(std::int64_t unix_seconds) {
  const std::time_t t = static_cast<std::time_t>(unix_seconds);
  std::tm utc{};
  gmtime_r(&t, &utc);
  char text[32];
  return std::string(text, std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc));
}

std::string format_bytes(std::uint64_t bytes) {
  if (bytes < 1024) return fmt::format("{} B", bytes);
  static constexpr const char* units[] = {"KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes) / 1024;
  int unit = 0;
  for (; value >= 1024 && unit < 3; ++unit) value /= 1024;
  return fmt::format("{:.1f} {}", value, units[unit]);
}

progress::progress(std::string what, std::string unit)
    : what_(std::move(what)),
      unit_(std::move(unit)),
      next_(std::chrono::steady_clock::now() + std::chrono::seconds(1)) {}

void progress::update(std::size_t done, std::size_t total) {
  const auto now = std::chrono::steady_clock::now();
  if (now < next_) return;
  next_ = now + std::chrono::seconds(1);
  print(done, total);
}

void progress::finish(std::size_t done, std::size_t total) {
  if (printed_) print(done, total);
}

void progress::print(std::size_t done, std::size_t total) {
  printed_ = true;
  fmt::print(stderr, "jet-cache {}: {}/{} {}\n", what_, done, total, unit_);
  std::fflush(stderr);
}

}  // namespace jet::cli
