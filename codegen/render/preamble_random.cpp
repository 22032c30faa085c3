// The helpers of random draws fused into Jet's kernels (detail::random_node): Philox4x32-10
// (philox.h, embedded at build time) and the values a draw makes of its blocks.
#include "codegen/render/preamble.hpp"

namespace jet::codegen {

extern const char philox_code[];

namespace {

constexpr helper drawing[] = {
    {"jet_philox", philox_code},
    {"jet_draw",
     R"(// A random draw: Philox's key and the counter of its first block. Element e of the draw is
// value e % N of the block at counter base + e / N, where a block of four words makes N values
// (jet_draw_values): 32-bit words (or 64-bit from two), or uniforms on [0, 1) (24 bits a float,
// 53 a double), or standard normals (Box-Muller: a float pair from two words, a double pair
// from four).
struct jet_draw {
  unsigned int key0, key1;
  unsigned long long base;
};
template <class T> __device__ constexpr int jet_draw_per_block() { return sizeof(T) == 8 ? 2 : 4; }
__device__ __forceinline__ jet_philox_block jet_draw_block(const jet_draw& d, unsigned long long b) {
  const unsigned long long c = d.base + b;
  const unsigned int counter[4] = {(unsigned int)c, (unsigned int)(c >> 32), 0u, 0u};
  return jet_philox(counter, d.key0, d.key1);
}
__device__ __forceinline__ double jet_draw_unit53(unsigned int hi, unsigned int lo) {
  return (double)((unsigned long long)hi << 21 | lo >> 11) * 1.1102230246251565404236316680908203125e-16;
}
// D: 0 words, 1 uniforms, 2 normals.
template <int D, class T> __device__ __forceinline__ void jet_draw_values(const jet_philox_block& b, T* out) {
  if constexpr (D == 0 && sizeof(T) == 4) {
    for (int i = 0; i < 4; ++i) out[i] = b.v[i];
  } else if constexpr (D == 0) {
    for (int i = 0; i < 2; ++i) out[i] = (unsigned long long)b.v[2 * i] << 32 | b.v[2 * i + 1];
  } else if constexpr (D == 1 && sizeof(T) == 4) {
    for (int i = 0; i < 4; ++i) out[i] = (float)(b.v[i] >> 8) * 5.9604644775390625e-8f;
  } else if constexpr (D == 1) {
    for (int i = 0; i < 2; ++i) out[i] = jet_draw_unit53(b.v[2 * i], b.v[2 * i + 1]);
  } else if constexpr (sizeof(T) == 4) {
    for (int i = 0; i < 2; ++i) {
      const float u = (float)((b.v[2 * i] >> 8) + 1u) * 5.9604644775390625e-8f;  // (0, 1]
      const float r = sqrtf(-2.0f * logf(u));
      float s, c;
      sincospif((float)(b.v[2 * i + 1] >> 8) * 1.1920928955078125e-7f, &s, &c);
      out[2 * i] = r * c;
      out[2 * i + 1] = r * s;
    }
  } else {
    const double u = jet_draw_unit53(b.v[0], b.v[1]) + 1.1102230246251565404236316680908203125e-16;
    const double r = sqrt(-2.0 * log(u));
    double s, c;
    sincospi(2.0 * jet_draw_unit53(b.v[2], b.v[3]), &s, &c);
    out[0] = r * c;
    out[1] = r * s;
  }
}
// The value of element e.
template <int D, class T> __device__ __forceinline__ T jet_draw_at(const jet_draw& d, unsigned long long e) {
  constexpr int N = jet_draw_per_block<T>();
  T v[N];
  jet_draw_values<D>(jet_draw_block(d, e / N), v);
  const int part = (int)(e % N);
  T x = v[0];
  #pragma unroll
  for (int q = 1; q < N; ++q) if (part == q) x = v[q];
  return x;
}
// The values of elements first, ..., first + W - 1, `first` a multiple of W: whole blocks when
// W >= N, else a part of one.
template <int D, class T, int W> __device__ __forceinline__ void jet_draw_fill(const jet_draw& d, unsigned long long first, T* out) {
  constexpr int N = jet_draw_per_block<T>();
  if constexpr (W >= N) {
    #pragma unroll
    for (int j = 0; j < W / N; ++j) jet_draw_values<D>(jet_draw_block(d, first / N + j), out + j * N);
  } else {
    T v[N];
    jet_draw_values<D>(jet_draw_block(d, first / N), v);
    const int part = (int)(first % N);
    #pragma unroll
    for (int q = 0; q < N; q += W)
      if (part == q) {
        #pragma unroll
        for (int k = 0; k < W; ++k) out[k] = v[q + k];
      }
  }
}
)"},
};

}  // namespace

std::span<const helper> random_helpers() { return drawing; }

}  // namespace jet::codegen
