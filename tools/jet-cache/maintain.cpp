// jet-cache verify, prune and clear: checking and shrinking the cache.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>

#include "src/cache/directory.hpp"
#include "src/cache/inspect.hpp"
#include "tools/jet-cache/commands.hpp"
#include "tools/jet-cache/output.hpp"
#include "tools/jet-cache/safety.hpp"

namespace jet::cli {
namespace {

// Names on stderr what a removal had to leave (the first few of many): the exit status, 1
// when anything was left.
int report_failures(std::string_view command, const detail::removal& r) {
  constexpr std::size_t shown = 10;
  for (std::size_t i = 0; i < std::min(shown, r.failures.size()); ++i)
    fmt::print(stderr, "jet-cache {}: {} {}\n", command, r.failures[i].path, r.failures[i].problem);
  if (r.failures.size() > shown)
    fmt::print(stderr, "jet-cache {}: and {} more that cannot be removed\n", command,
               r.failures.size() - shown);
  return r.failures.empty() ? 0 : 1;
}

}  // namespace

int run_verify(const invocation& inv) {
  if (inv.fix && refuse_unsafe(inv, "fixing")) return 1;
  progress shown("verify", "entries");
  const detail::verify_report report = detail::verify(
      inv.dir, inv.fix, [&](std::size_t done, std::size_t total) { shown.update(done, total); });
  shown.finish(report.checked, report.checked);
  const std::size_t left = report.bad.size() - report.removed + report.unsafe_folders.size();
  if (inv.json) {
    json bad = json::array();
    for (const detail::bad_entry& b : report.bad)
      bad.push_back({{"key", b.file.key},
                     {"path", b.file.path},
                     {"problem", b.problem},
                     {"removed", b.removed}});
    print_json({{"directory", inv.dir},
                {"checked", report.checked},
                {"bad", bad},
                {"removed", report.removed},
                {"unsafe_folders", report.unsafe_folders},
                {"ok", left == 0}});
    return left == 0 ? 0 : 1;
  }
  std::string out;
  auto to = std::back_inserter(out);
  for (const detail::bad_entry& b : report.bad)
    fmt::format_to(to, "bad {}: {}{}\n", b.file.key.empty() ? b.file.path : b.file.key, b.problem,
                   b.removed ? " (removed)" : "");
  for (const std::string& folder : report.unsafe_folders)
    fmt::format_to(to, "unsafe folder: {}; Jet loads nothing from it ({} to fix)\n", folder,
                   repair_hint(folder));
  fmt::format_to(to, "checked {} entries: {} bad", report.checked, report.bad.size());
  if (inv.fix) fmt::format_to(to, ", {} removed", report.removed);
  if (!report.unsafe_folders.empty())
    fmt::format_to(to, ", {} unsafe folders", report.unsafe_folders.size());
  out += "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return left == 0 ? 0 : 1;
}

int run_prune(const invocation& inv) {
  if (!inv.max_bytes && !inv.older_than)
    throw usage_error("prune needs --max-bytes, --older-than, or both");
  if (refuse_unsafe(inv, "pruning")) return 1;
  const detail::removal r = detail::prune(inv.dir, inv.max_bytes, inv.older_than);
  fmt::print("removed {} entries ({}); {} entries ({}) left\n", r.entries, format_bytes(r.bytes),
             r.kept, format_bytes(r.kept_bytes));
  return report_failures("prune", r);
}

int run_clear(const invocation& inv) {
  if (refuse_unsafe(inv, "clearing")) return 1;
  const detail::removal r = detail::clear(inv.dir);
  fmt::print("removed {} entries ({}) from {}", r.entries, format_bytes(r.bytes), inv.dir);
  if (r.kept) fmt::print("; {} entries ({}) left", r.kept, format_bytes(r.kept_bytes));
  fmt::print("\n");
  return report_failures("clear", r);
}

}  // namespace jet::cli
