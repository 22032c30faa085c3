// The persistent kernel cache: compiled kernels kept on disk across processes, keyed by
// everything that changes their machine code (docs/DESIGN.md, "Kernel cache on disk").
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/render/kernel_source.hpp"
#include "src/cache/entry.hpp"
#include "src/nvrtc/compile.hpp"

namespace jet::detail {

// What names a compiled kernel on disk, and what that name was computed from.
struct kernel_identity {
  std::string key;                   // SHA-256, 64 hex digits
  std::string target;                // compile_target(arch)
  std::vector<std::string> options;  // compile_options(arch)
};

// The key of `source` compiled for device `arch`: SHA-256 over the source, kernel name,
// NVRTC options, target, NVRTC version, Jet version and cache format version, so that an
// upgrade of any of them is a clean miss, never a stale kernel.
// User kernels' extras (their options and name expressions) are hashed too.
kernel_identity identify(const codegen::kernel_source& source, const std::string& arch,
                         const compile_extras& extras = {});

constexpr std::uint64_t default_cache_max_bytes = std::uint64_t{1} << 30;

// The disk cache as the environment configures it (see include/jet/cache.hpp).
struct cache_settings {
  bool enabled = true;    // JET_CACHE=off (or 0) disables the disk entirely
  std::string directory;  // cache_directory(); "" (no disk either) when the environment names none
  std::uint64_t max_bytes = default_cache_max_bytes;  // JET_CACHE_MAX_BYTES
  std::string record_file;                            // JET_CACHE_RECORD, empty when unset
};
// Reads the settings now; an unreadable JET_CACHE_MAX_BYTES warns once and keeps the default.
cache_settings settings_from_env();
// "1048576", "512K", "64M", "1G", "2GiB": a size in bytes with binary suffixes, or nullopt.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

// Reads the entry file at `path`, which must hold `key`. Before reading, refuses (status
// `unsafe`) a symbolic link, anything but a regular file, and a file writable by others;
// checks the header's sizes against the file's and max_entry_bytes before reading the body,
// then decodes and checks it. With `touch`, marks it used now.
entry_check read_entry(const std::string& path, const std::string& key, cache_entry& entry,
                       bool touch);
// Reads the header alone of the entry file at `path` (what `jet-cache list` shows), refusing a
// symbolic link and anything but a regular file; permissions are read_entry's to judge.
entry_check read_entry_header(const std::string& path, entry_header& header);

// The entry `id` in `dir`, its last use touched. Missing is a plain miss; damaged, foreign,
// another format version, or in a file or folder writable by others is a miss that counts
// as a bad entry and warns once per process.
std::optional<compiled_kernel> load_entry(const std::string& dir, const kernel_identity& id);

// Writes the entry `id` into `dir`, then evicts least-recently-used entries until at most
// `max_bytes` remain (checked against the size this process last scanned plus what it
// stored since). A read-only, full or unusable folder warns once and makes later stores
// into it no-ops; the caller keeps working from memory. Returns whether it was written.
bool store_entry(const std::string& dir, const kernel_identity& id,
                 const codegen::kernel_source& source, const compiled_kernel& compiled,
                 std::uint64_t max_bytes);

enum class kernel_origin { disk, compiler };

struct obtained_kernel {
  compiled_kernel compiled;  // for a disk hit, `milliseconds` is the original compile's time
  kernel_origin origin = kernel_origin::compiler;
  double milliseconds = 0;  // this call's time: load, or compile and store
};

// What the eval driver calls on a memory-cache miss: the disk entry when there is a good
// one, else NVRTC's result, stored for the next process. Counts disk hits and compiles;
// with JET_CACHE_RECORD set, records the kernel either way, so the record lists every
// kernel the program used even when this machine's cache was already warm.
obtained_kernel compile_or_load(const codegen::kernel_source& source, const std::string& arch,
                                const compile_extras& extras = {});

}  // namespace jet::detail
