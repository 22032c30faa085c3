// Direct calls of CUB's device algorithms, built by nvcc beside the benchmarks: the reference
// figures Jet's sorts and scans are held to, in the same run. Each allocates nothing on the timed
// path: the caller passes scratch of the size the call with null scratch returns.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace bench::cub_reference {

// cub::DeviceRadixSort::SortKeys of float keys.
std::size_t sort_floats(void* scratch, std::size_t bytes, const float* in, float* out,
                        std::int64_t n, cudaStream_t stream);
// argsort as CUB's users write it: an iota kernel, then SortPairs of float keys and int64
// positions.
std::size_t argsort_floats(void* scratch, std::size_t bytes, const float* in, float* keys_out,
                           std::int64_t* iota, std::int64_t* out, std::int64_t n,
                           cudaStream_t stream);
// cub::DeviceSegmentedSort::StableSortKeys of rows of `length` floats.
std::size_t sort_float_rows(void* scratch, std::size_t bytes, const float* in, float* out,
                            std::int64_t rows, std::int64_t length, cudaStream_t stream);
// cub::DeviceScan::InclusiveSum of floats.
std::size_t inclusive_sum_floats(void* scratch, std::size_t bytes, const float* in, float* out,
                                 std::int64_t n, cudaStream_t stream);

}  // namespace bench::cub_reference
