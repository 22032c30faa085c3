// Python's slice.indices, shared by basic indexing (views.cpp) and numpy.delete (editing.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <utility>

#include "jet/array.hpp"
#include "jet/error.hpp"

namespace jet::detail {

inline std::int64_t ceil_div(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// The first position `s` selects on an axis of n and how many it selects (start and stop
// clamped, as Python's slice.indices does); the k-th is start + k * step.
inline std::pair<std::int64_t, std::int64_t> resolve_slice(const slice& s, std::int64_t n) {
  if (s.step == 0) throw value_error("slice step cannot be zero");
  const std::int64_t step = s.step;
  auto clamp_bound = [&](const slice_bound& b, std::int64_t fallback, std::int64_t lo,
                         std::int64_t hi) {
    if (!b.value) return fallback;
    std::int64_t v = *b.value;
    if (v < 0) v += n;
    return std::clamp(v, lo, hi);
  };
  std::int64_t start, stop;
  if (step > 0) {
    start = clamp_bound(s.start, 0, 0, n);
    stop = clamp_bound(s.stop, n, 0, n);
  } else {
    start = clamp_bound(s.start, n - 1, -1, n - 1);
    stop = clamp_bound(s.stop, -1, -1, n - 1);
  }
  const std::int64_t length = step > 0 ? (stop > start ? ceil_div(stop - start, step) : 0)
                                       : (start > stop ? ceil_div(start - stop, -step) : 0);
  return {start, length};
}

}  // namespace jet::detail
