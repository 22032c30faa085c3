// A tiled SGEMM from a CUDA C string, launched through jet::raw_kernel on Jet's arrays and
// checked against jet::matmul (cuBLAS).
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include <jet/jet.hpp>

#include "example_main.hpp"

namespace {

// C = A B for row-major A (m x k), B (k x n): 32x32 output tiles, each thread computing a
// 4-element column strip, with A and B tiles staged through shared memory.
const char* const sgemm_source = R"(
#define TILE 32
extern "C" __global__ void sgemm(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float as[TILE][TILE + 1];
  __shared__ float bs[TILE][TILE + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;  // blocks of 32 x 8 threads
  const int row0 = blockIdx.y * TILE, col = blockIdx.x * TILE + tx;
  float sum[4] = {0, 0, 0, 0};
  for (int t = 0; t < k; t += TILE) {
    for (int r = ty; r < TILE; r += 8) {
      const int ar = row0 + r, ac = t + tx, br = t + r;
      as[r][tx] = ar < m && ac < k ? a[(long long)ar * k + ac] : 0.0f;
      bs[r][tx] = br < k && col < n ? b[(long long)br * n + col] : 0.0f;
    }
    __syncthreads();
    for (int e = 0; e < TILE; ++e) {
      const float bv = bs[e][tx];
      for (int q = 0; q < 4; ++q) sum[q] += as[ty + 8 * q][e] * bv;
    }
    __syncthreads();
  }
  for (int q = 0; q < 4; ++q) {
    const int row = row0 + ty + 8 * q;
    if (row < m && col < n) c[(long long)row * n + col] = sum[q];
  }
}
)";

int run() {
  const int m = 1000, n = 1200, k = 700;  // not multiples of the tile, to exercise the edges
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> ha(std::size_t(m) * k), hb(std::size_t(k) * n);
  for (float& v : ha) v = dist(rng);
  for (float& v : hb) v = dist(rng);
  const jet::array a = jet::asarray(ha, jet::shape{m, k}), b = jet::asarray(hb, jet::shape{k, n});
  const jet::array c = jet::empty({m, n}, jet::float32);
  const jet::raw_kernel sgemm(sgemm_source, "sgemm");
  sgemm({unsigned(n + 31) / 32, unsigned(m + 31) / 32}, {32, 8}, a, b, c, m, n, k);
  const jet::array want = jet::matmul(a, b);
  const double error = jet::max(jet::absolute(c - want)).eval().item<double>();
  const double scale = jet::max(jet::absolute(want)).eval().item<double>();
  const jet::kernel_attributes attributes = sgemm.attributes();
  std::printf(
      "sgemm %dx%dx%d: largest difference from cuBLAS %.3g (largest value %.3g); %d registers, %zu "
      "B shared\n",
      m, n, k, error, scale, attributes.num_regs, attributes.shared_size_bytes);
  if (!(error <= 1e-4 * scale)) {
    std::printf("FAILED: the raw kernel's product differs from cuBLAS\n");
    return 1;
  }
  return 0;
}

}  // namespace

int main() { return example_main("sgemm_raw", run); }
