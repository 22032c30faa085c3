// count_digits over CUB's DeviceHistogram: each key becomes the bin of its row and digit, or a
// sample below the histogram's range (which CUB leaves out) where its higher digits differ
// from the row's prefix. The samples are doubles, which CUB bins by one multiplication (by
// 1.0: exact for every bin), where it would bin integers by a 64-bit division.
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cub/device/device_histogram.cuh>
#include <string>

#include "src/device/cuda_check.hpp"
#include "src/sort/radix_select.hpp"

namespace jet::detail {
namespace {

template <class K>
struct digit_bin {
  const K* keys;
  const std::uint64_t* prefixes;
  std::int64_t length;
  int shift;
  std::int64_t rows;
  __host__ __device__ double operator()(std::int64_t i) const {
    const std::int64_t row = rows == 1 ? 0 : i / length;
    const std::uint64_t key = keys[i];
    const int above = shift + 8;
    const bool counted = above >= 64 || (key >> above) == (prefixes[row] >> above);
    return counted ? static_cast<double>(row * 256 + static_cast<long long>((key >> shift) & 255u))
                   : -1.0;
  }
};

template <class K>
std::size_t count(void* scratch, std::size_t bytes, const digit_count_job& job,
                  cudaStream_t stream) {
  const digit_bin<K> bin{static_cast<const K*>(job.keys), job.prefixes, job.n / job.rows,
                         job.shift, job.rows};
  const auto samples =
      thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0), bin);
  const long long bins = job.rows * 256;
  check_cuda(cub::DeviceHistogram::HistogramEven(scratch, bytes, samples, job.counts,
                                                 static_cast<int>(bins + 1), 0.0,
                                                 static_cast<double>(bins), job.n,
                                                 stream),
             "cub::DeviceHistogram");
  return bytes;
}

}  // namespace

std::size_t count_digits(void* scratch, std::size_t bytes, const digit_count_job& job,
                         cudaStream_t stream) {
  if (job.n == 0) return 0;
  if (job.rows < 1 || job.n % job.rows != 0 || job.rows > max_select_rows)
    throw internal_error("count_digits given " + std::to_string(job.n) + " keys in " +
                         std::to_string(job.rows) + " rows");
  switch (job.key_bytes) {
    case 1: return count<std::uint8_t>(scratch, bytes, job, stream);
    case 2: return count<std::uint16_t>(scratch, bytes, job, stream);
    case 4: return count<std::uint32_t>(scratch, bytes, job, stream);
    case 8: return count<std::uint64_t>(scratch, bytes, job, stream);
    default:
      throw internal_error("count_digits given keys of " + std::to_string(job.key_bytes) +
                           " bytes");
  }
}

}  // namespace jet::detail
