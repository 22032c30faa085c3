// count_bins over CUB's DeviceHistogram: each bin index is its own sample, in bins of width
// one from 0, so CUB counts them in shared memory, block by block, and adds the blocks' counts.
// The samples are floats, which CUB bins by one multiplication (by 1.0: exact for indices up to
// 2^24), where it would bin integers by a 64-bit division.
#include <cub/device/device_histogram.cuh>
#include <string>

#include "src/device/cuda_check.hpp"
#include "src/statistics/count_bins.hpp"

namespace jet::detail {

std::size_t count_bins(void* scratch, std::size_t bytes, const bin_count_job& job,
                       cudaStream_t stream) {
  if (job.size < 1 || job.size > max_counted_bins)
    throw internal_error("count_bins given " + std::to_string(job.size) + " bins");
  const int bins = static_cast<int>(job.size);
  check_cuda(cub::DeviceHistogram::HistogramEven(scratch, bytes, job.bins, job.counts, bins + 1,
                                                 0.0f, static_cast<float>(bins), job.n, stream),
             "cub::DeviceHistogram");
  return bytes;
}

}  // namespace jet::detail
