// Device memory: CUDA's stream-ordered allocator, with Jet's accounting on top.
#pragma once

#include <cstddef>
#include <new>

namespace jet::memory {

struct statistics {
  std::size_t in_use = 0;    // bytes held by live arrays
  std::size_t peak = 0;      // most bytes in use at once
  std::size_t reserved = 0;  // bytes the device pool holds, in use or cached
  std::size_t limit = 0;     // Jet's cap on in_use; 0 when none
};

// A snapshot of the current device's counters (each device has its own pool and counters).
statistics stats();
// Caps the bytes Jet's arrays may hold at once on the current device (0 removes the cap).
void set_limit(std::size_t bytes);
// Returns the current device's cached, unused pool memory to it.
void trim();

}  // namespace jet::memory

namespace jet {

// Page-locked host memory, which the GPU copies to and from at the link's full speed; the
// allocator of jet::pinned_allocator. Throws std::bad_alloc when CUDA cannot provide it.
void* allocate_pinned(std::size_t bytes);
void free_pinned(void* p) noexcept;

// An allocator of pinned host memory for std::vector and the like:
// `std::vector<float, jet::pinned_allocator<float>> v(n);` then jet::asarray(v) and
// a.to_host(std::span(v)) copy without staging.
template <class T>
struct pinned_allocator {
  using value_type = T;
  pinned_allocator() = default;
  template <class U>
  pinned_allocator(const pinned_allocator<U>&) {}
  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_array_new_length();
    return static_cast<T*>(allocate_pinned(n * sizeof(T)));
  }
  void deallocate(T* p, std::size_t) noexcept { free_pinned(p); }
  template <class U>
  bool operator==(const pinned_allocator<U>&) const {
    return true;
  }
};

}  // namespace jet
