// Device memory: CUDA's stream-ordered allocator, with Jet's accounting on top.
#pragma once

#include <cstddef>

namespace jet::memory {

struct statistics {
  std::size_t in_use = 0;    // bytes held by live arrays
  std::size_t peak = 0;      // most bytes in use at once
  std::size_t reserved = 0;  // bytes the device pool holds, in use or cached
  std::size_t limit = 0;     // Jet's cap on in_use; 0 when none
};

// A snapshot of the counters.
statistics stats();
// Caps the bytes Jet's arrays may hold at once (0 removes the cap).
void set_limit(std::size_t bytes);
// Returns cached, unused pool memory to the device.
void trim();

}  // namespace jet::memory
