// The dispatch of radix_job over CUB's key and value types, and over one sort of all keys,
// one per row (few long rows), or one segmented sort of many rows.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_segmented_sort.cuh>
#include <string>
#include <type_traits>

#include "src/device/cuda_check.hpp"
#include "src/sort/radix_sort.hpp"

namespace jet::detail {
namespace {

// CUB's segmented sort gives a long row to one thread block; rows this long, when there are
// few of them, go to the device-wide sort one row at a time instead.
constexpr std::int64_t long_row = std::int64_t{1} << 16;
constexpr std::int64_t few_rows = 16;

struct row_start {
  std::int64_t length;
  __host__ __device__ std::int64_t operator()(std::int64_t row) const { return row * length; }
};

// Typed pointers to a job's keys and values, `offset` items in.
template <class K, class V>
struct typed_job {
  const K* keys_in;
  K* keys_out;
  const V* values_in;
  V* values_out;

  typed_job(const radix_job& job, std::int64_t offset)
      : keys_in(static_cast<const K*>(job.keys_in) + offset),
        keys_out(static_cast<K*>(job.keys_out) + offset),
        values_in(static_cast<const V*>(job.values_in) + offset),
        values_out(static_cast<V*>(job.values_out) + offset) {}
};

template <class K, class V>
cudaError_t sort_all(void* scratch, std::size_t& bytes, const typed_job<K, V>& t, std::int64_t n,
                     cudaStream_t stream) {
  constexpr int bits = int(sizeof(K) * 8);
  if constexpr (std::is_same_v<V, cub::NullType>)
    return cub::DeviceRadixSort::SortKeys(scratch, bytes, t.keys_in, t.keys_out, n, 0, bits,
                                          stream);
  else
    return cub::DeviceRadixSort::SortPairs(scratch, bytes, t.keys_in, t.keys_out, t.values_in,
                                           t.values_out, n, 0, bits, stream);
}

template <class K, class V>
cudaError_t sort_segments(void* scratch, std::size_t& bytes, const typed_job<K, V>& t,
                          std::int64_t n, std::int64_t rows, cudaStream_t stream) {
  const auto starts = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                      row_start{n / rows});
  if constexpr (std::is_same_v<V, cub::NullType>)
    return cub::DeviceSegmentedSort::StableSortKeys(scratch, bytes, t.keys_in, t.keys_out, n,
                                                    rows, starts, starts + 1, stream);
  else
    return cub::DeviceSegmentedSort::StableSortPairs(scratch, bytes, t.keys_in, t.keys_out,
                                                     t.values_in, t.values_out, n, rows, starts,
                                                     starts + 1, stream);
}

template <class K, class V>
std::size_t run(void* scratch, std::size_t bytes, const radix_job& job, cudaStream_t stream) {
  const std::int64_t length = job.n / job.rows;
  if (job.rows > 1 && (job.rows > few_rows || length < long_row)) {
    check_cuda(sort_segments(scratch, bytes, typed_job<K, V>(job, 0), job.n, job.rows, stream),
               "cub::DeviceSegmentedSort");
    return bytes;
  }
  // One sort of every key, or of each row in turn (a size query asks for one row's scratch).
  const std::int64_t sorts = scratch ? job.rows : 1;
  for (std::int64_t row = 0; row < sorts; ++row)
    check_cuda(sort_all(scratch, bytes, typed_job<K, V>(job, row * length), length, stream),
               "cub::DeviceRadixSort");
  return bytes;
}

template <class K>
std::size_t run_key(void* scratch, std::size_t bytes, const radix_job& job, cudaStream_t stream) {
  switch (job.value_bytes) {
    case 0: return run<K, cub::NullType>(scratch, bytes, job, stream);
    case 4: return run<K, std::int32_t>(scratch, bytes, job, stream);
    case 8: return run<K, std::int64_t>(scratch, bytes, job, stream);
    default:
      throw internal_error("radix_sort given values of " + std::to_string(job.value_bytes) +
                           " bytes");
  }
}

}  // namespace

std::size_t radix_sort(void* scratch, std::size_t bytes, const radix_job& job,
                       cudaStream_t stream) {
  if (job.n == 0) return 0;
  if (job.rows < 1 || job.n % job.rows != 0)
    throw internal_error("radix_sort given " + std::to_string(job.n) + " keys in " +
                         std::to_string(job.rows) + " rows");
  switch (job.key_bytes) {
    case 1: return run_key<std::uint8_t>(scratch, bytes, job, stream);
    case 2: return run_key<std::uint16_t>(scratch, bytes, job, stream);
    case 4: return run_key<std::uint32_t>(scratch, bytes, job, stream);
    case 8: return run_key<std::uint64_t>(scratch, bytes, job, stream);
    case 16: return run_key<__uint128_t>(scratch, bytes, job, stream);
    default:
      throw internal_error("radix_sort given keys of " + std::to_string(job.key_bytes) +
                           " bytes");
  }
}

}  // namespace jet::detail
