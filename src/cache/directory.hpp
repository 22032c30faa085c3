// The kernel cache directory as files: where it is, its two-level layout, who may have
// written it, atomic writes, scans, and removal. Knows nothing of what an entry holds.
#pragma once

#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace jet::detail {

// docs/DESIGN.md's rule: $JET_CACHE_DIR, else $XDG_CACHE_HOME/jet/kernels, else
// ~/.cache/jet/kernels; "" when none of them names a folder (XDG_CACHE_HOME and HOME unset,
// empty or relative), so that the cache never lands in the current folder or in /.cache.
std::string cache_directory();
// Why cache_directory() is "", for messages.
extern const char* const no_cache_directory;

// Whether `name` is an entry's file name: 64 lower-case hex digits.
bool is_entry_name(std::string_view name);
// dir/ab/abcdef...: two levels, so that no folder holds millions of files.
std::string entry_path(const std::string& dir, const std::string& key);

// Creates `dir` and its missing parents with mode 0700; returns 0 or the errno that stopped it.
int make_directory(const std::string& dir);

// Why a file or folder in this state must not be trusted, or "" when it may be: writable by
// group or others, or owned by someone other than this user or root. Loading code that
// others could have written would let them run code as this user.
std::string unsafe_reason(const struct stat& status);
// unsafe_reason() of a folder's own state, or why it cannot be examined.
std::string unsafe_folder_reason(const std::string& path);

// Writes `bytes` as entry `key` through a temporary file in the same folder, renamed into
// place, so readers see the old file, the new one, or none, never half of one. Returns 0
// or the errno of the step that failed.
int write_entry_file(const std::string& dir, const std::string& key, std::span<const char> bytes);

// One entry file as a scan sees it; its modification time is its last use.
struct cache_file {
  std::string key;
  std::string path;
  std::uint64_t bytes = 0;
  std::int64_t last_used_ns = 0;  // Unix time in nanoseconds
};

// Something a scan met where Jet keeps its files that is not an entry file it could examine.
struct scan_problem {
  enum class kind {
    not_a_folder,  // a file or link named like a subfolder ("ab")
    not_a_file,    // a link, folder or device named like an entry
    unreadable,    // a folder, or a file's status, that cannot be read
  };
  kind what;
  std::string path;
  std::string key;      // the entry's name, for not_a_file
  std::string problem;  // "a symbolic link", "cannot be read: Permission denied"
};

// The entry files under `dir`, and the problems met on the way, by path.
struct cache_scan {
  std::vector<cache_file> entries;
  std::vector<scan_problem> problems;
};

// Every entry file under `dir`, in no particular order; none when `dir` does not exist.
// Temporary and foreign files are left out. A link named like an entry or a subfolder is
// never followed but is a problem, as is a folder that cannot be read.
cache_scan scan_cache(const std::string& dir);
// scan_cache(dir)'s entries alone.
std::vector<cache_file> scan_entries(const std::string& dir);
// The entries whose key starts with `prefix`.
std::vector<cache_file> find_entries(const std::string& dir, std::string_view prefix);

// Removes entry `key` from its subfolder, never through a symlink; returns 0 or the errno.
int remove_entry_file(const std::string& dir, const std::string& key);
// Removes the file or link a not_a_file or not_a_folder problem names, never what a link
// points at; returns 0 or the errno (EISDIR for a folder named like an entry).
int remove_misplaced(const std::string& dir, const scan_problem& problem);

// A file that a removal had to leave, and why.
struct failed_removal {
  std::string path;
  std::string problem;  // "cannot be removed: Read-only file system"
};

// What a removal did and what it left: only what was really removed counts as removed.
struct removal {
  std::size_t entries = 0;
  std::uint64_t bytes = 0;
  std::size_t kept = 0;
  std::uint64_t kept_bytes = 0;
  std::vector<failed_removal> failures;  // entries and temporary files it could not remove
};

// Removes entries not used for `older_than`, then least-recently-used ones until at most
// `max_bytes` remain, and temporary files a crashed writer left over an hour ago. An entry
// it cannot remove (a read-only mount, a folder it may not write) stays counted as kept.
removal prune(const std::string& dir, std::optional<std::uint64_t> max_bytes,
              std::optional<std::chrono::seconds> older_than);
// Removes every entry and temporary file, and links named like entries, then the emptied
// subfolders. Files of other names are never touched, so a mistaken --dir cannot wipe a
// user's folder. Folders it cannot read are failures: entries there may remain.
removal clear(const std::string& dir);

}  // namespace jet::detail
