// Refusing folders Jet would not load from.
#include "tools/jet-cache/safety.hpp"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <string>

#include "src/cache/directory.hpp"

namespace jet::cli {

std::string_view repair_hint(std::string_view reason) {
  return reason.find("owned by") != std::string_view::npos ? "chown it to you or root"
                                                           : "chmod go-w";
}

bool refuse_unsafe(const invocation& inv, std::string_view what) {
  struct stat st {};
  if (stat(inv.dir.c_str(), &st) != 0 && errno == ENOENT) return false;  // nothing to change
  const std::string why = detail::unsafe_folder_reason(inv.dir);
  if (why.empty()) return false;
  fmt::print(stderr, "jet-cache: not {} {}: it is {}, so Jet loads nothing from it ({} to fix)\n",
             what, inv.dir, why, repair_hint(why));
  return true;
}

}  // namespace jet::cli
