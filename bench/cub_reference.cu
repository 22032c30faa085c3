#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <cstdio>
#include <cstdlib>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_scan.cuh>
#include <cub/device/device_segmented_sort.cuh>

#include "bench/cub_reference.hpp"

namespace bench::cub_reference {
namespace {

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

__global__ void iota(std::int64_t* out, std::int64_t n) {
  const std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x;
  if (i < n) out[i] = i;
}

struct row_start {
  std::int64_t length;
  __host__ __device__ std::int64_t operator()(std::int64_t row) const { return row * length; }
};

}  // namespace

std::size_t sort_floats(void* scratch, std::size_t bytes, const float* in, float* out,
                        std::int64_t n, cudaStream_t stream) {
  check(cub::DeviceRadixSort::SortKeys(scratch, bytes, in, out, n, 0, 32, stream), "SortKeys");
  return bytes;
}

std::size_t argsort_floats(void* scratch, std::size_t bytes, const float* in, float* keys_out,
                           std::int64_t* iota_out, std::int64_t* out, std::int64_t n,
                           cudaStream_t stream) {
  if (scratch) iota<<<static_cast<unsigned>((n + 255) / 256), 256, 0, stream>>>(iota_out, n);
  check(cub::DeviceRadixSort::SortPairs(scratch, bytes, in, keys_out, iota_out, out, n, 0, 32,
                                        stream),
        "SortPairs");
  return bytes;
}

std::size_t sort_float_rows(void* scratch, std::size_t bytes, const float* in, float* out,
                            std::int64_t rows, std::int64_t length, cudaStream_t stream) {
  const auto starts = thrust::make_transform_iterator(thrust::counting_iterator<std::int64_t>(0),
                                                      row_start{length});
  check(cub::DeviceSegmentedSort::StableSortKeys(scratch, bytes, in, out, rows * length, rows,
                                                 starts, starts + 1, stream),
        "DeviceSegmentedSort");
  return bytes;
}

std::size_t inclusive_sum_floats(void* scratch, std::size_t bytes, const float* in, float* out,
                                 std::int64_t n, cudaStream_t stream) {
  check(cub::DeviceScan::InclusiveSum(scratch, bytes, in, out, n, stream), "InclusiveSum");
  return bytes;
}

}  // namespace bench::cub_reference
