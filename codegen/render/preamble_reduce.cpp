// The helpers of reduction kernels: per-type traits, accumulators with one interface (init,
// add one element with its index, merge another partial; the kernels add elements to a state
// in increasing index order), and warp and block combining.
#include "codegen/render/preamble.hpp"

namespace jet::codegen {
namespace {

// Traits, the complex forms (for kernels that use jet_complex too) after the real ones.
constexpr helper traits[] = {
    {"jet_num", R"(template <class T> struct jet_num {
  static constexpr bool complex = false;
  static __device__ __forceinline__ T zero() { return T(0); }
  static __device__ __forceinline__ T one() { return T(1); }
  static __device__ __forceinline__ T nan() {
    if constexpr (jet_is_int<T>::value) return T(0);
    else return T(__longlong_as_double(0x7ff8000000000000LL));
  }
};
)"},
    {"jet_nan",
     R"(template <class T> __device__ __forceinline__ bool jet_nan(T x) { return x != x; }
)"},
    {"jet_less",
     R"(template <class T> __device__ __forceinline__ bool jet_less(T a, T b) { return a < b; }
)"},
    {"jet_truth",
     R"(template <class T> __device__ __forceinline__ bool jet_truth(T x) { return x != T(0); }
)"},
    {"jet_div_count",
     R"(template <class T> __device__ __forceinline__ T jet_div_count(T x, long long n) { return x / T(n); }
)"},
    {"jet_re",
     R"(template <class T> __device__ __forceinline__ double jet_re(T x) { return (double)x; }
)"},
    {"jet_im", R"(template <class T> __device__ __forceinline__ double jet_im(T) { return 0.0; }
)"},
    {"jet_num", R"(template <class R> struct jet_num<jet_complex<R>> {
  static constexpr bool complex = true;
  static __device__ __forceinline__ jet_complex<R> zero() { return {R(0), R(0)}; }
  static __device__ __forceinline__ jet_complex<R> one() { return {R(1), R(0)}; }
  static __device__ __forceinline__ jet_complex<R> nan() { return {jet_num<R>::nan(), jet_num<R>::nan()}; }
};
)",
     "jet_complex"},
    {"jet_nan",
     R"(template <class R> __device__ __forceinline__ bool jet_nan(jet_complex<R> x) { return jet_cisnan(x); }
)",
     "jet_complex"},
    {"jet_less",
     R"(template <class R> __device__ __forceinline__ bool jet_less(jet_complex<R> a, jet_complex<R> b) { return jet_clt(a, b); }
)",
     "jet_complex"},
    {"jet_truth",
     R"(template <class R> __device__ __forceinline__ bool jet_truth(jet_complex<R> x) { return jet_ctruth(x); }
)",
     "jet_complex"},
    {"jet_div_count",
     R"(// As NumPy's mean: a complex quotient by n + 0i (so an infinite part makes the other NaN).
template <class R> __device__ __forceinline__ jet_complex<R> jet_div_count(jet_complex<R> x, long long n) {
  return x / jet_complex<R>{R(n), R(0)};
}
)",
     "jet_complex"},
    {"jet_re",
     R"(template <class R> __device__ __forceinline__ double jet_re(jet_complex<R> x) { return (double)x.re; }
)",
     "jet_complex"},
    {"jet_im",
     R"(template <class R> __device__ __forceinline__ double jet_im(jet_complex<R> x) { return (double)x.im; }
)",
     "jet_complex"},
};

// Shared by Jet's reductions and user reduction kernels.
constexpr helper combining[] = {
    {"jet_step", R"(// The end of a whole step of adds: most states have nothing to do there.
template <class S> __device__ __forceinline__ void jet_step(S&) {}
)"},
    {"jet_shfl_down",
     R"(// Combining partial states across a warp (shuffles, word by word) and a 256-thread block.
template <class S> __device__ __forceinline__ S jet_shfl_down(const S& s, int delta) {
  static_assert(sizeof(S) % 4 == 0, "accumulators are 8-byte aligned");
  S r;
  const unsigned* from = reinterpret_cast<const unsigned*>(&s);
  unsigned* to = reinterpret_cast<unsigned*>(&r);
  #pragma unroll
  for (int w = 0; w < (int)(sizeof(S) / 4); ++w) to[w] = __shfl_down_sync(0xffffffffu, from[w], delta);
  return r;
}
)"},
    {"jet_load_row",
     R"(// A row's vector of operand elements, with a hint that L2 fetch its whole 128-byte line
// (faster for rows than no hint or a 256-byte one: bench/NOTES.md). The
// operands stay unwritten while a reduction runs (an output that overlaps them is staged
// first), so the load takes the non-coherent path.
template <class V> __device__ __forceinline__ V jet_load_row(const V* from) {
  V v;
  unsigned* to = reinterpret_cast<unsigned*>(&v);
  if constexpr (sizeof(V) == 16) {
    asm("ld.global.nc.L2::128B.v4.u32 {%0,%1,%2,%3}, [%4];" : "=r"(to[0]), "=r"(to[1]), "=r"(to[2]), "=r"(to[3]) : "l"(from));
  } else if constexpr (sizeof(V) == 8) {
    asm("ld.global.nc.L2::128B.v2.u32 {%0,%1}, [%2];" : "=r"(to[0]), "=r"(to[1]) : "l"(from));
  } else {
    v = *from;
  }
  return v;
}
)"},
    {"jet_load_cg", R"(// Partial states other blocks wrote: read past the (incoherent) L1 cache.
template <class S> __device__ __forceinline__ S jet_load_cg(const S* from) {
  S r;
  const unsigned* words = reinterpret_cast<const unsigned*>(from);
  unsigned* to = reinterpret_cast<unsigned*>(&r);
  for (int w = 0; w < (int)(sizeof(S) / 4); ++w) to[w] = __ldcg(words + w);
  return r;
}
)"},
    {"jet_warp_reduce",
     R"(// Loops kept rolled and the block step out of line: NVRTC time grows with every inlined copy.
template <class S> __device__ __forceinline__ S jet_warp_reduce(S s) {
  #pragma unroll 1
  for (int delta = 16; delta > 0; delta >>= 1) s.merge(jet_shfl_down(s, delta));
  return s;
}
)"},
    {"jet_block_reduce", R"(// The block's combined state, in thread 0.
template <class S> __device__ __noinline__ S jet_block_reduce(S s) {
  // Raw storage: a user's state type may have a constructor, which __shared__ variables refuse.
  __shared__ alignas(16) unsigned char raw[8 * sizeof(S)];
  S* partial = reinterpret_cast<S*>(raw);
  s = jet_warp_reduce(s);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  __syncthreads();
  if (lane == 0) partial[warp] = s;
  __syncthreads();
  if (warp == 0) {
    if (lane < 8) s = partial[lane];
    else s.init();
    s = jet_warp_reduce(s);
  }
  return s;
}
)"},
};

constexpr helper accumulators[] = {
    {"jet_acc_sum", R"(template <class T> struct alignas(8) jet_acc_sum {
  T v;
  __device__ __forceinline__ void init() { v = jet_num<T>::zero(); }
  __device__ __forceinline__ void add(T x, long long) { v = v + x; }
  __device__ __forceinline__ void merge(const jet_acc_sum& o) { v = v + o.v; }
};
)"},
    {"jet_acc_prod", R"(template <class T> struct alignas(8) jet_acc_prod {
  T v;
  __device__ __forceinline__ void init() { v = jet_num<T>::one(); }
  __device__ __forceinline__ void add(T x, long long) { v = v * x; }
  __device__ __forceinline__ void merge(const jet_acc_prod& o) { v = v * o.v; }
};
)"},
    {"jet_acc_nansum", R"(template <class T> struct alignas(8) jet_acc_nansum {
  T v;
  __device__ __forceinline__ void init() { v = jet_num<T>::zero(); }
  __device__ __forceinline__ void add(T x, long long) { if (!jet_nan(x)) v = v + x; }
  __device__ __forceinline__ void merge(const jet_acc_nansum& o) { v = v + o.v; }
};
)"},
    {"jet_acc_nanmean", R"(template <class T> struct alignas(8) jet_acc_nanmean {
  T v;
  long long n;
  __device__ __forceinline__ void init() { v = jet_num<T>::zero(); n = 0; }
  __device__ __forceinline__ void add(T x, long long) { if (!jet_nan(x)) { v = v + x; ++n; } }
  __device__ __forceinline__ void merge(const jet_acc_nanmean& o) { v = v + o.v; n += o.n; }
};
)"},
    {"jet_acc_var",
     R"(// Sums of deviations from a shift (the first element seen), in double: no division per
// element, and float32 data keeps ~1e-12 relative accuracy. Partials merge by Chan's formula,
// re-centred on the merged mean. Complex values add the variances of both parts.
template <class T, class R> struct alignas(8) jet_acc_var {
  long long n;
  double shift_re, shift_im, s_re, s_im, s2;
  __device__ __forceinline__ void init() { n = 0; shift_re = shift_im = s_re = s_im = s2 = 0.0; }
  __device__ __forceinline__ void add(T x, long long) {
    const double re = jet_re(x), im = jet_im(x);
    if (n == 0) { shift_re = re; shift_im = im; }
    const double dr = re - shift_re, di = im - shift_im;
    s_re += dr;
    s_im += di;
    s2 = fma(dr, dr, s2);
    if (jet_num<T>::complex) s2 = fma(di, di, s2);
    ++n;
  }
  __device__ __forceinline__ double m2() const { return s2 - (s_re * s_re + s_im * s_im) / (double)n; }
  // Not inlined: merges are rare, and double divisions inlined at every merge site of the
  // warp and block combining cost NVRTC most of a second.
  __device__ __noinline__ void merge(const jet_acc_var& o) {
    if (o.n == 0) return;
    if (n == 0) { *this = o; return; }
    const double na = (double)n, nb = (double)o.n, total = na + nb;
    const double ar = shift_re + s_re / na, ai = shift_im + s_im / na;
    const double br = o.shift_re + o.s_re / nb, bi = o.shift_im + o.s_im / nb;
    const double dr = br - ar, di = bi - ai;
    s2 = m2() + o.m2() + (dr * dr + di * di) * (na * nb / total);
    shift_re = ar + dr * (nb / total);
    shift_im = ai + di * (nb / total);
    s_re = s_im = 0.0;
    n += o.n;
  }
  __device__ __forceinline__ R variance(double ddof) const {
    const double dof = (double)n - ddof;
    return R(m2() / (dof > 0.0 ? dof : 0.0));
  }
};
// float values (float16 and bfloat16 compute in float too): the double work per element above
// bounds the kernel, so a batch of deviations from the batch's first value adds in float (over
// at most 16, float keeps ~1e-7 relative), then folds into the double sums around the fixed
// shift: sum(x - shift) = bs + bn D and sum((x - shift)^2) = bs2 + 2 D bs + bn D^2, where D is
// the batch's shift less the fixed one. The kernels fold after every whole step (jet_step), so
// that a step's adds know their place in the batch and carry no branches.
template <class R> struct alignas(8) jet_acc_var<float, R> {
  long long n;
  double shift, s, s2;
  float batch_shift, bs, bs2;
  int bn;
  __device__ __forceinline__ void init() {
    n = 0;
    shift = s = s2 = 0.0;
    batch_shift = bs = bs2 = 0.0f;
    bn = 0;
  }
  __device__ __forceinline__ void add(float x, long long) {
    if (bn == 0) batch_shift = x;
    const float d = x - batch_shift;
    bs += d;
    bs2 = fmaf(d, d, bs2);
    if (++bn == 16) flush();
  }
  // Inlined: out of line it saves registers, but the calls' stack traffic costs var(a) far
  // more (bench/NOTES.md).
  __device__ __forceinline__ void flush() {
    if (bn == 0) return;
    if (n == 0) shift = batch_shift;
    const double d = (double)batch_shift - shift, count = (double)bn;
    s2 += (double)bs2 + d * (2.0 * (double)bs + count * d);
    s += (double)bs + count * d;
    n += bn;
    bn = 0;
    bs = bs2 = 0.0f;
  }
  __device__ __forceinline__ double m2() const { return s2 - s * s / (double)n; }
  // The other side's sums move onto this side's shift, in double and without a division (the
  // divisions of a Chan merge, at every step of the block's combining, cost var(a) a quarter
  // of its time; bench/NOTES.md). Both
  // shifts are values of the data, so their distance is within its range.
  __device__ __forceinline__ void merge(const jet_acc_var& other) {
    flush();
    jet_acc_var o = other;
    o.flush();
    if (o.n == 0) return;
    if (n == 0) { *this = o; return; }
    const double d = o.shift - shift, count = (double)o.n;
    s2 += o.s2 + d * (2.0 * o.s + count * d);
    s += o.s + count * d;
    n += o.n;
  }
  __device__ __forceinline__ R variance(double ddof) const {
    jet_acc_var v = *this;
    v.flush();
    const double dof = (double)v.n - ddof;
    return R(v.m2() / (dof > 0.0 ? dof : 0.0));
  }
};
template <class R> __device__ __forceinline__ void jet_step(jet_acc_var<float, R>& s) { s.flush(); }
)"},
    {"jet_order_key",
     R"(// An unsigned key in the order of the values, -0 equal to +0 and every NaN above all (for
// bool and integers up to 32 bits, through int, and float).
__device__ __forceinline__ unsigned jet_order_key(float x) {
  const unsigned b = __float_as_uint(x == 0.0f ? 0.0f : x);
  return x != x ? 0xffffffffu : b ^ (b >> 31 ? 0xffffffffu : 0x80000000u);
}
__device__ __forceinline__ unsigned jet_order_key(int x) { return (unsigned)x ^ 0x80000000u; }
__device__ __forceinline__ unsigned jet_order_key(unsigned x) { return x; }
)"},
    {"jet_rank",
     R"(// The rank of a value for min (Max false) or max: NaN highest, then the extreme.
template <bool Max, class T> __device__ __forceinline__ unsigned jet_rank(T x) {
  const unsigned key = jet_order_key(x);
  return Max || jet_nan(x) ? key : ~key;
}
)"},
    {"jet_shfl_value", R"(// `x` of the warp's lane `from`, for values of 32 bits or less.
template <class T> __device__ __forceinline__ T jet_shfl_value(T x, int from) {
  unsigned word = 0;
  memcpy(&word, &x, sizeof(T));
  word = __shfl_sync(0xffffffffu, word, from);
  memcpy(&x, &word, sizeof(T));
  return x;
}
)"},
    {"jet_acc_extreme",
     R"(// Extremes: `has` is 0 until the first element; NaN sticks unless the variant skips it.
template <class T, bool Max, bool SkipNan> struct alignas(8) jet_acc_extreme {
  T v;
  int has;
  __device__ __forceinline__ void init() { v = jet_num<T>::zero(); has = 0; }
  __device__ __forceinline__ void add(T x, long long) {
    if (SkipNan && jet_nan(x)) return;
    const bool better = Max ? jet_less(v, x) : jet_less(x, v);
    if (!has || jet_nan(x) || (!jet_nan(v) && better)) v = x;
    has = 1;
  }
  __device__ __forceinline__ void merge(const jet_acc_extreme& o) { if (o.has) add(o.v, 0); }
  __device__ __forceinline__ T result() const { return has ? v : jet_num<T>::nan(); }
};
// The same for extremes without an index: the first lane holding the highest rank.
template <class T, bool Max, bool SkipNan>
__device__ __forceinline__ jet_acc_extreme<T, Max, SkipNan> jet_warp_reduce(jet_acc_extreme<T, Max, SkipNan> s) {
#if __CUDA_ARCH__ >= 800
  if constexpr (sizeof(T) <= 4) {
    // Every lane takes part in the redux: a lane without elements must not skip it.
    const unsigned all = 0xffffffffu, rank = s.has ? jet_rank<Max>(s.v) : 0u;
    const unsigned top = __reduce_max_sync(all, rank);
    const unsigned holders = __ballot_sync(all, s.has && rank == top);
    if (holders) {
      s.v = jet_shfl_value(s.v, __ffs(holders) - 1);
      s.has = 1;
    }
    return s;
  }
#endif
  return jet_warp_reduce<jet_acc_extreme<T, Max, SkipNan>>(s);
}
)"},
    {"jet_acc_ptp", R"(template <class T> struct alignas(8) jet_acc_ptp {
  jet_acc_extreme<T, false, false> lo;
  jet_acc_extreme<T, true, false> hi;
  __device__ __forceinline__ void init() { lo.init(); hi.init(); }
  __device__ __forceinline__ void add(T x, long long k) { lo.add(x, k); hi.add(x, k); }
  __device__ __forceinline__ void merge(const jet_acc_ptp& o) { lo.merge(o.lo); hi.merge(o.hi); }
};
)"},
    {"jet_acc_arg",
     R"(// The first extreme, or the first NaN; partials merge in any order by comparing indices.
// Indices take the kernel's offset type: 32 bits unless the operands need 64, so that states
// of 32-bit values are 8 bytes (half the shuffles and partial-state traffic of 64-bit ones).
template <class T, bool Max> struct alignas(8) jet_acc_arg {
  T v;
  jet_off i;
  __device__ __forceinline__ void init() { v = jet_num<T>::zero(); i = -1; }
  __device__ __forceinline__ bool beats(T x, long long k) const {
    if (i < 0) return true;
    const bool xn = jet_nan(x), vn = jet_nan(v);
    if (xn || vn) return xn && (!vn || k < i);
    if (Max ? jet_less(v, x) : jet_less(x, v)) return true;
    return !(Max ? jet_less(x, v) : jet_less(v, x)) && k < i;
  }
  // Whether x, at an index after the state's, takes its place: elements reach a state in
  // increasing index, so a later equal value never does and the first NaN stays (merge, which
  // meets any order, compares indices). In | and &: see jet_add_vectors.
  __device__ __forceinline__ bool taken_by(T x) const {
    return (i < 0) | (!jet_nan(v) & (jet_nan(x) | (Max ? jet_less(v, x) : jet_less(x, v))));
  }
  __device__ __forceinline__ void add(T x, long long k) {
    if (taken_by(x)) { v = x; i = (jet_off)k; }
  }
  __device__ __forceinline__ void merge(const jet_acc_arg& o) { if (o.i >= 0 && beats(o.v, o.i)) { v = o.v; i = o.i; } }
};
// A warp's index-keeping states of values of 32 bits or less with 32-bit indices combine in two
// warp-wide instructions (sm_80+): the highest rank (empty states lowest), then the least index
// of that rank. Others take the shuffles of the general form (the explicit template argument
// names it). For argmax(a) this is faster than the shuffles (bench/NOTES.md).
template <class T, bool Max> __device__ __forceinline__ jet_acc_arg<T, Max> jet_warp_reduce(jet_acc_arg<T, Max> s) {
#if __CUDA_ARCH__ >= 800
  if constexpr (sizeof(T) <= 4 && sizeof(s.i) == 4) {
    const unsigned all = 0xffffffffu, rank = s.i < 0 ? 0u : jet_rank<Max>(s.v);
    const unsigned top = __reduce_max_sync(all, rank);
    const unsigned first = __reduce_min_sync(all, rank == top ? (unsigned)s.i : all);
    s.v = jet_shfl_value(s.v, __ffs(__ballot_sync(all, rank == top && (unsigned)s.i == first)) - 1);
    s.i = (jet_off)first;
    return s;
  }
#endif
  return jet_warp_reduce<jet_acc_arg<T, Max>>(s);
}
)"},
    {"jet_vectors_keep",
     R"(// Vector loops hand each step's U vectors of W consecutive elements to jet_add_vectors (x[u][e]
// at index k + u * stride + e), then call jet_end_vectors once, before any other add. Most
// states take the elements one at a time, spread over the states in turn so that no add waits
// on the one before; `keep` is what a state needs besides itself meanwhile (nothing, for most).
template <class S, int U, int W> struct jet_vectors_keep {};
template <class S, int P, class T, int U, int W>
__device__ __forceinline__ void jet_add_vectors(S (&part)[P], jet_vectors_keep<S, U, W>&, const T (&x)[U][W], long long k,
                                                long long stride) {
  #pragma unroll
  for (int u = 0; u < U; ++u)
    #pragma unroll
    for (int e = 0; e < W; ++e) part[(u * W + e) % P].add(x[u][e], k + u * stride + e);
}
template <class S, int P, int U, int W> __device__ __forceinline__ void jet_end_vectors(S (&)[P], jet_vectors_keep<S, U, W>&) {}
)"},
    {"jet_extreme_nan",
     R"(// The extreme of a and b, or NaN if either is one (which of equal values is unspecified).
template <bool Max, class T> __device__ __forceinline__ T jet_extreme_nan(T a, T b) {
  return jet_nan(a) || !(jet_nan(b) || (Max ? jet_less(a, b) : jet_less(b, a))) ? a : b;
}
#if __CUDA_ARCH__ >= 800
template <> __device__ __forceinline__ float jet_extreme_nan<true, float>(float a, float b) {
  float r; asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r;
}
template <> __device__ __forceinline__ float jet_extreme_nan<false, float>(float a, float b) {
  float r; asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return r;
}
#endif
)"},
    {"jet_holds",
     R"(// Whether `x` is a value the extreme `best` of its elements comes from: the first NaN when
// best is NaN, else the first not beaten by it.
template <bool Max, class T> __device__ __forceinline__ bool jet_holds(T x, T best) {
  return jet_nan(x) | (!jet_nan(best) & !(Max ? jet_less(x, best) : jet_less(best, x)));
}
)"},
    {"jet_acc_arg",
     R"(// An index-keeping state takes a step whole, in runs of up to 4 elements: the step's extreme
// (NaN first) decides whether it beats the state, which then keeps the first run holding it,
// its start and its elements; jet_end_vectors finds the run's first element of that value. In
// selects, not branches (hence | and &): in a branch the compiler loads later vectors after
// the adds of earlier ones. Half the instructions per element of one add at a time
// (bench/NOTES.md, argmax).
template <class T, bool Max, int U, int W> struct jet_vectors_keep<jet_acc_arg<T, Max>, U, W> {
  static constexpr int size = W < 4 ? W : 4;
  T x[size];
};
template <class T, bool Max, int P, int U, int W>
__device__ __forceinline__ void jet_add_vectors(jet_acc_arg<T, Max> (&part)[P], jet_vectors_keep<jet_acc_arg<T, Max>, U, W>& keep,
                                                const T (&x)[U][W], long long k, long long stride) {
  constexpr int R = jet_vectors_keep<jet_acc_arg<T, Max>, U, W>::size, per = W / R, N = U * per;
  T best[N];
  #pragma unroll
  for (int j = 0; j < N; ++j) {
    best[j] = x[j / per][j % per * R];
    #pragma unroll
    for (int e = 1; e < R; ++e) best[j] = jet_extreme_nan<Max>(best[j], x[j / per][j % per * R + e]);
  }
  T top = best[0];
  #pragma unroll
  for (int j = 1; j < N; ++j) top = jet_extreme_nan<Max>(top, best[j]);
  int first = N - 1;
  T run[R];
  #pragma unroll
  for (int e = 0; e < R; ++e) run[e] = x[U - 1][W - R + e];
  #pragma unroll
  for (int j = N - 2; j >= 0; --j) {
    const bool holds = jet_holds<Max>(best[j], top);
    first = holds ? j : first;
    #pragma unroll
    for (int e = 0; e < R; ++e) run[e] = holds ? x[j / per][j % per * R + e] : run[e];
  }
  jet_acc_arg<T, Max>& s = part[0];
  const bool wins = s.taken_by(top);
  s.v = wins ? top : s.v;
  s.i = wins ? (jet_off)(k + first / per * stride + first % per * R) : s.i;
  #pragma unroll
  for (int e = 0; e < R; ++e) keep.x[e] = wins ? run[e] : keep.x[e];
}
template <class T, bool Max, int P, int U, int W>
__device__ __forceinline__ void jet_end_vectors(jet_acc_arg<T, Max> (&part)[P], jet_vectors_keep<jet_acc_arg<T, Max>, U, W>& keep) {
  constexpr int R = jet_vectors_keep<jet_acc_arg<T, Max>, U, W>::size;
  jet_acc_arg<T, Max>& s = part[0];
  if (s.i < 0) return;
  int first = R - 1;
  T v = keep.x[R - 1];
  #pragma unroll
  for (int e = R - 2; e >= 0; --e)
    if (jet_holds<Max>(keep.x[e], s.v)) {
      first = e;
      v = keep.x[e];
    }
  s.v = v;
  s.i += first;
}
)",
     "jet_vectors_keep"},
    {"jet_acc_nanarg",
     R"(// Complex extremes: values are no total order and NumPy returns the first NaN element itself,
// so complex min and max track indices (jet_acc_arg); the nan forms keep the first extreme
// that is no NaN and, for all-NaN slices, the first NaN.
template <class T, bool Max> struct alignas(8) jet_acc_nanarg {
  jet_acc_arg<T, Max> best;
  jet_acc_arg<T, Max> first_nan;
  __device__ __forceinline__ void init() { best.init(); first_nan.init(); }
  __device__ __forceinline__ void add(T x, long long k) {
    if (jet_nan(x)) first_nan.add(x, k);
    else best.add(x, k);
  }
  __device__ __forceinline__ void merge(const jet_acc_nanarg& o) { best.merge(o.best); first_nan.merge(o.first_nan); }
  __device__ __forceinline__ T result() const { return best.i >= 0 ? best.v : first_nan.v; }
};
)"},
    {"jet_acc_argptp", R"(template <class T> struct alignas(8) jet_acc_argptp {
  jet_acc_arg<T, false> lo;
  jet_acc_arg<T, true> hi;
  __device__ __forceinline__ void init() { lo.init(); hi.init(); }
  __device__ __forceinline__ void add(T x, long long k) { lo.add(x, k); hi.add(x, k); }
  __device__ __forceinline__ void merge(const jet_acc_argptp& o) { lo.merge(o.lo); hi.merge(o.hi); }
};
)"},
    {"jet_acc_truth", R"(template <class T, bool All> struct alignas(8) jet_acc_truth {
  int v;
  __device__ __forceinline__ void init() { v = All ? 1 : 0; }
  __device__ __forceinline__ void add(T x, long long) { v = All ? (v & (int)jet_truth(x)) : (v | (int)jet_truth(x)); }
  __device__ __forceinline__ void merge(const jet_acc_truth& o) { v = All ? (v & o.v) : (v | o.v); }
};
)"},
    {"jet_acc_count", R"(template <class T> struct alignas(8) jet_acc_count {
  long long v;
  __device__ __forceinline__ void init() { v = 0; }
  __device__ __forceinline__ void add(T x, long long) { v += jet_truth(x) ? 1 : 0; }
  __device__ __forceinline__ void merge(const jet_acc_count& o) { v += o.v; }
};
)"},
};

std::string all_of(std::span<const helper> helpers) {
  std::string s;
  for (const helper& h : helpers) s += h.code;
  return s;
}

}  // namespace

std::span<const helper> reduce_helpers() { return traits; }
std::span<const helper> combine_helpers() { return combining; }
std::span<const helper> accumulator_helpers() { return accumulators; }

const std::string preamble_reduce_combine = all_of(combining);

}  // namespace jet::codegen
