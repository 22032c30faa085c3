// Counting bin indices by CUB's DeviceHistogram built by nvcc into libjet: what histogram and
// bincount run for unweighted counts, where the bins fit CUB's shared-memory counters.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace jet::detail {

// The most bins one count takes; more bins are counted by atomics in global memory (where,
// spread over so many, they seldom collide).
inline constexpr std::int64_t max_counted_bins = std::int64_t{1} << 16;

// counts[b], for each b in [0, size), is how many of the n indices in `bins` (whole numbers,
// as floats) equal b; others are left out.
struct bin_count_job {
  const float* bins = nullptr;
  std::int64_t n = 0;
  std::int64_t size = 1;
  unsigned long long* counts = nullptr;
};

// CUB's convention: with `scratch` null, returns the scratch bytes `job` needs and counts
// nothing; else counts on `stream` with that scratch. Throws jet::cuda_error on a failed status.
std::size_t count_bins(void* scratch, std::size_t scratch_bytes, const bin_count_job& job,
                       cudaStream_t stream);

}  // namespace jet::detail
