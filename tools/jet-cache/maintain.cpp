// jet-cache verify, prune and clear: checking and shrinking the cache.
#include <fmt/format.h>

#include <cstdio>
#include <iterator>

#include "src/cache/directory.hpp"
#include "src/cache/inspect.hpp"
#include "tools/jet-cache/commands.hpp"
#include "tools/jet-cache/output.hpp"
#include "src/cache/json.hpp"

namespace jet::cli {

using detail::json::quote;

int run_verify(const invocation& inv) {
  progress shown("verify", "entries");
  const detail::verify_report report = detail::verify(
      inv.dir, inv.fix, [&](std::size_t done, std::size_t total) { shown.update(done, total); });
  shown.finish(report.checked, report.checked);
  const std::size_t left = report.bad.size() - report.removed + report.unsafe_folders.size();
  std::string out;
  auto to = std::back_inserter(out);
  if (inv.json) {
    fmt::format_to(to, "{{\"directory\":{},\"checked\":{},\"bad\":[", quote(inv.dir),
                   report.checked);
    for (std::size_t i = 0; i < report.bad.size(); ++i) {
      const detail::bad_entry& b = report.bad[i];
      fmt::format_to(to, "{}{{\"key\":{},\"path\":{},\"problem\":{},\"removed\":{}}}", i ? "," : "",
                     quote(b.file.key), quote(b.file.path), quote(b.problem), b.removed);
    }
    fmt::format_to(to, "],\"removed\":{},\"unsafe_folders\":[", report.removed);
    for (std::size_t i = 0; i < report.unsafe_folders.size(); ++i)
      fmt::format_to(to, "{}{}", i ? "," : "", quote(report.unsafe_folders[i]));
    fmt::format_to(to, "],\"ok\":{}}}\n", left == 0);
  } else {
    for (const detail::bad_entry& b : report.bad)
      fmt::format_to(to, "bad {}: {}{}\n", b.file.key, b.problem, b.removed ? " (removed)" : "");
    for (const std::string& folder : report.unsafe_folders)
      fmt::format_to(to, "unsafe folder: {}; Jet loads nothing from it (chmod go-w to fix)\n",
                     folder);
    fmt::format_to(to, "checked {} entries: {} bad", report.checked, report.bad.size());
    if (inv.fix) fmt::format_to(to, ", {} removed", report.removed);
    fmt::format_to(to, "{}\n",
                   report.unsafe_folders.empty()
                       ? ""
                       : fmt::format(", {} unsafe folders", report.unsafe_folders.size()));
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return left == 0 ? 0 : 1;
}

int run_prune(const invocation& inv) {
  if (!inv.max_bytes && !inv.older_than)
    throw usage_error("prune needs --max-bytes, --older-than, or both");
  const detail::removal r = detail::prune(inv.dir, inv.max_bytes, inv.older_than);
  fmt::print("removed {} entries ({}); {} entries ({}) left\n", r.entries, format_bytes(r.bytes),
             r.kept, format_bytes(r.kept_bytes));
  return 0;
}

int run_clear(const invocation& inv) {
  const detail::removal r = detail::clear(inv.dir);
  fmt::print("removed {} entries ({}) from {}\n", r.entries, format_bytes(r.bytes), inv.dir);
  return 0;
}

}  // namespace jet::cli
