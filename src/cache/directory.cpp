// Files of the kernel cache directory.
#include "src/cache/directory.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <memory>

namespace jet::detail {
namespace {

constexpr std::string_view temp_prefix = ".tmp-";
// A temporary file this old belongs to a writer that died; live writers finish in moments.
constexpr std::int64_t stale_temp_ns = 3600LL * 1000000000LL;

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); }

bool is_subfolder_name(std::string_view name) {
  return name.size() == 2 && is_hex(name[0]) && is_hex(name[1]);
}

std::int64_t nanoseconds(const struct timespec& t) {
  return static_cast<std::int64_t>(t.tv_sec) * 1000000000LL + t.tv_nsec;
}

std::int64_t now_ns() {
  struct timespec t {};
  clock_gettime(CLOCK_REALTIME, &t);
  return nanoseconds(t);
}

struct dir_closer {
  void operator()(DIR* d) const { closedir(d); }
};
using dir_handle = std::unique_ptr<DIR, dir_closer>;

// A regular file found in a subfolder: an entry or a temporary file.
struct found_file {
  cache_file file;
  bool temporary = false;
};

using visitor = std::function<void(int folder_fd, const std::string& folder,
                                   const std::string& name, const found_file&)>;

// A subfolder ("ab") of `dir` opened as a folder only if it is one: a symlink there could
// point maintenance at files outside the cache. -1 (and errno) when it is not a real folder,
// or cannot be opened.
int open_subfolder(int dir_fd, std::string_view sub) {
  return openat(dir_fd, std::string(sub).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

using problem_list = std::vector<scan_problem>;

// What a scan notes of `path`, which it could not read for `error`.
scan_problem unreadable(const std::string& path, int error) {
  return {scan_problem::kind::unreadable, path, "",
          std::string("cannot be read: ") + std::strerror(error)};
}

// Visits `name` in subfolder `sub` (open as `folder_fd`, at `folder`) when it is a regular
// file named as an entry or a temporary file; notes an entry's name on anything else.
void visit_name(int folder_fd, const std::string& folder, std::string_view sub,
                const std::string& name, const visitor& visit, problem_list& problems) {
  const bool entry = is_entry_name(name) && name.substr(0, 2) == sub;
  const bool temporary = name.compare(0, temp_prefix.size(), temp_prefix) == 0;
  if (!entry && !temporary) return;
  const std::string path = folder + "/" + name;
  struct stat st {};
  if (fstatat(folder_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    // A file removed since readdir listed it is simply not there any more.
    if (errno != ENOENT) problems.push_back(unreadable(path, errno));
    return;
  }
  if (!S_ISREG(st.st_mode)) {
    // The runtime refuses these as bad entries; a scan names them rather than skip them.
    if (entry)
      problems.push_back({scan_problem::kind::not_a_file, path, name,
                          S_ISLNK(st.st_mode) ? "a symbolic link" : "not a regular file"});
    return;
  }
  found_file f;
  f.file.key = entry ? name : std::string();
  f.file.path = path;
  f.file.bytes = static_cast<std::uint64_t>(st.st_size);
  f.file.last_used_ns = nanoseconds(st.st_mtim);
  f.temporary = temporary;
  visit(folder_fd, folder, name, f);
}

// Visits the files of subfolder `sub` of `dir` (open as `dir_fd`), examining each through
// the subfolder's descriptor; notes a subfolder that is not a folder or cannot be read.
void walk_folder(int dir_fd, const std::string& dir, std::string_view sub, const visitor& visit,
                 problem_list& problems) {
  const std::string folder = dir + "/" + std::string(sub);
  const int fd = open_subfolder(dir_fd, sub);
  if (fd < 0) {
    if (errno == ENOTDIR || errno == ELOOP)
      problems.push_back({scan_problem::kind::not_a_folder, folder, "",
                          "not a folder, where Jet keeps a subfolder of entries"});
    else if (errno != ENOENT)
      problems.push_back(unreadable(folder, errno));
    return;
  }
  const dir_handle d(fdopendir(fd));
  if (!d) {
    problems.push_back(unreadable(folder, errno));
    close(fd);
    return;
  }
  const dirent* e = nullptr;
  for (errno = 0; (e = readdir(d.get())) != nullptr; errno = 0)
    visit_name(fd, folder, sub, e->d_name, visit, problems);
  if (errno != 0) problems.push_back(unreadable(folder, errno));
}

// Visits every entry and temporary file under `dir`; returns what it could not visit. A
// missing `dir` is an empty cache: Jet makes the folder on its first store.
problem_list walk(const std::string& dir, const visitor& visit) {
  problem_list problems;
  const dir_handle root(opendir(dir.c_str()));
  if (!root) {
    if (errno != ENOENT) problems.push_back(unreadable(dir, errno));
    return problems;
  }
  const dirent* sub = nullptr;
  for (errno = 0; (sub = readdir(root.get())) != nullptr; errno = 0)
    if (is_subfolder_name(sub->d_name))
      walk_folder(dirfd(root.get()), dir, sub->d_name, visit, problems);
  if (errno != 0) problems.push_back(unreadable(dir, errno));
  return problems;
}

// Removes `name` from the folder open as `folder_fd`; returns 0 or the errno.
int unlink_in(int folder_fd, const std::string& name) {
  return unlinkat(folder_fd, name.c_str(), 0) == 0 ? 0 : errno;
}

// Notes that removing `path` failed with `error`, unless it is gone: removed (0), or removed
// first by another process (ENOENT).
void note_failure(removal& r, const std::string& path, int error) {
  if (error != 0 && error != ENOENT)
    r.failures.push_back({path, std::string("cannot be removed: ") + std::strerror(error)});
}

// Notes the folders and files a walk could not read: entries there may remain.
void note_unreadable(removal& r, const problem_list& problems) {
  for (const scan_problem& p : problems)
    if (p.what == scan_problem::kind::unreadable) r.failures.push_back({p.path, p.problem});
}

// Accounts for removing kept entry `f`, which ended with `error`: removed by this call, gone
// without it, or still there and kept.
void account(removal& r, const cache_file& f, int error) {
  note_failure(r, f.path, error);
  if (error != 0 && error != ENOENT) return;
  --r.kept;
  r.kept_bytes -= f.bytes;
  if (error == 0) {
    ++r.entries;
    r.bytes += f.bytes;
  }
}

}  // namespace

std::string cache_directory() {
  if (const char* dir = std::getenv("JET_CACHE_DIR"); dir && *dir) return dir;
  // As the XDG base directory rules say, a relative path is no folder to use.
  const auto absolute = [](const char* path) { return path && path[0] == '/'; };
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); absolute(xdg))
    return std::string(xdg) + "/jet/kernels";
  if (const char* home = std::getenv("HOME"); absolute(home))
    return std::string(home) + "/.cache/jet/kernels";
  return {};
}

const char* const no_cache_directory =
    "no cache directory: JET_CACHE_DIR is unset, and XDG_CACHE_HOME and HOME are unset, empty "
    "or relative";

bool is_entry_name(std::string_view name) {
  return name.size() == 64 && std::all_of(name.begin(), name.end(), is_hex);
}

std::string entry_path(const std::string& dir, const std::string& key) {
  return dir + "/" + key.substr(0, 2) + "/" + key;
}

int make_directory(const std::string& dir) {
  if (mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST) {
    struct stat st {};
    if (stat(dir.c_str(), &st) != 0) return errno;
    return S_ISDIR(st.st_mode) ? 0 : ENOTDIR;
  }
  if (errno != ENOENT) return errno;
  const auto slash = dir.find_last_of('/');
  if (slash == std::string::npos || slash == 0) return ENOENT;
  if (const int parent = make_directory(dir.substr(0, slash))) return parent;
  return mkdir(dir.c_str(), 0700) == 0 || errno == EEXIST ? 0 : errno;
}

std::string unsafe_reason(const struct stat& st) {
  if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", static_cast<unsigned>(st.st_mode & 07777));
    return std::string("writable by group or others (mode ") + mode + ")";
  }
  if (st.st_uid != geteuid() && st.st_uid != 0)
    return "owned by another user (uid " + std::to_string(st.st_uid) + ")";
  return {};
}

std::string unsafe_folder_reason(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0)
    return std::string("cannot be examined: ") + std::strerror(errno);
  return unsafe_reason(st);
}

int write_entry_file(const std::string& dir, const std::string& key, std::span<const char> bytes) {
  static std::atomic<std::uint64_t> counter{0};
  const std::string folder = dir + "/" + key.substr(0, 2);
  // pid, thread and a process-wide counter: no two writers anywhere share a temporary name.
  const std::string temp = folder + "/" + std::string(temp_prefix) + key.substr(0, 16) + "-" +
                           std::to_string(getpid()) + "-" + std::to_string(syscall(SYS_gettid)) +
                           "-" + std::to_string(counter.fetch_add(1));
  int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0 && errno == ENOENT) {
    if (const int made = make_directory(folder)) return made;
    fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  }
  if (fd < 0) return errno;
  std::size_t written = 0;
  while (written < bytes.size()) {
    const ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = n < 0 ? errno : ENOSPC;
      close(fd);
      unlink(temp.c_str());
      return error;
    }
    written += static_cast<std::size_t>(n);
  }
  // No fsync: after a crash a cut-short entry fails its checksum and is recompiled, which
  // costs less than syncing every store.
  if (close(fd) != 0 || rename(temp.c_str(), entry_path(dir, key).c_str()) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    return error;
  }
  return 0;
}

cache_scan scan_cache(const std::string& dir) {
  cache_scan scan;
  scan.problems = walk(dir, [&](int, const std::string&, const std::string&, const found_file& f) {
    if (!f.temporary) scan.entries.push_back(f.file);
  });
  std::sort(scan.problems.begin(), scan.problems.end(),
            [](const scan_problem& a, const scan_problem& b) { return a.path < b.path; });
  return scan;
}

std::vector<cache_file> scan_entries(const std::string& dir) { return scan_cache(dir).entries; }

std::vector<cache_file> find_entries(const std::string& dir, std::string_view prefix) {
  std::vector<cache_file> matches;
  const visitor keep = [&](int, const std::string&, const std::string&, const found_file& f) {
    if (!f.temporary && f.file.key.compare(0, prefix.size(), prefix) == 0)
      matches.push_back(f.file);
  };
  // Two or more digits name the one subfolder that can hold the matches. Problems are
  // verify's to name; show names only entries.
  if (prefix.size() < 2) {
    walk(dir, keep);
  } else if (const dir_handle root(opendir(dir.c_str())); root) {
    problem_list ignored;
    walk_folder(dirfd(root.get()), dir, prefix.substr(0, 2), keep, ignored);
  }
  return matches;
}

int remove_entry_file(const std::string& dir, const std::string& key) {
  const int fd = open_subfolder(AT_FDCWD, dir + "/" + key.substr(0, 2));
  if (fd < 0) return errno;
  const int error = unlink_in(fd, key);
  close(fd);
  return error;
}

int remove_misplaced(const std::string& dir, const scan_problem& problem) {
  switch (problem.what) {
    case scan_problem::kind::not_a_file: return remove_entry_file(dir, problem.key);
    case scan_problem::kind::not_a_folder:
      // unlink removes the file or link itself, never what a link points at.
      return unlink(problem.path.c_str()) == 0 ? 0 : errno;
    case scan_problem::kind::unreadable: break;
  }
  return EPERM;
}

removal prune(const std::string& dir, std::optional<std::uint64_t> max_bytes,
              std::optional<std::chrono::seconds> older_than) {
  std::vector<cache_file> files;
  removal r;
  const std::int64_t now = now_ns();
  note_unreadable(
      r, walk(dir, [&](int fd, const std::string&, const std::string& name, const found_file& f) {
        if (!f.temporary)
          files.push_back(f.file);
        else if (now - f.file.last_used_ns > stale_temp_ns)
          note_failure(r, f.file.path, unlink_in(fd, name));
      }));
  // Oldest first; equal times (file times tick in jiffies) fall back to the key for a stable order.
  std::sort(files.begin(), files.end(), [](const cache_file& a, const cache_file& b) {
    return a.last_used_ns != b.last_used_ns ? a.last_used_ns < b.last_used_ns : a.key < b.key;
  });
  for (const cache_file& f : files) r.kept_bytes += f.bytes;
  r.kept = files.size();
  const std::int64_t cutoff =
      older_than ? now - std::chrono::duration_cast<std::chrono::nanoseconds>(*older_than).count()
                 : 0;
  for (const cache_file& f : files) {
    const bool old = older_than && f.last_used_ns < cutoff;
    const bool over = max_bytes && r.kept_bytes > *max_bytes;
    if (!old && !over) break;  // the rest are newer and the bound holds
    account(r, f, remove_entry_file(dir, f.key));
  }
  return r;
}

removal clear(const std::string& dir) {
  removal r;
  std::vector<std::string> folders;
  const problem_list problems = walk(
      dir, [&](int fd, const std::string& folder, const std::string& name, const found_file& f) {
        const int error = unlink_in(fd, name);
        if (f.temporary) {
          note_failure(r, f.file.path, error);
        } else {
          ++r.kept;
          r.kept_bytes += f.file.bytes;
          account(r, f.file, error);
        }
        if (folders.empty() || folders.back() != folder) folders.push_back(folder);
      });
  note_unreadable(r, problems);
  // A link or folder named like an entry is a bad entry to the runtime: it goes too.
  for (const scan_problem& p : problems)
    if (p.what == scan_problem::kind::not_a_file) note_failure(r, p.path, remove_misplaced(dir, p));
  // Only folders that held Jet's files; rmdir leaves any that still hold something else.
  for (const std::string& folder : folders) rmdir(folder.c_str());
  return r;
}

}  // namespace jet::detail
