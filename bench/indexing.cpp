// Advanced indexing benchmarks: x[idx] through 2^26 random int64 positions, alone and fused
// into sin(x[idx]) * 2 + y; x[mask] (half true) read and assigned; concatenate of two 2^26
// arrays and of two expressions; add_at of 2^24 values into 2^16 bins; beside the copy bandwidth
// and CuPy's figures (bench/compare.py).
#include <cstdio>
#include <string>

#include "bench/timing.hpp"
#include "jet/jet.hpp"

namespace {

// Hand-written gathers, the floor a generated kernel is held to: one element a thread, and
// four a thread with the four reads issued before any is used.
const char* const gathers = R"(
extern "C" __global__ void gather1(float* out, const float* x, const long long* idx,
                                   const float* y, long long n, int fused) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float v = x[idx[i]];
  out[i] = fused ? sinf(v) * 2.0f + y[i] : v;
}
extern "C" __global__ void gather4(float* out, const float* x, const long long* idx,
                                   const float* y, long long n, int fused) {
  const long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i + 3 >= n) return;
  float v[4];
  #pragma unroll
  for (int k = 0; k < 4; ++k) v[k] = x[idx[i + k]];
  #pragma unroll
  for (int k = 0; k < 4; ++k) out[i + k] = fused ? sinf(v[k]) * 2.0f + y[i + k] : v[k];
}
// x[mask] = 0 by hand, 4 and 16 elements a thread (n a multiple of 16): whether more bytes in
// flight a thread than Jet's 4-lane kernel moves the masked store past 90% of the copy bandwidth.
extern "C" __global__ void mask_zero4(float* x, const unsigned char* m, long long n) {
  const long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 4;
  if (i >= n) return;
  float4 v = *(const float4*)(x + i);
  const uchar4 b = *(const uchar4*)(m + i);
  if (b.x) v.x = 0.0f;
  if (b.y) v.y = 0.0f;
  if (b.z) v.z = 0.0f;
  if (b.w) v.w = 0.0f;
  *(float4*)(x + i) = v;
}
extern "C" __global__ void mask_zero16(float* x, const unsigned char* m, long long n) {
  const long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * 16;
  if (i >= n) return;
  float4 v[4];
  #pragma unroll
  for (int k = 0; k < 4; ++k) v[k] = *(const float4*)(x + i + 4 * k);
  const uint4 b = *(const uint4*)(m + i);
  const unsigned w[4] = {b.x, b.y, b.z, b.w};
  #pragma unroll
  for (int k = 0; k < 4; ++k) {
    if (w[k] & 0xffu) v[k].x = 0.0f;
    if (w[k] & 0xff00u) v[k].y = 0.0f;
    if (w[k] & 0xff0000u) v[k].z = 0.0f;
    if (w[k] & 0xff000000u) v[k].w = 0.0f;
  }
  #pragma unroll
  for (int k = 0; k < 4; ++k) *(float4*)(x + i + 4 * k) = v[k];
}
extern "C" __global__ void scatter_add(float* bins, const long long* idx, const float* v,
                                       long long n) {
  const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(bins + idx[i], v[i]);
}
)";

}  // namespace

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;
  const std::int64_t n = std::int64_t{1} << 26;
  const jet::array x = bench::random_floats({n}, 0.1f), y = bench::random_floats({n}, 0.2f);
  // Positions spread over all of x: a multiplicative hash of the element index.
  const jet::array idx = (jet::arange(n) * 2654435761LL) % n;
  jet::array out = jet::empty({n}, jet::float32);

  const double gather = bench::median_ms([&] { out(jet::ellipsis) = x(idx); });
  // Reads idx (8 bytes) and x (4, scattered), writes 4, per element.
  std::printf("x[idx], 2^26 float32: %.4f ms, %.1f%% of copy bandwidth (16 bytes an element)\n",
              gather, 100 * 16.0 * n / (gather * 1e-3) / 1e9 / copy);
  bench::result("x[idx] gather 2^26 (ms)", gather, "ms", "<= CuPy");
  const double fused = bench::median_ms([&] { out(jet::ellipsis) = jet::sin(x(idx)) * 2.0f + y; });
  std::printf("sin(x[idx]) * 2 + y: %.4f ms\n", fused);
  bench::result("sin(x[idx])*2+y 2^26 (ms)", fused, "ms", "<= CuPy/2");
  const jet::raw_kernel gather1(gathers, "gather1"), gather4(gathers, "gather4");
  for (int f : {0, 1}) {
    const double one =
        bench::median_ms([&] { gather1((n + 255) / 256, 256, out, x, idx, y, n, f); });
    const double four =
        bench::median_ms([&] { gather4((n / 4 + 255) / 256, 256, out, x, idx, y, n, f); });
    std::printf("hand-written %s: %.4f ms one a thread, %.4f ms four a thread\n",
                f ? "sin(x[idx]) * 2 + y" : "x[idx]", one, four);
    bench::result(f ? "hand-written sin(x[idx])*2+y 2^26 (ms)" : "hand-written x[idx] 2^26 (ms)",
                  std::min(one, four), "ms", "reference");
    std::printf("RESULT hand-written %s, one / four a thread: %.4f / %.4f ms\n",
                f ? "fused" : "gather", one, four);
  }

  // Every other element, scrambled the same way.
  const jet::array mask = (jet::arange(n) * 2654435761LL) % 2 == 0;
  const double compact = bench::median_ms([&] { const jet::array r = x(mask); });
  std::printf("x[mask], 2^26 float32, half true: %.4f ms (counts, then compacts)\n", compact);
  bench::result("x[mask] compaction 2^26 (ms)", compact, "ms", "<= CuPy");
  jet::array z = x.copy();
  const double store = bench::median_ms([&] { z(mask) = 0.0f; });
  // Reads x (4 bytes) and the mask (1), writes x (4).
  const double store_pct = 100 * 9.0 * n / (store * 1e-3) / 1e9 / copy;
  std::printf("x[mask] = 0: %.4f ms, %.1f%% of copy bandwidth (9 bytes an element)\n", store,
              store_pct);
  bench::result("x[mask] = 0 2^26 (ms)", store, "ms", "<= CuPy");
  bench::result("x[mask] = 0 2^26 (% of copy bandwidth)", store_pct, "%", ">= 90");
  const jet::raw_kernel mask_zero4(gathers, "mask_zero4"), mask_zero16(gathers, "mask_zero16");
  for (int width : {4, 16}) {
    const jet::raw_kernel& k = width == 4 ? mask_zero4 : mask_zero16;
    const std::int64_t threads = n / width;
    const double hand = bench::median_ms([&] { k((threads + 255) / 256, 256, z, mask, n); });
    std::printf("hand-written x[mask] = 0, %d a thread: %.4f ms, %.1f%% of copy bandwidth\n", width,
                hand, 100 * 9.0 * n / (hand * 1e-3) / 1e9 / copy);
  }

  // Reads and writes 4 bytes an element of each part.
  auto join_pct = [&](double ms) { return 100 * 16.0 * n / (ms * 1e-3) / 1e9 / copy; };
  const double join = bench::median_ms([&] { const jet::array r = jet::concatenate({x, y}); });
  std::printf("concatenate({x, y}), 2 x 2^26 float32: %.4f ms, %.1f%% of copy bandwidth\n", join,
              join_pct(join));
  bench::result("concatenate 2 x 2^26 (ms)", join, "ms", "<= CuPy");
  bench::result("concatenate 2 x 2^26 (% of copy bandwidth)", join_pct(join), "%", ">= 90");
  const double joined = bench::median_ms([&] {
    const jet::array r = jet::concatenate({x * 2.0f, y + 1.0f});
  });
  const jet::cache::statistics before = jet::cache::stats();
  { const jet::array r = jet::concatenate({x * 2.0f, y + 1.0f}); }
  const jet::cache::statistics after = jet::cache::stats();
  const auto kernels = (after.memory_hits + after.disk_hits + after.compiles) -
                       (before.memory_hits + before.disk_hits + before.compiles);
  std::printf("concatenate({x * 2, y + 1}): %.4f ms, %.1f%% of copy bandwidth, %d kernel(s)\n",
              joined, join_pct(joined), static_cast<int>(kernels));
  bench::result("concatenate(x*2, y+1) kernels", static_cast<double>(kernels), "", "1");
  bench::result("concatenate(x*2, y+1) 2 x 2^26 (ms)", joined, "ms", "<= CuPy");
  bench::result("concatenate(x*2, y+1) 2 x 2^26 (% of copy bandwidth)", join_pct(joined), "%",
                ">= 90");
  // The one-kernel join computes every part's expression at every element (only the reads are
  // guarded): against writing each part into its slab, for parts of heavy arithmetic.
  for (jet::dtype t : {jet::float32, jet::float64}) {
    const jet::array a = x.astype(t), b = y.astype(t);
    jet::array both = jet::empty({2 * n}, t);
    const double one = bench::median_ms([&] {
      const jet::array r = jet::concatenate({jet::exp(a) * jet::sin(a), jet::log1p(b) / b});
    });
    const double apart = bench::median_ms([&] {
      both(jet::slice(0, n)) = jet::exp(a) * jet::sin(a);
      both(jet::slice(n, 2 * n)) = jet::log1p(b) / b;
    });
    std::printf(
        "concatenate({exp(a)*sin(a), log1p(b)/b}) %s: %.4f ms one kernel, %.4f ms part by "
        "part\n",
        std::string(jet::name(t)).c_str(), one, apart);
  }

  // add_at: 2^24 values into 2^16 bins at scrambled positions.
  const std::int64_t m = std::int64_t{1} << 24, bins = std::int64_t{1} << 16;
  const jet::array where_to = (jet::arange(m) * 2654435761LL) % bins;
  const jet::array values = bench::random_floats({m}, 0.3f);
  jet::array histogram = jet::zeros({bins}, jet::float32);
  const double add_at = bench::median_ms([&] { jet::add_at(histogram, where_to, values); });
  std::printf("add_at, 2^24 float32 into 2^16 bins: %.4f ms\n", add_at);
  bench::result("add_at 2^24 into 2^16 bins (ms)", add_at, "ms", "<= CuPy");
  const jet::raw_kernel scatter_add(gathers, "scatter_add");
  const double hand =
      bench::median_ms([&] { scatter_add((m + 255) / 256, 256, histogram, where_to, values, m); });
  bench::result("hand-written scatter_add 2^24 into 2^16 bins (ms)", hand, "ms", "reference");
  // Ten calls a timing: the GPU's time, not one call's host latency before its launch.
  const double ten = bench::median_ms([&] {
    for (int k = 0; k < 10; ++k) jet::add_at(histogram, where_to, values);
  });
  bench::result("add_at 2^24 into 2^16 bins, ten in a row (ms each)", ten / 10, "ms", "<= CuPy");
  return 0;
}
