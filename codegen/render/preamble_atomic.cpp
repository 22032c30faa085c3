// The helpers of scatters that combine (NumPy's ufunc.at: add, maximum, minimum): the
// hardware's atomics where it has them, compare-and-swap on the aligned word elsewhere.
#include "codegen/render/preamble.hpp"

namespace jet::codegen {
namespace {

constexpr helper table[] = {
    {"jet_atomic_word",
     R"(// Replaces the S at p (1, 2, 4, 8 or 16 bytes, naturally aligned) by f(old) atomically, by
// compare-and-swap on the aligned word that holds it (16 bytes: compute capability 9.0 on).
template <int N, class A, class B> __device__ __forceinline__ void jet_copy_bytes(A* to, const B* from) {
  #pragma unroll
  for (int i = 0; i < N; ++i) ((unsigned char*)to)[i] = ((const unsigned char*)from)[i];
}
template <class S, class F> __device__ __forceinline__ void jet_atomic_word(S* p, F f) {
  static_assert(sizeof(S) <= 8 || sizeof(S) == 16, "no compare-and-swap of this size");
  if constexpr (sizeof(S) == 16) {
    // The first read may tear; the swap then fails and returns what is there.
    unsigned long long seen[2] = {((volatile unsigned long long*)p)[0], ((volatile unsigned long long*)p)[1]};
    for (;;) {
      S cur; jet_copy_bytes<16>(&cur, seen);
      const S next = f(cur);
      unsigned long long bits[2], old[2];
      jet_copy_bytes<16>(bits, &next);
      if (bits[0] == seen[0] && bits[1] == seen[1]) return;
      asm volatile("{\n .reg .b128 c, v, d;\n mov.b128 c, {%2, %3};\n mov.b128 v, {%4, %5};\n"
                   " atom.cas.b128 d, [%6], c, v;\n mov.b128 {%0, %1}, d;\n}"
                   : "=l"(old[0]), "=l"(old[1])
                   : "l"(seen[0]), "l"(seen[1]), "l"(bits[0]), "l"(bits[1]), "l"(p) : "memory");
      if (old[0] == seen[0] && old[1] == seen[1]) return;
      seen[0] = old[0];
      seen[1] = old[1];
    }
  } else if constexpr (sizeof(S) == 8) {
    unsigned long long* w = (unsigned long long*)p;
    unsigned long long seen = *(volatile unsigned long long*)w, bits = 0;
    for (;;) {
      S cur; jet_copy_bytes<8>(&cur, &seen);
      const S next = f(cur);
      jet_copy_bytes<8>(&bits, &next);
      if (bits == seen) return;
      const unsigned long long old = atomicCAS(w, seen, bits);
      if (old == seen) return;
      seen = old;
    }
  } else {
    unsigned* w = (unsigned*)((unsigned long long)p & ~3ull);
    const unsigned shift = (unsigned)((unsigned long long)p & 3ull) * 8u;
    const unsigned ones = sizeof(S) == 4 ? 0xffffffffu : (1u << (8 * (sizeof(S) & 3))) - 1u;
    unsigned seen = *(volatile unsigned*)w;
    for (;;) {
      unsigned part = (seen >> shift) & ones;
      S cur; jet_copy_bytes<sizeof(S)>(&cur, &part);
      const S next = f(cur);
      part = 0; jet_copy_bytes<sizeof(S)>(&part, &next);
      const unsigned bits = (seen & ~(ones << shift)) | (part << shift);
      if (bits == seen) return;
      const unsigned old = atomicCAS(w, seen, bits);
      if (old == seen) return;
      seen = old;
    }
  }
}
)"},
    {"jet_atomic_int",
     R"(// Op: 1 add, 2 maximum, 3 minimum. For bool, add and maximum are `or`, minimum `and`.
template <int Op, class T> __device__ __forceinline__ void jet_atomic_int(T* p, T v) {
  constexpr bool word = (sizeof(T) == 4 || sizeof(T) == 8) && T(2) != T(1);
  if constexpr (word && Op == 1 && sizeof(T) == 4) atomicAdd((unsigned*)p, (unsigned)v);
  else if constexpr (word && Op == 1) atomicAdd((unsigned long long*)p, (unsigned long long)v);
  else if constexpr (word && Op == 2) atomicMax(p, v);
  else if constexpr (word) atomicMin(p, v);
  else jet_atomic_word(p, [v](T a) { return T(Op == 1 ? a + v : Op == 2 ? (a > v ? a : v) : (a < v ? a : v)); });
}
)"},
    {"jet_atomic_float",
     R"(template <int Op, class T> __device__ __forceinline__ void jet_atomic_float(T* p, T v) {
  if constexpr (Op == 1) atomicAdd(p, v);
  else jet_atomic_word(p, [v](T a) { return Op == 2 ? jet_maximum(a, v) : jet_minimum(a, v); });
}
)"},
    {"jet_atomic_half",
     R"(// float16 (Bf false) and bfloat16 (true) in their storage: combined in float, rounded once.
template <int Op, bool Bf> __device__ __forceinline__ void jet_atomic_half(unsigned short* p, unsigned short v) {
  jet_atomic_word(p, [v](unsigned short a) {
    const float x = Bf ? jet_bf16_to_f32(a) : jet_f16_to_f32(a);
    const float y = Bf ? jet_bf16_to_f32(v) : jet_f16_to_f32(v);
    const float r = Op == 1 ? x + y : Op == 2 ? jet_maximum(x, y) : jet_minimum(x, y);
    return Bf ? jet_f32_to_bf16(r) : jet_f32_to_f16(r);
  });
}
)"},
    {"jet_atomic_complex",
     R"(// Adds part by part; maximum and minimum swap the pair whole.
template <int Op, class R> __device__ __forceinline__ void jet_atomic_complex(jet_complex<R>* p, jet_complex<R> v) {
  if constexpr (Op == 1) {
    atomicAdd(&p->re, v.re);
    atomicAdd(&p->im, v.im);
  } else {
    jet_atomic_word(p, [v](jet_complex<R> a) { return Op == 2 ? jet_cmaximum(a, v) : jet_cminimum(a, v); });
  }
}
)"},
};

}  // namespace

std::span<const helper> scatter_helpers() { return table; }

}  // namespace jet::codegen
