// The kernel cache: what this process found in memory, on disk, and had to compile.
// Configured by the environment: JET_CACHE_DIR (else $XDG_CACHE_HOME/jet/kernels, else
// ~/.cache/jet/kernels), JET_CACHE=off (memory only), JET_CACHE_MAX_BYTES (default 1 GiB,
// least-recently-used entries evicted; suffixes K, M, G), JET_CACHE_RECORD=FILE (append every
// kernel this process compiled or loaded to FILE, for `jet-cache warm`).
#pragma once

#include <cstdint>
#include <string>

namespace jet::cache {

// Counters since the process started, over all threads.
struct statistics {
  std::uint64_t memory_hits = 0;   // kernels found in this process's memory
  std::uint64_t disk_hits = 0;     // kernels loaded from the disk cache
  std::uint64_t compiles = 0;      // kernels NVRTC compiled
  double compile_ms = 0;           // NVRTC's time for those compiles
  std::uint64_t bytes_loaded = 0;  // size of the entries behind disk hits
  std::uint64_t bytes_stored = 0;  // size of the entries written
  std::uint64_t evictions = 0;     // entries removed to stay under JET_CACHE_MAX_BYTES
  // Entries passed over: corrupt, truncated, foreign, another format version, or in a
  // folder or file writable by other users.
  std::uint64_t bad_entries = 0;
};

// A snapshot of the counters.
statistics stats();

// The cache directory the environment names (it may not exist yet); empty when it names none
// (HOME unset or empty, and no JET_CACHE_DIR or XDG_CACHE_HOME): then kernels stay in memory.
std::string directory();

}  // namespace jet::cache
