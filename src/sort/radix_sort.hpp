// CUB's radix sorts, built by nvcc into libjet (NVRTC takes ~2 s over CUB's headers): what
// jet::sort, argsort and the functions built on them run after a Jet kernel has written the
// keys. Keys are unsigned integers of 1, 2, 4, 8 or 16 bytes, Jet's order-preserving encoding
// of every dtype (codegen's sort_key), so five key types cover them all. Values, when there
// are any, are int32 or int64 (positions). Everything is enqueued on a stream; nothing waits.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "jet/dtype.hpp"

namespace jet::detail {

// The keys (and values) from `*_in` sorted into `*_out`, which must not overlap them.
struct radix_job {
  int key_bytes = 4;  // 1, 2, 4, 8 or 16
  const void* keys_in = nullptr;
  void* keys_out = nullptr;
  int value_bytes = 0;  // 0 (keys only), 4 or 8
  const void* values_in = nullptr;
  void* values_out = nullptr;
  std::int64_t n = 0;     // keys in all
  std::int64_t rows = 1;  // each row of n / rows keys is sorted on its own
};

// CUB's convention: with `scratch` null, returns the scratch bytes `job` needs and sorts
// nothing; else sorts on `stream` with that scratch, stably (equal keys keep their order).
// Throws jet::cuda_error on a failed status.
std::size_t radix_sort(void* scratch, std::size_t scratch_bytes, const radix_job& job,
                       cudaStream_t stream);

// A sort of the values of a real dtype in CUB's own order of that dtype (no pass to write
// keys): what sorts one row of a contiguous array. CUB ties -0.0 with 0.0 and keeps their
// order, as NumPy's stable sort does, but orders NaNs by their bits, those with the sign bit
// set first. Where the input may hold such NaNs, `spare` (n values) and `count` (one int64 on
// the device) let two more kernels move them to the end, where NumPy has every NaN; they
// return at once when the sorted row starts with none.
struct value_sort_job {
  dtype type = float64;
  const void* in = nullptr;
  void* out = nullptr;
  std::int64_t n = 0;
  void* spare = nullptr;
  std::int64_t* count = nullptr;
};

std::size_t sort_values(void* scratch, std::size_t scratch_bytes, const value_sort_job& job,
                        cudaStream_t stream);

}  // namespace jet::detail
