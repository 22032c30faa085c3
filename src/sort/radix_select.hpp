// The counting pass of a radix select, by CUB's DeviceHistogram built by nvcc into libjet: what
// jet::partition, argpartition and topk run, digit after digit, to find the key at one rank of
// each row without sorting. Keys are Jet's order-preserving sort keys (unsigned, 1 to 8 bytes).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace jet::detail {

// The most rows one count takes (CUB's histogram takes its number of bin edges, 256 a row and
// one more, in an int): selections of more rows sort instead.
inline constexpr std::int64_t max_select_rows = (std::int64_t{1} << 23) - 1;

// For each row of `rows` x (n / rows) keys, how many of the keys whose bits above `shift + 8`
// equal those of the row's prefix hold each value 0..255 in the 8 bits from `shift`: row r's
// counts at counts[256 r ...]. The prefixes (device, one per row) hold the digits chosen so far.
struct digit_count_job {
  int key_bytes = 4;  // 1, 2, 4 or 8
  const void* keys = nullptr;
  std::int64_t n = 0;
  std::int64_t rows = 1;
  const std::uint64_t* prefixes = nullptr;
  int shift = 0;
  unsigned long long* counts = nullptr;  // rows x 256
};

// CUB's convention: with `scratch` null, returns the scratch bytes `job` needs and counts
// nothing; else counts on `stream` with that scratch. Throws jet::cuda_error on a failed status.
std::size_t count_digits(void* scratch, std::size_t scratch_bytes, const digit_count_job& job,
                         cudaStream_t stream);

}  // namespace jet::detail
