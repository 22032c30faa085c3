// The counters behind jet::cache::stats(); each note_* is one relaxed atomic update.
#pragma once

#include <cstdint>

namespace jet::detail {

// A kernel was found in the in-memory cache (the eval driver calls this on every hit).
void note_memory_hit();
// A kernel was loaded from a disk entry of `bytes`.
void note_disk_hit(std::uint64_t bytes);
// NVRTC compiled a kernel in `milliseconds`.
void note_compile(double milliseconds);
// A disk entry of `bytes` was written.
void note_store(std::uint64_t bytes);
// `count` entries were evicted to keep the cache under its bound.
void note_evictions(std::uint64_t count);
// A disk entry was passed over as damaged or unsafe.
void note_bad_entry();

}  // namespace jet::detail
