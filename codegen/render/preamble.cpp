// The helpers of every kind of kernel: vectors, storage conversions, integer and floating
// arithmetic. Templates cost nothing until a kernel uses them.
#include "codegen/render/preamble.hpp"

#include <iterator>

namespace jet::codegen {
namespace {

// jet_fn(x) as the C math function fn for float (fnf) and double.
#define JET_MATH1(fn)                                                                            \
  {                                                                                              \
    "jet_" #fn, "__device__ __forceinline__ float jet_" #fn "(float x) { return " #fn            \
                "f(x); }\n__device__ __forceinline__ double jet_" #fn "(double x) { return " #fn \
                "(x); }\n"                                                                       \
  }
#define JET_MATH2(fn)                                                                          \
  {                                                                                            \
    "jet_" #fn, "__device__ __forceinline__ float jet_" #fn "(float x, float y) { return " #fn \
                "f(x, y); }\n__device__ __forceinline__ double jet_" #fn                       \
                "(double x, double y) { return " #fn "(x, y); }\n"                             \
  }

constexpr helper table[] = {
    {"jet_vec", "template <class T, int W> struct alignas(sizeof(T) * W) jet_vec { T v[W]; };\n"},
    {"jet_f16_to_f32", R"(__device__ __forceinline__ float jet_f16_to_f32(unsigned short h) {
  float f; asm("cvt.f32.f16 %0, %1;" : "=f"(f) : "h"(h)); return f;
}
)"},
    {"jet_f32_to_f16", R"(__device__ __forceinline__ unsigned short jet_f32_to_f16(float f) {
  unsigned short h; asm("cvt.rn.f16.f32 %0, %1;" : "=h"(h) : "f"(f)); return h;
}
)"},
    {"jet_round_f16",
     R"(__device__ __forceinline__ float jet_round_f16(float f) { return jet_f16_to_f32(jet_f32_to_f16(f)); }
__device__ __forceinline__ float jet_round_f16(double d) {
  unsigned short h; asm("cvt.rn.f16.f64 %0, %1;" : "=h"(h) : "d"(d)); return jet_f16_to_f32(h);
}
)"},
    {"jet_bf16_to_f32", R"(__device__ __forceinline__ float jet_bf16_to_f32(unsigned short h) {
  return __uint_as_float((unsigned)h << 16);
}
)"},
    {"jet_f32_to_bf16", R"(__device__ __forceinline__ unsigned short jet_f32_to_bf16(float f) {
  unsigned u = __float_as_uint(f);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);
  return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
)"},
    {"jet_round_bf16",
     R"(__device__ __forceinline__ float jet_round_bf16(float f) { return jet_bf16_to_f32(jet_f32_to_bf16(f)); }
)"},
    {"jet_ftoi",
     R"(// Floating to integer as NumPy's casts are on x86: a 32-bit conversion for the types up to
// int32, a 64-bit one for uint32 and int64, keeping the low bits (so -1.0 is 255 as uint8);
// what the conversion cannot hold gives x86's "integer indefinite", the lowest value.
template <class F> __device__ __forceinline__ int jet_cvt32(F x) {
  const F lo = F(-2147483648.0);
  return (x >= lo || x > lo - F(1)) && x < F(2147483648.0) ? (int)x : (int)0x80000000u;
}
template <class F> __device__ __forceinline__ long long jet_cvt64(F x) {
  return x >= F(-9223372036854775808.0) && x < F(9223372036854775808.0)
             ? (long long)x : (long long)0x8000000000000000ull;
}
template <class T, class F> __device__ __forceinline__ T jet_ftoi(F x) {
  if constexpr (sizeof(T) == 8 && T(-1) > T(0)) {  // uint64, as gcc converts it
    if (x < F(9223372036854775808.0)) return T(jet_cvt64(x));
    return T(jet_cvt64(x - F(9223372036854775808.0))) ^ T(0x8000000000000000ull);
  } else if constexpr (sizeof(T) == 8 || (sizeof(T) == 4 && T(-1) > T(0))) {
    return T(jet_cvt64(x));
  } else {
    return T(jet_cvt32(x));
  }
}
)"},
    JET_MATH1(sin),
    JET_MATH1(cos),
    JET_MATH1(exp),
    JET_MATH1(log),
    JET_MATH1(sinh),
    JET_MATH1(cosh),
    JET_MATH1(sqrt),
    JET_MATH1(fabs),
    JET_MATH1(expm1),
    JET_MATH1(log1p),
    JET_MATH1(floor),
    JET_MATH1(asinh),
    JET_MATH2(atan2),
    JET_MATH2(hypot),
    JET_MATH2(fmod),
    JET_MATH2(copysign),
    JET_MATH2(pow),
    JET_MATH2(fmax),
    JET_MATH2(fmin),
    {"jet_fma",
     R"(__device__ __forceinline__ float jet_fma(float x, float y, float z) { return fmaf(x, y, z); }
__device__ __forceinline__ double jet_fma(double x, double y, double z) { return fma(x, y, z); }
)"},
    {"jet_isinf",
     R"(__device__ __forceinline__ bool jet_isinf(float x) { return fabsf(x) == __int_as_float(0x7f800000); }
__device__ __forceinline__ bool jet_isinf(double x) {
  return fabs(x) == __longlong_as_double(0x7ff0000000000000LL);
}
)"},
    {"jet_is_int",
     "template <class T> struct jet_is_int { static constexpr bool value = T(0.5) == T(0); };\n"},
    {"jet_is_signed",
     "template <class T> struct jet_is_signed { static constexpr bool value = T(-1) < T(0); };\n"},
    {"jet_uint_of",
     R"(// Integer arithmetic wraps, as NumPy's does, in unsigned types: signed overflow would be
// undefined, and the compiler would use that (x * x read as never negative).
template <int Bytes> struct jet_uint_of { typedef unsigned type; };
template <> struct jet_uint_of<8> { typedef unsigned long long type; };
)"},
    {"jet_wrapped",
     R"(// The wrapped result as T. An int16 one is truncated into a 16-bit register by hand: ptxas
// (CUDA 13.0) widens a neg.s16 without wrapping it first (-(-32768) read as int64 was 32768),
// and folds a bfe.s32 sign extension followed by a cvt.rn.f64.u32 into an I2F.F64.S16
// (int16 -9 as uint32 as float64 was -9.0). A cvt.u16.u32 it widens correctly either way.
template <class T, class U> __device__ __forceinline__ T jet_wrapped(U r) {
  if constexpr (sizeof(T) == 2 && T(-1) < T(0)) {
    short s;
    asm("cvt.u16.u32 %0, %1;" : "=h"(s) : "r"((unsigned int)r));
    return T(s);
  } else {
    return T(r);
  }
}
)"},
    {"jet_iadd", R"(template <class T> __device__ __forceinline__ T jet_iadd(T a, T b) {
  typedef typename jet_uint_of<sizeof(T)>::type U; return jet_wrapped<T>(U(a) + U(b));
}
)"},
    {"jet_isub", R"(template <class T> __device__ __forceinline__ T jet_isub(T a, T b) {
  typedef typename jet_uint_of<sizeof(T)>::type U; return jet_wrapped<T>(U(a) - U(b));
}
)"},
    {"jet_imul", R"(template <class T> __device__ __forceinline__ T jet_imul(T a, T b) {
  typedef typename jet_uint_of<sizeof(T)>::type U; return jet_wrapped<T>(U(a) * U(b));
}
)"},
    {"jet_negate",
     "template <class T> __device__ __forceinline__ T jet_negate(T a) { return jet_isub(T(0), a); "
     "}\n"},
    {"jet_abs",
     "template <class T> __device__ __forceinline__ T jet_abs(T x) { return x < T(0) ? "
     "jet_negate(x) : x; }\n"},
    {"jet_sign", R"(template <class T> __device__ __forceinline__ T jet_sign(T x) {
  if (x > T(0)) return T(1);
  if (x < T(0)) return T(-1);
  if constexpr (!jet_is_int<T>::value)
    if (x != x) return jet_fabs(x);  // a NaN of positive sign, as NumPy's
  return x;
}
)"},
    {"jet_ireciprocal", R"(template <class T> __device__ __forceinline__ T jet_ireciprocal(T x) {
  if (x == T(0)) return jet_ftoi<T>(__longlong_as_double(0x7ff0000000000000LL));  // 1.0 / 0
  if (x == T(1)) return T(1);
  if (jet_is_signed<T>::value && x == T(-1)) return x;
  return T(0);
}
)"},
    {"jet_floordiv", R"(template <class T> __device__ __forceinline__ T jet_floordiv(T a, T b) {
  if constexpr (jet_is_int<T>::value) {
    if (b == T(0)) return T(0);
    if constexpr (jet_is_signed<T>::value) {
      if (b == T(-1)) return jet_negate(a);
      T q = T(a / b);
      if (T(a % b) != T(0) && ((a < T(0)) != (b < T(0)))) q = T(q - 1);
      return q;
    } else {
      return T(a / b);
    }
  } else {
    if (b == T(0)) return a / b;
    T mod = jet_fmod(a, b);
    T div = (a - mod) / b;
    if (mod != T(0) && ((b < T(0)) != (mod < T(0)))) div -= T(1);
    if (div == T(0)) return jet_copysign(T(0), a / b);
    T fl = jet_floor(div);
    if (div - fl > T(0.5)) fl += T(1);
    return fl;
  }
}
)"},
    {"jet_remainder", R"(template <class T> __device__ __forceinline__ T jet_remainder(T a, T b) {
  if constexpr (jet_is_int<T>::value) {
    if (b == T(0)) return T(0);
    if constexpr (jet_is_signed<T>::value) {
      if (b == T(-1)) return T(0);
      T r = T(a % b);
      if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = T(r + b);
      return r;
    } else {
      return T(a % b);
    }
  } else {
    if (b == T(0)) return jet_fmod(a, b);
    T mod = jet_fmod(a, b);
    if (mod != T(0)) {
      if ((b < T(0)) != (mod < T(0))) mod += b;
    } else {
      mod = jet_copysign(T(0), b);
    }
    return mod;
  }
}
)"},
    {"jet_ifmod", R"(template <class T> __device__ __forceinline__ T jet_ifmod(T a, T b) {
  if (b == T(0)) return T(0);
  if (jet_is_signed<T>::value && b == T(-1)) return T(0);
  return T(a % b);
}
)"},
    {"jet_error_channel",
     R"(// The device error channel (codegen/ir/params.hpp): the first report claims it and writes
// the record, which the host reads at its next synchronization.
struct jet_error_record { unsigned code; unsigned unused; long long values[3]; };
struct jet_error_channel { unsigned* claim; jet_error_record* record; };
)"},
    {"jet_report",
     R"(__device__ __noinline__ void jet_report(const jet_error_channel& c, unsigned code, long long a = 0,
                                        long long b = 0, long long d = 0) {
  if (atomicCAS(c.claim, 0u, 1u) != 0u) return;
  c.record->values[0] = a;
  c.record->values[1] = b;
  c.record->values[2] = d;
  // A release store, not __threadfence_system(): after that fence ptxas keeps every atomic of
  // the kernel a returning one (ATOMG, not REDG), which slows add_at's kernel by 40%.
  asm volatile("st.release.sys.global.u32 [%0], %1;" ::"l"(&c.record->code), "r"(code) : "memory");
}
)"},
    {"jet_ipow", R"(// NumPy raises for an integer to a negative integer power (error code 1).
template <class T> __device__ __forceinline__ T jet_ipow(T a, T b, const jet_error_channel& e) {
  if (jet_is_signed<T>::value && b < T(0)) {
    jet_report(e, 1);
    return T(0);
  }
  T r = T(1);
  while (b != T(0)) {
    if (b & T(1)) r = jet_imul(r, a);
    a = jet_imul(a, a);
    b = T(b >> 1);
  }
  return r;
}
)"},
    {"jet_checked_index",
     R"(// An index as a position on an axis of n elements (codegen/expr/node.hpp): how >= 0 counts
// negatives from the end and reports one out of bounds as on axis `how` (error code 2);
// -1 wraps, -2 clips. A position out of bounds clears `in_bounds` (a scatter then stores
// nothing) and reads as 0, which keeps a gather's read in bounds.
template <class T>
__device__ __forceinline__ long long jet_checked_index(T index, long long n, long long how,
                                                       const jet_error_channel& e,
                                                       bool& in_bounds) {
  long long k = (long long)index;
  if (how == -1) { k %= n; return k < 0 ? k + n : k; }
  if (how == -2) return k < 0 ? 0 : (k >= n ? n - 1 : k);
  const bool huge = !jet_is_signed<T>::value && k < 0;  // an unsigned index past INT64_MAX
  if (jet_is_signed<T>::value && k < 0) k += n;
  if (huge || k < 0 || k >= n) {
    jet_report(e, 2, (long long)index, how, n);
    in_bounds = false;
    return 0;
  }
  return k;
}
)"},
    {"jet_float_key",
     R"(// A float's bits (U unsigned, `inf` +inf's bits) as an unsigned key in NumPy's sort order:
// negatives below positives, NaN last. A comparing key ties -0.0 with 0.0 and every NaN with
// every other; else NaN keeps its payload (its sign cleared) and jet_float_unkey undoes it.
template <class U> __device__ __forceinline__ U jet_float_key(U b, U inf, bool comparing) {
  const U sign = U(U(1) << (sizeof(U) * 8 - 1));
  const U magnitude = U(b & U(~sign));
  if (magnitude > inf) b = comparing ? U(~sign) : magnitude;
  else if (comparing && magnitude == 0) b = 0;
  return (b & sign) ? U(~b) : U(b | sign);
}
)"},
    {"jet_key_before",
     R"(// Whether sort key a comes before key b (or, `or_equal`, is not after it).
template <class K> __device__ __forceinline__ bool jet_key_before(K a, K b, bool or_equal) {
  return or_equal ? a <= b : a < b;
}
)"},
    {"jet_float_unkey", R"(template <class U> __device__ __forceinline__ U jet_float_unkey(U k) {
  const U sign = U(U(1) << (sizeof(U) * 8 - 1));
  return (k & sign) ? U(k & U(~sign)) : U(~k);
}
)"},
    {"jet_lshift", R"(template <class T> __device__ __forceinline__ T jet_lshift(T a, T b) {
  return (unsigned long long)b < sizeof(T) * 8 ? T((unsigned long long)a << b) : T(0);
}
)"},
    {"jet_rshift", R"(template <class T> __device__ __forceinline__ T jet_rshift(T a, T b) {
  if ((unsigned long long)b < sizeof(T) * 8) return T(a >> b);
  return a < T(0) ? T(-1) : T(0);
}
)"},
    {"jet_maximum", R"(template <class T> __device__ __forceinline__ T jet_maximum(T a, T b) {
  return (a != a) ? a : ((b != b) ? b : (a >= b ? a : b));
}
)"},
    {"jet_minimum", R"(template <class T> __device__ __forceinline__ T jet_minimum(T a, T b) {
  return (a != a) ? a : ((b != b) ? b : (a <= b ? a : b));
}
)"},
};

#undef JET_MATH1
#undef JET_MATH2

}  // namespace

std::span<const helper> base_helpers() { return table; }

}  // namespace jet::codegen
