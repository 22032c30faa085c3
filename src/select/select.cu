// CUB's DeviceSelect::Flagged for every item size Jet's dtypes have, and for positions.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/tabulate_output_iterator.h>
#include <cub/device/device_select.cuh>

#include "src/device/cuda_check.hpp"
#include "src/select/select.hpp"

namespace jet::detail {
namespace {

// An item of 16 bytes (complex128), moved whole.
struct alignas(16) pair_of_words {
  std::uint64_t low, high;
};

// Writes item i to out[i] while i < limit, drops it otherwise (a bounded result).
template <class T>
struct bounded_store {
  T* out;
  std::int64_t limit;
  __device__ void operator()(std::int64_t i, const T& item) const {
    if (i < limit) out[i] = item;
  }
};

template <class In, class T>
std::size_t run(void* scratch, std::size_t bytes, In in, const selection& s, cudaStream_t stream) {
  T* out = static_cast<T*>(s.out);
  cudaError_t status = cudaSuccess;
  if (s.limit >= s.n) {
    status = cub::DeviceSelect::Flagged(scratch, bytes, in, s.flags, out, s.count, s.n, stream);
  } else {
    auto bounded = thrust::make_tabulate_output_iterator(bounded_store<T>{out, s.limit});
    status = cub::DeviceSelect::Flagged(scratch, bytes, in, s.flags, bounded, s.count, s.n, stream);
  }
  check_cuda(status, "cub::DeviceSelect::Flagged");
  return bytes;
}

template <class T>
std::size_t run_items(void* scratch, std::size_t bytes, const selection& s, cudaStream_t stream) {
  return run<const T*, T>(scratch, bytes, static_cast<const T*>(s.values), s, stream);
}

}  // namespace

std::size_t select_flagged(void* scratch, std::size_t bytes, const selection& s,
                           cudaStream_t stream) {
  if (!s.values)
    return run<thrust::counting_iterator<std::int64_t>, std::int64_t>(
        scratch, bytes, thrust::counting_iterator<std::int64_t>(0), s, stream);
  switch (s.item_bytes) {
    case 1: return run_items<std::uint8_t>(scratch, bytes, s, stream);
    case 2: return run_items<std::uint16_t>(scratch, bytes, s, stream);
    case 4: return run_items<std::uint32_t>(scratch, bytes, s, stream);
    case 8: return run_items<std::uint64_t>(scratch, bytes, s, stream);
    case 16: return run_items<pair_of_words>(scratch, bytes, s, stream);
    default:
      throw internal_error("select_flagged given items of " + std::to_string(s.item_bytes) +
                           " bytes");
  }
}

}  // namespace jet::detail
