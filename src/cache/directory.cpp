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
// point maintenance at files outside the cache. -1 when it is not a real folder.
int open_subfolder(int dir_fd, std::string_view sub) {
  return openat(dir_fd, std::string(sub).c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

// Visits the entry and temporary files of one subfolder ("ab"), examining each through the
// folder's descriptor, which it takes.
void walk_folder(int folder_fd, const std::string& dir, std::string_view sub,
                 const visitor& visit) {
  if (folder_fd < 0) return;
  const dir_handle d(fdopendir(folder_fd));
  if (!d) {
    close(folder_fd);
    return;
  }
  const std::string folder = dir + "/" + std::string(sub);
  while (const dirent* e = readdir(d.get())) {
    const std::string_view name = e->d_name;
    const bool entry = is_entry_name(name) && name.substr(0, 2) == sub;
    const bool temporary = name.substr(0, temp_prefix.size()) == temp_prefix;
    if (!entry && !temporary) continue;
    struct stat st {};
    // A file removed since readdir listed it is simply not there any more.
    if (fstatat(folder_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
      continue;
    found_file f;
    f.file.key = entry ? std::string(name) : std::string();
    f.file.path = folder + "/" + e->d_name;
    f.file.bytes = static_cast<std::uint64_t>(st.st_size);
    f.file.last_used_ns = nanoseconds(st.st_mtim);
    f.temporary = temporary;
    visit(folder_fd, folder, e->d_name, f);
  }
}

// Visits every entry and temporary file under `dir`.
void walk(const std::string& dir, const visitor& visit) {
  const dir_handle root(opendir(dir.c_str()));
  if (!root) return;
  const int root_fd = dirfd(root.get());
  while (const dirent* sub = readdir(root.get()))
    if (is_subfolder_name(sub->d_name))
      walk_folder(open_subfolder(root_fd, sub->d_name), dir, sub->d_name, visit);
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
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return std::string(xdg) + "/jet/kernels";
  const char* home = std::getenv("HOME");
  return std::string(home ? home : ".") + "/.cache/jet/kernels";
}

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

std::vector<cache_file> scan_entries(const std::string& dir) {
  std::vector<cache_file> files;
  walk(dir, [&](int, const std::string&, const std::string&, const found_file& f) {
    if (!f.temporary) files.push_back(f.file);
  });
  return files;
}

std::vector<cache_file> find_entries(const std::string& dir, std::string_view prefix) {
  std::vector<cache_file> matches;
  const visitor keep = [&](int, const std::string&, const std::string&, const found_file& f) {
    if (!f.temporary && f.file.key.compare(0, prefix.size(), prefix) == 0)
      matches.push_back(f.file);
  };
  // Two or more digits name the one subfolder that can hold the matches.
  if (prefix.size() >= 2)
    walk_folder(open_subfolder(AT_FDCWD, dir + "/" + std::string(prefix.substr(0, 2))), dir,
                prefix.substr(0, 2), keep);
  else
    walk(dir, keep);
  return matches;
}

std::vector<std::string> stray_subfolders(const std::string& dir) {
  std::vector<std::string> stray;
  const dir_handle root(opendir(dir.c_str()));
  if (!root) return stray;
  while (const dirent* sub = readdir(root.get())) {
    struct stat st {};
    if (is_subfolder_name(sub->d_name) &&
        fstatat(dirfd(root.get()), sub->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
        !S_ISDIR(st.st_mode))
      stray.push_back(dir + "/" + sub->d_name);
  }
  std::sort(stray.begin(), stray.end());
  return stray;
}

int remove_entry_file(const std::string& dir, const std::string& key) {
  const int fd = open_subfolder(AT_FDCWD, dir + "/" + key.substr(0, 2));
  if (fd < 0) return errno;
  const int error = unlink_in(fd, key);
  close(fd);
  return error;
}

removal prune(const std::string& dir, std::optional<std::uint64_t> max_bytes,
              std::optional<std::chrono::seconds> older_than) {
  std::vector<cache_file> files;
  removal r;
  const std::int64_t now = now_ns();
  walk(dir, [&](int fd, const std::string&, const std::string& name, const found_file& f) {
    if (!f.temporary)
      files.push_back(f.file);
    else if (now - f.file.last_used_ns > stale_temp_ns)
      note_failure(r, f.file.path, unlink_in(fd, name));
  });
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
  walk(dir, [&](int fd, const std::string& folder, const std::string& name, const found_file& f) {
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
  // Only folders that held Jet's files; rmdir leaves any that still hold something else.
  for (const std::string& folder : folders) rmdir(folder.c_str());
  return r;
}

}  // namespace jet::detail
