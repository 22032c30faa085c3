// sort_values: CUB's radix sort of each real dtype's own values, and the two kernels that move
// NaNs with the sign bit set from the front of a sorted row to its end.
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cub/device/device_radix_sort.cuh>
#include <string>

#include "src/device/cuda_check.hpp"
#include "src/sort/radix_sort.hpp"

namespace jet::detail {
namespace {

// A float's bits (U unsigned; `inf` is +inf's bits) hold a NaN with the sign bit set.
template <class U>
__device__ bool negative_nan(U bits, U inf) {
  const U sign = U(U(1) << (sizeof(U) * 8 - 1));
  return (bits & sign) && U(bits & U(~sign)) > inf;
}

// How many of the sorted row's first values are NaNs with the sign bit set: CUB sorts them
// below -inf, so they are a prefix, found by bisection.
template <class U>
__global__ void count_negative_nans(const U* sorted, std::int64_t n, U inf, std::int64_t* count) {
  std::int64_t lo = 0, hi = n;
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (negative_nan(sorted[mid], inf)) lo = mid + 1;
    else hi = mid;
  }
  *count = lo;
}

// spare = the row rotated left by *count (the NaNs last, their sign cleared), then row = spare.
template <class U>
__global__ void rotate_into(const U* row, U* spare, std::int64_t n, const std::int64_t* count) {
  const std::int64_t k = *count;
  if (k == 0) return;
  const U sign = U(U(1) << (sizeof(U) * 8 - 1));
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::int64_t from = i + k < n ? i + k : i + k - n;
    spare[i] = from < k ? U(row[from] & U(~sign)) : row[from];
  }
}

template <class U>
__global__ void copy_back(U* row, const U* spare, std::int64_t n, const std::int64_t* count) {
  if (*count == 0) return;
  for (std::int64_t i = blockIdx.x * std::int64_t{blockDim.x} + threadIdx.x; i < n;
       i += std::int64_t{gridDim.x} * blockDim.x)
    row[i] = spare[i];
}

template <class U>
void move_negative_nans(const value_sort_job& job, U inf, cudaStream_t stream) {
  U* row = static_cast<U*>(job.out);
  U* spare = static_cast<U*>(job.spare);
  // Enough blocks to stream a row at full speed; each returns at once when there is no NaN.
  const unsigned blocks = static_cast<unsigned>(std::min<std::int64_t>((job.n + 255) / 256, 1024));
  count_negative_nans<<<1, 1, 0, stream>>>(row, job.n, inf, job.count);
  rotate_into<<<blocks, 256, 0, stream>>>(row, spare, job.n, job.count);
  copy_back<<<blocks, 256, 0, stream>>>(row, spare, job.n, job.count);
  check_cuda(cudaGetLastError(), "the kernels moving NaNs to the end of a sort");
}

template <class T>
std::size_t run(void* scratch, std::size_t bytes, const value_sort_job& job,
                cudaStream_t stream) {
  check_cuda(cub::DeviceRadixSort::SortKeys(scratch, bytes, static_cast<const T*>(job.in),
                                            static_cast<T*>(job.out), job.n, 0,
                                            int(sizeof(T) * 8), stream),
             "cub::DeviceRadixSort::SortKeys");
  if (!scratch || !job.spare) return bytes;
  if constexpr (std::is_same_v<T, float>)
    move_negative_nans<std::uint32_t>(job, 0x7f800000u, stream);
  else if constexpr (std::is_same_v<T, double>)
    move_negative_nans<std::uint64_t>(job, 0x7ff0000000000000ull, stream);
  else if constexpr (std::is_same_v<T, __half>)
    move_negative_nans<std::uint16_t>(job, 0x7c00, stream);
  else if constexpr (std::is_same_v<T, __nv_bfloat16>)
    move_negative_nans<std::uint16_t>(job, 0x7f80, stream);
  return bytes;
}

}  // namespace

std::size_t sort_values(void* scratch, std::size_t bytes, const value_sort_job& job,
                        cudaStream_t stream) {
  if (job.n == 0) return 0;
  switch (job.type) {
    case dtype::bool_:
    case dtype::uint8: return run<std::uint8_t>(scratch, bytes, job, stream);
    case dtype::int8: return run<std::int8_t>(scratch, bytes, job, stream);
    case dtype::int16: return run<std::int16_t>(scratch, bytes, job, stream);
    case dtype::uint16: return run<std::uint16_t>(scratch, bytes, job, stream);
    case dtype::int32: return run<std::int32_t>(scratch, bytes, job, stream);
    case dtype::uint32: return run<std::uint32_t>(scratch, bytes, job, stream);
    case dtype::int64: return run<std::int64_t>(scratch, bytes, job, stream);
    case dtype::uint64: return run<std::uint64_t>(scratch, bytes, job, stream);
    case dtype::float16: return run<__half>(scratch, bytes, job, stream);
    case dtype::bfloat16: return run<__nv_bfloat16>(scratch, bytes, job, stream);
    case dtype::float32: return run<float>(scratch, bytes, job, stream);
    case dtype::float64: return run<double>(scratch, bytes, job, stream);
    default: break;
  }
  throw internal_error("sort_values given " + std::string(name(job.type)));
}

}  // namespace jet::detail
