// Stream compaction, the one kind of kernel Jet does not generate: CUB's DeviceSelect, built
// by nvcc into libjet (NVRTC takes ~2 s to compile a kernel that includes CUB, against ~15 ms
// for one of Jet's own). Everything here is enqueued on a stream; nothing synchronizes.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace jet::detail {

// One compaction: the items of `values` (n of `item_bytes` each: 1, 2, 4, 8 or 16) whose flag
// is true, in order, into `out`, or with `values` null their positions 0..n-1 as int64. `out`
// holds `limit` items; those past it are dropped. *count (device memory) gets how many flags
// were true, `limit` or not.
struct selection {
  const void* values = nullptr;
  int item_bytes = 8;
  const bool* flags = nullptr;
  std::int64_t n = 0;
  void* out = nullptr;
  std::int64_t limit = 0;
  std::int64_t* count = nullptr;
};

// CUB's convention: with `scratch` null, returns the scratch bytes `s` needs and does nothing;
// else runs it on `stream` with that scratch. Throws jet::cuda_error on a failed status.
std::size_t select_flagged(void* scratch, std::size_t scratch_bytes, const selection& s,
                           cudaStream_t stream);

}  // namespace jet::detail
