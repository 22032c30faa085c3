// Listing and verifying the whole cache.
#include "src/cache/inspect.hpp"

#include <algorithm>
#include <set>

#include "src/cache/disk_cache.hpp"

namespace jet::detail {
namespace {

// A scan's problem as a bad entry: its path, and its key when it is named like an entry.
bad_entry bad_of(const scan_problem& p, bool removed) {
  cache_file file;
  file.key = p.key;
  file.path = p.path;
  return {std::move(file), p.problem, removed};
}

bool by_path(const bad_entry& a, const bad_entry& b) { return a.file.path < b.file.path; }

}  // namespace

cache_listing list_entries(const std::string& dir) {
  cache_listing out;
  cache_scan scan = scan_cache(dir);
  for (cache_file& f : scan.entries) {
    entry_header header;
    const entry_check check = read_entry_header(f.path, header);
    if (check.status == entry_status::missing) continue;  // removed since the scan
    if (!check)
      out.bad.push_back({std::move(f), check.problem, false});
    else if (header.key != f.key)
      out.bad.push_back({std::move(f), "holds the entry of key " + header.key, false});
    else
      out.entries.push_back({std::move(f), std::move(header)});
  }
  for (const scan_problem& p : scan.problems) out.bad.push_back(bad_of(p, false));
  std::sort(out.entries.begin(), out.entries.end(), [](const entry_info& a, const entry_info& b) {
    return a.file.last_used_ns != b.file.last_used_ns ? a.file.last_used_ns > b.file.last_used_ns
                                                      : a.file.key < b.file.key;
  });
  std::sort(out.bad.begin(), out.bad.end(), by_path);
  return out;
}

verify_report verify(const std::string& dir, bool fix,
                     const std::function<void(std::size_t, std::size_t)>& progress) {
  verify_report report;
  const cache_scan scan = scan_cache(dir);
  std::vector<cache_file> files = scan.entries;
  std::sort(files.begin(), files.end(),
            [](const cache_file& a, const cache_file& b) { return a.key < b.key; });
  std::set<std::string> folders;
  if (!files.empty()) folders.insert(dir);
  for (const cache_file& f : files) {
    cache_entry entry;
    const entry_check check = read_entry(f.path, f.key, entry, false);
    if (check.status != entry_status::missing) {
      ++report.checked;
      folders.insert(f.path.substr(0, f.path.size() - f.key.size() - 1));
    }
    if (!check && check.status != entry_status::missing) {
      const bool removed = fix && remove_entry_file(dir, f.key) == 0;
      report.bad.push_back({f, check.problem, removed});
      report.removed += removed;
    }
    progress(report.checked, files.size());
  }
  // Links and stray files are removed themselves, never what they point at; folders that
  // cannot be read are only reported.
  for (const scan_problem& p : scan.problems) {
    const bool removed = fix && remove_misplaced(dir, p) == 0;
    report.bad.push_back(bad_of(p, removed));
    report.removed += removed;
  }
  for (const std::string& folder : folders)
    if (const std::string why = unsafe_folder_reason(folder); !why.empty())
      report.unsafe_folders.push_back(folder + " is " + why);
  return report;
}

}  // namespace jet::detail
