// The persistent kernel cache: keys, loads, stores, eviction, and the warnings of each.
#include "src/cache/disk_cache.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <mutex>
#include <unordered_map>

#include "src/cache/directory.hpp"
#include "src/cache/entry.hpp"
#include "src/cache/record.hpp"
#include "src/cache/sha256.hpp"
#include "src/cache/stats.hpp"

namespace jet::detail {
namespace {

// Prints `message` the first time `flag` is raised in this process.
void warn_once(std::atomic<bool>& flag, const std::string& message) {
  if (!flag.exchange(true)) std::fprintf(stderr, "jet: %s\n", message.c_str());
}

std::atomic<bool> warned_bad_entry{false}, warned_unsafe{false}, warned_record{false},
    warned_max_bytes{false}, warned_subfolder{false}, warned_no_directory{false};

// What this process knows of each cache folder it stored into.
struct folder_state {
  bool unwritable = false;
  bool scanned = false;
  std::uint64_t bytes = 0;  // at the last scan, plus what this process stored since
};

std::mutex folders_mutex;
std::unordered_map<std::string, folder_state> folders;

bool unwritable(const std::string& dir) {
  std::lock_guard lock(folders_mutex);
  const auto it = folders.find(dir);
  return it != folders.end() && it->second.unwritable;
}

// Warns once per folder and stops storing there: a read-only or full disk stays so.
void give_up_on(const std::string& dir, const std::string& why) {
  std::lock_guard lock(folders_mutex);
  folder_state& s = folders[dir];
  if (!s.unwritable)
    std::fprintf(
        stderr,
        "jet: cannot write the kernel cache at %s (%s); kernels stay in memory for this process\n",
        dir.c_str(), why.c_str());
  s.unwritable = true;
}

void keep_under_bound(const std::string& dir, std::uint64_t stored, std::uint64_t max_bytes) {
  std::lock_guard lock(folders_mutex);
  folder_state& s = folders[dir];
  if (!s.scanned) {
    s.bytes = 0;
    for (const cache_file& f : scan_entries(dir)) s.bytes += f.bytes;
    s.scanned = true;
  } else {
    s.bytes += stored;
  }
  if (s.bytes <= max_bytes) return;
  const removal r = prune(dir, max_bytes, std::nullopt);
  s.bytes = r.kept_bytes;
  note_evictions(r.entries);
}

// A miss that is counted: the entry exists but cannot be used.
std::nullopt_t refuse(std::atomic<bool>& flag, const std::string& message) {
  note_bad_entry();
  warn_once(
      flag,
      message +
          "; compiling instead (further cases are counted in jet::cache::stats(), not shown)");
  return std::nullopt;
}

// Appends up to `count` bytes read from `fd` onto `bytes`, a piece at a time, so that memory
// grows with what the file holds and never with what its size claims; stops at its end.
void read_more(int fd, std::vector<char>& bytes, std::uint64_t count) {
  constexpr std::size_t piece = 1 << 20;
  const std::uint64_t goal = bytes.size() + count;
  while (bytes.size() < goal) {
    const std::size_t at = bytes.size();
    bytes.resize(at + static_cast<std::size_t>(std::min<std::uint64_t>(piece, goal - at)));
    const ssize_t n = pread(fd, bytes.data() + at, bytes.size() - at, static_cast<off_t>(at));
    bytes.resize(at + static_cast<std::size_t>(std::max<ssize_t>(n, 0)));
    if (n == 0 || (n < 0 && errno != EINTR)) return;
  }
}

// Headers are a few hundred bytes; one read of this size almost always holds all of it.
constexpr std::size_t first_read = 4096;

// Decodes the header of the open entry file `fd`, of `file_bytes`, from bytes read onto
// `bytes`: the first few thousand, then the rest of a longer header once decode_header has
// checked its size field (at most 1 MiB).
entry_check read_header(int fd, std::uint64_t file_bytes, std::vector<char>& bytes,
                        entry_header& header) {
  read_more(fd, bytes, std::min<std::uint64_t>(file_bytes, first_read));
  entry_check check = decode_header(bytes, header);
  const std::size_t wanted = header_size(bytes);
  if (check.status == entry_status::truncated && wanted > bytes.size() && wanted <= file_bytes) {
    read_more(fd, bytes, wanted - bytes.size());
    check = decode_header(bytes, header);
  }
  return check;
}

// An entry file open for reading; closes itself.
struct open_file {
  int fd = -1;
  struct stat st {};
  open_file() = default;
  open_file(const open_file&) = delete;
  open_file& operator=(const open_file&) = delete;
  ~open_file() {
    if (fd >= 0) close(fd);
  }
};

// Opens the entry file at `path`, refusing a symbolic link and anything but a regular file.
entry_check open_entry(const std::string& path, open_file& file) {
  file.fd = open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (file.fd < 0) {
    if (errno == ELOOP) return {entry_status::unsafe, "a symbolic link"};
    if (errno == ENOENT) return {entry_status::missing, "no such entry"};
    return {entry_status::unsafe, std::string("cannot be opened: ") + std::strerror(errno)};
  }
  if (fstat(file.fd, &file.st) != 0 || !S_ISREG(file.st.st_mode))
    return {entry_status::unsafe, "not a regular file"};
  return {};
}

// Never destroyed: a compile thread may store a kernel while the process exits.
const std::string& nvrtc_version_once() {
  static const auto* const version = new std::string(nvrtc_version());
  return *version;
}

}  // namespace

kernel_identity identify(const codegen::kernel_source& source, const std::string& arch,
                         const compile_extras& extras) {
  kernel_identity id;
  id.target = compile_target(arch);
  id.options = compile_options(source, arch, extras);
  sha256 h;
  h.update_field("jet kernel cache");
  h.update_field(std::to_string(cache_format_version));
  h.update_field(JET_VERSION);
  h.update_field(nvrtc_version_once());
  h.update_field(id.target);
  h.update_field(std::to_string(id.options.size()));
  for (const std::string& o : id.options) h.update_field(o);
  h.update_field(source.name);
  h.update_field(source.source);
  // Only user kernels have name expressions; Jet's own kernels add nothing here.
  for (const std::string& e : extras.name_expressions) h.update_field("name expression " + e);
  id.key = to_hex(h.finish());
  return id;
}

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  std::uint64_t value = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const std::uint64_t digit = static_cast<std::uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) return std::nullopt;
    value = value * 10 + digit;
  }
  if (i == 0) return std::nullopt;
  const std::string_view suffix = text.substr(i);
  int shift = 0;
  if (!suffix.empty()) {
    static constexpr std::string_view units = "KMGT";
    const auto unit = units.find(static_cast<char>(suffix[0] & ~0x20));  // either case
    if (unit == std::string_view::npos) return std::nullopt;
    const std::string_view rest = suffix.substr(1);
    if (!rest.empty() && rest != "B" && rest != "iB") return std::nullopt;
    shift = 10 * static_cast<int>(unit + 1);
  }
  if (shift && value > (UINT64_MAX >> shift)) return std::nullopt;
  return value << shift;
}

cache_settings settings_from_env() {
  cache_settings s;
  const char* mode = std::getenv("JET_CACHE");
  s.enabled = !(mode && (std::strcmp(mode, "off") == 0 || std::strcmp(mode, "0") == 0));
  s.directory = cache_directory();
  if (const char* max = std::getenv("JET_CACHE_MAX_BYTES"); max && *max) {
    if (const auto bytes = parse_byte_size(max))
      s.max_bytes = *bytes;
    else
      warn_once(warned_max_bytes,
                std::string("JET_CACHE_MAX_BYTES='") + max + "' is not a size; using 1G");
  }
  if (const char* record = std::getenv("JET_CACHE_RECORD")) s.record_file = record;
  return s;
}

entry_check read_entry(const std::string& path, const std::string& key, cache_entry& entry,
                       bool touch) {
  open_file file;
  if (entry_check opened = open_entry(path, file); !opened) return opened;
  if (std::string why = unsafe_reason(file.st); !why.empty())
    return {entry_status::unsafe, std::move(why)};
  const auto file_bytes = static_cast<std::uint64_t>(file.st.st_size);
  std::vector<char> bytes;
  if (entry_check header = read_header(file.fd, file_bytes, bytes, entry.header); !header)
    return header;
  // Sizes first: a file or header that claims gigabytes is refused before any is read.
  if (entry_check size = check_entry_size(entry.header, header_size(bytes), file_bytes); !size)
    return size;
  read_more(file.fd, bytes, file_bytes - bytes.size());
  entry_check check = decode_entry(bytes, key, entry);
  if (check && touch)
    futimens(file.fd, nullptr);  // the modification time is the last use eviction orders by
  return check;
}

entry_check read_entry_header(const std::string& path, entry_header& header) {
  open_file file;
  if (entry_check opened = open_entry(path, file); !opened) return opened;
  std::vector<char> bytes;
  return read_header(file.fd, static_cast<std::uint64_t>(file.st.st_size), bytes, header);
}

std::optional<compiled_kernel> load_entry(const std::string& dir, const kernel_identity& id) {
  const std::string path = entry_path(dir, id.key);
  cache_entry entry;
  const entry_check check = read_entry(path, id.key, entry, true);
  if (check.status == entry_status::missing) return std::nullopt;
  if (check.status == entry_status::unsafe)
    return refuse(warned_unsafe, "not loading kernel cache entry " + path + ": " + check.problem);
  if (!check)
    return refuse(warned_bad_entry,
                  "ignoring damaged kernel cache entry " + path + ": " + check.problem);
  // Whoever can write the entry's folder or the cache folder chooses the code that runs.
  const std::string folder = dir + "/" + id.key.substr(0, 2);
  for (const std::string& f : {folder, dir})
    if (const std::string why = unsafe_folder_reason(f); !why.empty())
      return refuse(warned_unsafe,
                    "not loading kernel cache entry " + path + ": " + f + " is " + why);
  note_disk_hit(entry.file_bytes);
  compiled_kernel out;
  out.name = std::move(entry.header.name);
  out.arch = std::move(entry.header.arch);
  out.image = std::move(entry.image);
  out.lowered_names = std::move(entry.header.lowered_names);
  out.milliseconds = static_cast<double>(entry.header.compile_us) / 1000.0;
  return out;
}

bool store_entry(const std::string& dir, const kernel_identity& id,
                 const codegen::kernel_source& source, const compiled_kernel& compiled,
                 std::uint64_t max_bytes) {
  if (unwritable(dir)) return false;
  if (const int error = make_directory(dir)) {
    give_up_on(dir, std::strerror(error));
    return false;
  }
  cache_entry entry;
  entry.header.key = id.key;
  entry.header.name = compiled.name;
  entry.header.arch = compiled.arch;
  entry.header.options = id.options;
  entry.header.lowered_names = compiled.lowered_names;
  entry.header.nvrtc_version = nvrtc_version_once();
  entry.header.jet_version = JET_VERSION;
  entry.header.created = static_cast<std::int64_t>(std::time(nullptr));
  entry.header.compile_us = static_cast<std::uint64_t>(compiled.milliseconds * 1000.0);
  entry.source = source.source;
  entry.image = compiled.image;
  const std::vector<char> bytes = encode_entry(entry);
  if (const int error = write_entry_file(dir, id.key, bytes)) {
    // A file or link where the subfolder belongs spoils that subfolder only.
    if (error == ENOTDIR || error == ELOOP)
      warn_once(warned_subfolder, dir + "/" + id.key.substr(0, 2) +
                                      " is not a folder, so kernels that belong there stay in "
                                      "memory (jet-cache verify --fix removes it)");
    // ENOENT: a concurrent `jet-cache clear` removed the folder midway; the next store works.
    else if (error != ENOENT)
      give_up_on(dir, std::strerror(error));
    return false;
  }
  note_store(bytes.size());
  keep_under_bound(dir, bytes.size(), max_bytes);
  return true;
}

obtained_kernel compile_or_load(const codegen::kernel_source& source, const std::string& arch,
                                const compile_extras& extras) {
  const auto start = std::chrono::steady_clock::now();
  const cache_settings settings = settings_from_env();
  const kernel_identity id = identify(source, arch, extras);
  const bool disk = settings.enabled && !settings.directory.empty();
  if (settings.enabled && !disk)
    warn_once(warned_no_directory,
              std::string(no_cache_directory) + "; kernels stay in memory for this process");
  obtained_kernel out;
  if (auto hit = disk ? load_entry(settings.directory, id) : std::nullopt) {
    out.compiled = std::move(*hit);
    out.origin = kernel_origin::disk;
  } else {
    out.compiled = compile(source, arch, extras);
    note_compile(out.compiled.milliseconds);
    if (disk) store_entry(settings.directory, id, source, out.compiled, settings.max_bytes);
  }
  if (!settings.record_file.empty()) {
    if (const int error = append_record(settings.record_file, {source, arch, id.options, extras}))
      warn_once(warned_record, "cannot append to JET_CACHE_RECORD file " + settings.record_file +
                                   ": " + std::strerror(error));
  }
  out.milliseconds =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  return out;
}

}  // namespace jet::detail
