// The helpers of scan kernels (render_scan.cpp): warp scans, the tiles' flags and values of
// the decoupled look-back, and the two layouts' bodies. Op is the kernel's jet_scan_op: an
// associative operator() and its identity(); the bodies call the kernel's jet_bases, jet_at
// and jet_put, found when they are instantiated.
#include "codegen/render/preamble.hpp"

namespace jet::codegen {
namespace {

constexpr helper scanning[] = {
    {"jet_shfl_word",
     R"(// A warp shuffle of any value, word by word: from `arg` lanes below (Mode 0), from the
// lane `arg` apart by xor (1), or from lane `arg` (2).
template <int Mode, class T> __device__ __forceinline__ T jet_shfl_word(T x, int arg) {
  constexpr int words = (int)((sizeof(T) + 3) / 4);
  unsigned w[words];
  memcpy(w, &x, sizeof(T));
  #pragma unroll
  for (int i = 0; i < words; ++i)
    w[i] = Mode == 0 ? __shfl_up_sync(0xffffffffu, w[i], arg)
         : Mode == 1 ? __shfl_xor_sync(0xffffffffu, w[i], arg)
                     : __shfl_sync(0xffffffffu, w[i], arg);
  memcpy(&x, w, sizeof(T));
  return x;
}
)"},
    {"jet_warp_scan", R"(// The inclusive scan of `x` across a warp's lanes, lane 0 first.
template <class Op, class T> __device__ __forceinline__ T jet_warp_scan(T x) {
  const int lane = threadIdx.x % 32;
  #pragma unroll
  for (int delta = 1; delta < 32; delta <<= 1) {
    const T before = jet_shfl_word<0>(x, delta);
    if (lane >= delta) x = Op()(before, x);
  }
  return x;
}
)"},
    {"jet_warp_fold",
     R"(// `x` combined over the warp's lanes, in every lane alike (the operators commute).
template <class Op, class T> __device__ __forceinline__ T jet_warp_fold(T x) {
  #pragma unroll
  for (int delta = 16; delta > 0; delta >>= 1) x = Op()(x, jet_shfl_word<1>(x, delta));
  return x;
}
)"},
    {"jet_scan_load", R"(// A value another block published: read past the (incoherent) L1 cache.
template <class T> __device__ __forceinline__ T jet_scan_load(const T* from) {
  if constexpr (sizeof(T) % 4 == 0) {
    T r;
    const unsigned* words = reinterpret_cast<const unsigned*>(from);
    unsigned* to = reinterpret_cast<unsigned*>(&r);
    #pragma unroll
    for (int w = 0; w < (int)(sizeof(T) / 4); ++w) to[w] = __ldcg(words + w);
    return r;
  } else {
    return *(const volatile T*)from;
  }
}
)"},
    {"jet_tile_wait",
     R"(// A tile's flag once it has one: 1 when its aggregate is published, 2 its inclusive prefix.
__device__ __forceinline__ unsigned jet_tile_wait(const unsigned* flag) {
  unsigned state;
  do { state = *(const volatile unsigned*)flag; } while (state == 0);
  __threadfence();
  return state;
}
)"},
    {"jet_tile_flag", R"(// Sets a tile's flag once what it announces is visible to every block.
__device__ __forceinline__ void jet_tile_flag(unsigned* flag, unsigned state) {
  __threadfence();
  *(volatile unsigned*)flag = state;
}
)"},
    {"jet_look_back",
     R"(// Decoupled look-back, by warp 0 of tile t's block: publishes the tile's `total`, combines
// the tiles before it back to `first` 32 at a time, aggregates up to the nearest inclusive
// prefix, publishes its own inclusive prefix and returns the exclusive one.
template <class Op, class T> __device__ __noinline__ T jet_look_back(unsigned* flags, T* aggregates, T* inclusive, long long t, long long first, T total) {
  const int lane = threadIdx.x % 32;
  T prefix = Op::identity();
  if (t > first) {
    if (lane == 0) {
      aggregates[t] = total;
      jet_tile_flag(flags + t, 1u);
    }
    for (long long end = t - 1;; end -= 32) {
      const long long q = end - lane;
      unsigned state = 2;
      T v = Op::identity();
      if (q >= first) {
        state = jet_tile_wait(flags + q);
        v = jet_scan_load(state == 2 ? inclusive + q : aggregates + q);
      }
      const unsigned done = __ballot_sync(0xffffffffu, state == 2);
      if (done && lane >= __ffs(done)) v = Op::identity();
      prefix = Op()(jet_warp_fold<Op>(v), prefix);
      if (done) break;
    }
  }
  if (lane == 0) {
    inclusive[t] = Op()(prefix, total);
    jet_tile_flag(flags + t, 2u);
  }
  return prefix;
}
)"},
    {"jet_look_back_packed",
     R"(// jet_look_back for values of 4 bytes or fewer, over one 64-bit status word a tile: the
// flag in the high half, the value's bits in the low half, stored and read whole, so a flag is
// never seen without its value and no fence is needed.
template <class T> __device__ __forceinline__ void jet_tile_publish(unsigned long long* status, unsigned state, T value) {
  unsigned bits = 0;
  memcpy(&bits, &value, sizeof(T));
  const unsigned long long word = ((unsigned long long)state << 32) | bits;
  asm volatile("st.relaxed.gpu.global.u64 [%0], %1;" :: "l"(status), "l"(word) : "memory");
}
template <class Op, class T> __device__ __forceinline__ T jet_look_back_packed(unsigned long long* status, long long t, long long first, T total) {
  const int lane = threadIdx.x % 32;
  T prefix = Op::identity();
  if (t > first) {
    if (lane == 0) jet_tile_publish(status + t, 1u, total);
    for (long long end = t - 1;; end -= 32) {
      const long long q = end - lane;
      unsigned long long word = 2ull << 32;
      T v = Op::identity();
      if (q >= first) {
        do {
          asm volatile("ld.relaxed.gpu.global.u64 %0, [%1];" : "=l"(word) : "l"(status + q) : "memory");
        } while ((word >> 32) == 0);
        const unsigned bits = (unsigned)word;
        memcpy(&v, &bits, sizeof(T));
      }
      const unsigned done = __ballot_sync(0xffffffffu, (word >> 32) == 2);
      if (done && lane >= __ffs(done)) v = Op::identity();
      prefix = Op()(jet_warp_fold<Op>(v), prefix);
      if (done) break;
    }
  }
  if (lane == 0) jet_tile_publish(status + t, 2u, Op()(prefix, total));
  return prefix;
}
)"},
    {"jet_scan_rows",
     R"(// A scan's tile of one row: Threads threads, Items elements each. Each warp stages its own
// 32 * Items elements through shared memory (read and written in order across the warp, the
// producer computed on the way in), so only a warp waits for its lanes there; each thread
// totals its Items in a run, the block scans its threads' totals, warp 0 looks back over the
// row's tiles before it, and each thread scans its run again from shared memory, from the
// prefix before it. Full tiles (all but a row's last) skip the bounds checks.
template <int Items, class Op, int Slots, int Threads, class P> __device__ __forceinline__ void jet_scan_rows(const P& p) {
  typedef decltype(Op::identity()) T;
  constexpr int tile = Threads * Items, warps = Threads / 32;
  __shared__ T stage[tile + tile / 32];  // element e at e + e / 32: no bank conflicts
  __shared__ T warp_prefix[warps];
  __shared__ T tile_prefix;
  const jet_idx K = (jet_idx)p.length;
  const long long t = blockIdx.x, per_row = (long long)p.splits;
  const long long first = t - t % per_row;
  const jet_idx start = (jet_idx)(t - first) * (jet_idx)tile;
  const bool full = start + tile <= K;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int striped = warp * 32 * Items + lane;  // element j * 32 of the warp's lane
  jet_off b[Slots];
  jet_bases(p, (jet_idx)(t / per_row), b);
  if (full) {
    #pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int e = striped + j * 32;
      stage[e + e / 32] = jet_at(p, start + e, b);
    }
  } else {
    #pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int e = striped + j * 32;
      stage[e + e / 32] = start + e < K ? jet_at(p, start + e, b) : Op::identity();
    }
  }
  __syncwarp();
  T run = Op::identity();
  #pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int e = threadIdx.x * Items + j;
    run = Op()(run, stage[e + e / 32]);
  }
  const T in_warp = jet_warp_scan<Op>(run);
  if (lane == 31) warp_prefix[warp] = in_warp;
  T before = jet_shfl_word<0>(in_warp, 1);
  if (lane == 0) before = Op::identity();
  __syncthreads();
  if (warp == 0) {
    const T upto = jet_warp_scan<Op>(lane < warps ? warp_prefix[lane] : Op::identity());
    const T total = jet_shfl_word<2>(upto, warps - 1);
    T exclusive = jet_shfl_word<0>(upto, 1);
    if (lane == 0) exclusive = Op::identity();
    __syncwarp();
    if (lane < warps) warp_prefix[lane] = exclusive;
    T prefix;
    if constexpr (sizeof(T) <= 4) {
      prefix = jet_look_back_packed<Op>((unsigned long long*)p.counters, t, first, total);
    } else {
      T* aggregates = (T*)p.work;
      prefix = jet_look_back<Op>(p.counters, aggregates, aggregates + gridDim.x, t, first, total);
    }
    if (lane == 0) tile_prefix = prefix;
  }
  __syncthreads();
  before = Op()(Op()(tile_prefix, warp_prefix[warp]), before);
  #pragma unroll
  for (int j = 0; j < Items; ++j) {
    const int e = threadIdx.x * Items + j;
    before = Op()(before, stage[e + e / 32]);
    stage[e + e / 32] = before;
  }
  __syncwarp();
  if (full) {
    #pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int e = striped + j * 32;
      jet_put(p, start + e, b, stage[e + e / 32]);
    }
  } else {
    #pragma unroll
    for (int j = 0; j < Items; ++j) {
      const int e = striped + j * 32;
      if (start + e < K) jet_put(p, start + e, b, stage[e + e / 32]);
    }
  }
}
)"},
    {"jet_scan_columns",
     R"(// A scan's run of Items positions for 256 outputs, a thread each (columns: neighbouring
// outputs are neighbours in memory). Each thread scans its run; the block looks back over the
// runs before it, a run at a time, each lane reading its own output's value.
template <int Items, class Op, int Slots, class P> __device__ __forceinline__ void jet_scan_columns(const P& p) {
  typedef decltype(Op::identity()) T;
  __shared__ unsigned seen;
  const jet_idx M = (jet_idx)p.outputs, K = (jet_idx)p.length;
  const long long t = blockIdx.x, runs = (long long)p.splits, run_index = t % runs;
  const jet_idx m = (jet_idx)(t / runs) * 256u + threadIdx.x, start = (jet_idx)run_index * Items;
  const bool live = m < M;
  jet_off b[Slots];
  if (live) jet_bases(p, m, b);
  T x[Items];
  T total = Op::identity();
  #pragma unroll
  for (int j = 0; j < Items; ++j) {
    if (live && start + j < K) total = Op()(total, jet_at(p, start + j, b));
    x[j] = total;
  }
  T* aggregates = (T*)p.work;
  T* inclusive = aggregates + (long long)gridDim.x * 256;
  T prefix = Op::identity();
  if (run_index > 0) {
    aggregates[t * 256 + threadIdx.x] = total;
    __threadfence();
    __syncthreads();
    if (threadIdx.x == 0) jet_tile_flag(p.counters + t, 1u);
    for (long long q = t - 1;; --q) {
      if (threadIdx.x == 0) seen = jet_tile_wait(p.counters + q);
      __syncthreads();
      const unsigned state = seen;
      const long long slot = q * 256 + threadIdx.x;
      prefix = Op()(jet_scan_load(state == 2 ? inclusive + slot : aggregates + slot), prefix);
      __syncthreads();
      if (state == 2) break;
    }
  }
  inclusive[t * 256 + threadIdx.x] = Op()(prefix, total);
  __threadfence();
  __syncthreads();
  if (threadIdx.x == 0) jet_tile_flag(p.counters + t, 2u);
  #pragma unroll
  for (int j = 0; j < Items; ++j)
    if (live && start + j < K) jet_put(p, start + j, b, Op()(prefix, x[j]));
}
)"},
};

}  // namespace

std::span<const helper> scan_helpers() { return scanning; }

}  // namespace jet::codegen
