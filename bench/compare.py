"""CuPy and PyTorch on the same GPU, same run as Jet's benchmarks: the figures issues compare with.

Prints RESULT lines like bench/timing.hpp does. Needs cupy and torch; skips what is missing.
Arguments name the parts to run (elementwise reductions matmuls random indexing sorting kmeans
transfers black_scholes option_prices cold_start torch); none runs them all.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def median_ms(fn, runs=30, warmup=3):
    import cupy as cp
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(runs):
        start, stop = cp.cuda.Event(), cp.cuda.Event()
        start.record()
        fn()
        stop.record()
        stop.synchronize()
        times.append(cp.cuda.get_elapsed_time(start, stop))
    return statistics.median(times)


def result(name, value, unit):
    print(f"RESULT {name:<44} {value:10.4f} {unit:<6} reference")


def reductions(cp, copy_gbps):
    """bench/reduce.cpp's figures under its names. Each call allocates its result, as Jet's do,
    except those into an existing array (out=)."""
    n, m = 1 << 26, 8192
    a, b = cp.random.rand(n, dtype=cp.float32), cp.random.rand(n, dtype=cp.float32)
    A = cp.random.rand(m, m, dtype=cp.float32)
    total, column_sums = cp.empty((), cp.float32), cp.empty(m, cp.float32)
    bandwidth = [("sum(a)", lambda: cp.sum(a)), ("max(a)", lambda: cp.max(a)), ("argmax(a)", lambda: cp.argmax(a)),
                 ("sum(a) into an existing 0-d array", lambda: cp.sum(a, out=total)),
                 ("sum(A,0) 8192^2", lambda: A.sum(0)), ("sum(A,1) 8192^2", lambda: A.sum(1)),
                 ("sum(A,0) 8192^2 into an existing array", lambda: A.sum(0, out=column_sums))]
    for name, fn in bandwidth:
        ms = median_ms(fn)
        result(f"cupy: {name} (ms)", ms, "ms")
        result(f"cupy: {name} (% of copy bandwidth)", 100 * a.nbytes / ms / 1e6 / copy_gbps, "%")
    result("cupy: sum(a*b) (ms)", median_ms(lambda: (a * b).sum()), "ms")
    result("cupy: var(a) (ms)", median_ms(lambda: cp.var(a)), "ms")
    result("cupy: linalg::norm(a) (ms)", median_ms(lambda: cp.linalg.norm(a)), "ms")


def matmuls(cp):
    """bench/linalg.cpp's figures under its names: cupy.matmul, each call allocating its result."""
    n = 8192
    for dtype, name in [(cp.float32, "float32"), (cp.float16, "float16")]:
        a = (cp.random.rand(n, n, dtype=cp.float32) * 0.02).astype(dtype)
        b = (cp.random.rand(n, n, dtype=cp.float32) * 0.02).astype(dtype)
        ms = median_ms(lambda: a @ b, runs=20)
        result(f"cupy: matmul 8192^3 {name} (TFLOP/s)", 2 * n ** 3 / (ms * 1e-3) / 1e12, "TF/s")
        if name == "float32":
            result("cupy: matmul A @ B.T 8192^2 float32 (ms)", median_ms(lambda: a @ b.T, runs=20), "ms")
    a, b = (cp.random.rand(512, 64, 64, dtype=cp.float32) for _ in range(2))
    result("cupy: matmul batched 512x64x64 float32 (ms)", median_ms(lambda: a @ b, runs=200, warmup=10), "ms")


def random_draws(cp):
    """bench/random.cpp's figures under its names: 2^26 draws from CuPy's default generator
    (XORWOW), each call allocating its result."""
    n = 1 << 26
    draws = [("rand 2^26 float32", lambda: cp.random.rand(n, dtype=cp.float32)),
             ("randn 2^26 float32", lambda: cp.random.randn(n, dtype=cp.float32)),
             ("randint 2^26 int32", lambda: cp.random.randint(0, 1000, size=n, dtype=cp.int32)),
             ("rand 2^26 float64", lambda: cp.random.rand(n)),
             ("randn 2^26 float64", lambda: cp.random.randn(n)),
             ("gamma(2.5) 2^26 float32", lambda: cp.random.gamma(2.5, 1.0, size=n, dtype=cp.float32)),
             ("permutation 2^20", lambda: cp.random.permutation(1 << 20))]
    for name, fn in draws:
        result(f"cupy: random {name} (ms)", median_ms(fn), "ms")
    result("cupy: random rand*2-1 2^26 float32 (ms)",
           median_ms(lambda: cp.random.rand(n, dtype=cp.float32) * 2 - 1), "ms")
    samples = 1 << 30

    def pi():
        x, y = cp.random.rand(samples), cp.random.rand(samples)
        return cp.mean(x * x + y * y < 1)
    ms = median_ms(pi, runs=5, warmup=1)
    result("cupy: random Monte Carlo pi 2^30 float64 (ms)", ms, "ms")
    result("cupy: random Monte Carlo pi 2^30 float64 (Gsamples/s)", samples / ms / 1e6, "G/s")


def option_prices(cp):
    """examples/option_prices.cpp's figure, CuPy's way (its examples/finance/monte_carlo.py,
    default sizes): an ElementwiseKernel over 1000 options x 10^5 threads, each averaging 1000
    payoffs of normals it draws itself (xorshift128+ and erfcinv), then the mean of each row."""
    kernel = cp.ElementwiseKernel(
        'T s, T x, T t, T r, T v, int32 n, int32 seed', 'T call', """
        unsigned long long a = i + 1, b = 0x5c721fd808f616b6ull + seed;
        const T drift = (r - v * v / 2) * t, scale = v * sqrt(t);
        T total = 0;
        for (int k = 0; k < n; ++k) {
            unsigned long long y = a;
            const unsigned long long z = b;
            a = z;
            y ^= y << 23; y ^= y >> 17; y ^= z; y ^= z >> 26;
            b = y;
            T u = T(y + z) / T(18446744073709551615ull), sign = T(-1.4142135623730951);
            if (u > 0.5) { u = 1 - u; sign = -sign; }
            const T value = s * exp(drift + scale * sign * erfcinv(2 * (u + T(0.5)))) - x;
            total += value > 0 ? value : 0;
        }
        call = exp(-r * t) * total / n;""", 'jet_compare_monte_carlo')
    options, threads, samples = 1000, 100000, 1000
    s, x, t = (lo + (hi - lo) * cp.random.rand(options) for lo, hi in ((5, 30), (1, 100), (0.25, 10)))
    out = cp.empty((options, threads))

    def run():
        kernel(s[:, None], x[:, None], t[:, None], 0.02, 0.3, samples, 0, out)
        return out.mean(axis=1)
    result("cupy: option prices (examples/option_prices) (ms)", median_ms(run, runs=3, warmup=1), "ms")


# bench/cold_start.cpp's program in CuPy, line for line.
EM_PROGRAM = """
import math, sys, time
import cupy as cp
cp.cuda.Device().synchronize()
start = time.perf_counter()
N, K = 500000, 4
i = cp.arange(N).astype(cp.float32)
cluster = (cp.arange(N) % K).astype(cp.float32)
x = cp.empty((N, 2), cp.float32)
x[:, 0] = cluster * 3.0 + cp.sin(i * cp.float32(12.9898))
x[:, 1] = cluster * -2.0 + cp.cos(i * cp.float32(78.233))
mu = cp.arange(K * 2).reshape(K, 2).astype(cp.float32)
var = cp.ones((K, 2), cp.float32)
weight = cp.full(K, 1.0 / K, cp.float32)
last = -1e30
for it in range(13):
    xs = x[:, None, :]
    diff = xs - mu[None]
    log_norm = -0.5 * cp.sum(cp.log(var), 1) + cp.log(weight) - cp.float32(0.5 * 2 * math.log(2 * math.pi))
    log_p = -0.5 * cp.sum(diff * diff / var[None], 2) + log_norm[None]
    top = cp.max(log_p, 1, keepdims=True)
    p = cp.exp(log_p - top)
    total = cp.sum(p, 1, keepdims=True)
    resp = p / total
    ll = float(cp.mean(cp.log(total) + top))
    nk = cp.sum(resp, 0) + cp.float32(1e-6)
    r3 = resp[:, :, None]
    mu = cp.sum(r3 * xs, 0) / nk[:, None]
    centered = xs - mu[None]
    var = cp.sum(r3 * centered * centered, 0) / nk[:, None] + cp.float32(1e-6)
    weight = nk / cp.float32(N)
    if abs(ll - last) < 1e-7 * abs(ll):
        break
    last = ll
print((time.perf_counter() - start) * 1000)
"""


def indexing(cp):
    """bench/indexing.cpp's figures under its names: CuPy materializes the gather."""
    n = 1 << 26
    x, y = cp.random.rand(n, dtype=cp.float32), cp.random.rand(n, dtype=cp.float32)
    idx = (cp.arange(n, dtype=cp.int64) * 2654435761) % n
    out = cp.empty(n, dtype=cp.float32)
    result("cupy: x[idx] gather 2^26 (ms)", median_ms(lambda: cp.take(x, idx, out=out)), "ms")
    result("cupy: sin(x[idx])*2+y 2^26 (ms)", median_ms(lambda: cp.sin(x[idx]) * 2 + y), "ms")
    mask = (cp.arange(n, dtype=cp.int64) * 2654435761) % 2 == 0
    result("cupy: x[mask] compaction 2^26 (ms)", median_ms(lambda: x[mask]), "ms")
    z = x.copy()

    def store():
        z[mask] = 0

    result("cupy: x[mask] = 0 2^26 (ms)", median_ms(store), "ms")
    result("cupy: concatenate 2 x 2^26 (ms)", median_ms(lambda: cp.concatenate((x, y))), "ms")
    result("cupy: concatenate(x*2, y+1) 2 x 2^26 (ms)",
           median_ms(lambda: cp.concatenate((x * 2, y + 1))), "ms")
    import cupyx
    m, bins = 1 << 24, 1 << 16
    where_to = (cp.arange(m, dtype=cp.int64) * 2654435761) % bins
    values = cp.random.rand(m, dtype=cp.float32)
    histogram = cp.zeros(bins, dtype=cp.float32)
    result("cupy: add_at 2^24 into 2^16 bins (ms)",
           median_ms(lambda: cupyx.scatter_add(histogram, where_to, values)), "ms")

    def ten():
        for _ in range(10):
            cupyx.scatter_add(histogram, where_to, values)

    result("cupy: add_at 2^24 into 2^16 bins, ten in a row (ms each)", median_ms(ten) / 10, "ms")


def sorting(cp):
    """bench/sort.cpp's figures under its names: sorts and scans."""
    n, m = 1 << 26, 8192
    x = cp.random.rand(n, dtype=cp.float32)
    A = cp.random.rand(m, m, dtype=cp.float32)
    result("cupy: sort 2^26 float32 (ms)", median_ms(lambda: cp.sort(x)), "ms")
    result("cupy: argsort 2^26 float32 (ms)", median_ms(lambda: cp.argsort(x)), "ms")
    result("cupy: argpartition(x, n - 100) 2^26 float32 (ms)",
           median_ms(lambda: cp.argpartition(x, n - 100)), "ms")
    result("cupy: sort(A, 1) 8192^2 float32 (ms)", median_ms(lambda: cp.sort(A, 1), runs=10), "ms")
    y = cp.random.rand(n, dtype=cp.float32)
    result("cupy: cumsum 2^26 float32 (ms)", median_ms(lambda: cp.cumsum(x)), "ms")
    result("cupy: cumsum(x * y) 2^26 float32 (ms)", median_ms(lambda: cp.cumsum(x * y)), "ms")
    result("cupy: cumsum(A, 1) 8192^2 float32 (ms)", median_ms(lambda: cp.cumsum(A, 1)), "ms")
    result("cupy: cumsum(A, 0) 8192^2 float32 (ms)", median_ms(lambda: cp.cumsum(A, 0)), "ms")


def counting(cp):
    """bench/statistics.cpp's figures under its names."""
    m, n = 1 << 24, 1 << 26
    keys = ((cp.arange(m, dtype=cp.int64) * 2654435761) % 65536).astype(cp.int32)
    result("cupy: unique 2^24 int32, 2^16 distinct (ms)", median_ms(lambda: cp.unique(keys)), "ms")
    s = cp.sort(cp.random.rand(m, dtype=cp.float32))
    q = cp.random.rand(m, dtype=cp.float32)
    result("cupy: searchsorted 2^24 into 2^24 float32 (ms)",
           median_ms(lambda: cp.searchsorted(s, q)), "ms")
    x = cp.random.rand(n, dtype=cp.float32)
    result("cupy: histogram(x, 1024) 2^26 float32 (ms)",
           median_ms(lambda: cp.histogram(x, 1024)), "ms")
    small = (cp.arange(n, dtype=cp.int64) % 1024).astype(cp.int32)
    result("cupy: bincount 2^26 int32 < 1024 (ms)", median_ms(lambda: cp.bincount(small)), "ms")
    result("cupy: median 2^26 float32 (ms)", median_ms(lambda: cp.median(x)), "ms")


def kmeans(cp):
    """bench/kmeans.cpp's figures: CuPy's examples/kmeans/kmeans.py, its two fits as written."""
    var_kernel = cp.ElementwiseKernel(
        'T x0, T x1, T c0, T c1', 'T out',
        'out = (x0 - c0) * (x0 - c0) + (x1 - c1) * (x1 - c1)', 'var_kernel')
    sum_kernel = cp.ReductionKernel(
        'T x, S mask', 'T out', 'mask ? x : 0', 'a + b', 'out = a', '0', 'sum_kernel')
    count_kernel = cp.ReductionKernel(
        'T mask', 'float32 out', 'mask ? 1.0 : 0.0', 'a + b', 'out = a', '0.0', 'count_kernel')

    def fit_xp(X, n_clusters, max_iter, initial_indexes):
        pred = cp.zeros(len(X), dtype=cp.int32)
        centers = X[initial_indexes]
        for it in range(max_iter):
            distances = cp.linalg.norm(X[:, None, :] - centers[None, :, :], axis=2)
            new_pred = cp.argmin(distances, axis=1).astype(cp.int32)
            if cp.all(new_pred == pred):
                break
            pred = new_pred
            i = cp.arange(n_clusters)
            mask = pred == i[:, None]
            sums = cp.where(mask[:, :, None], X, 0).sum(axis=1)
            counts = cp.count_nonzero(mask, axis=1).reshape((n_clusters, 1))
            centers = sums / counts
        return it

    def fit_custom(X, n_clusters, max_iter, initial_indexes):
        pred = cp.empty(len(X), dtype=cp.int32)
        centers = X[initial_indexes]
        for it in range(max_iter):
            distances = var_kernel(X[:, None, 0], X[:, None, 1], centers[None, :, 0], centers[None, :, 1])
            new_pred = cp.argmin(distances, axis=1).astype(cp.int32)
            if cp.all(new_pred == pred):
                break
            pred = new_pred
            i = cp.arange(n_clusters)
            mask = pred == i[:, None]
            sums = sum_kernel(X, mask[:, :, None], axis=1)
            counts = count_kernel(mask, axis=1).reshape((n_clusters, 1))
            centers = sums / counts
        return it

    num = 5000000
    i = cp.arange(num).astype(cp.float64)
    X = cp.empty((num, 2))
    X[:, 0] = cp.sin(i * 12.9898)
    X[:, 1] = cp.cos(i * 78.233)
    start = cp.array([12345, 4000000])
    print(f"cupy kmeans: fit_xp {fit_xp(X, 2, 10, start)} iterations, "
          f"fit_custom {fit_custom(X, 2, 10, start)} (its pred starts as cupy.empty)")
    result("cupy: kmeans fit_xp 5e6 (ms)", median_ms(lambda: fit_xp(X, 2, 10, start), runs=10), "ms")
    result("cupy: kmeans fit_custom 5e6 (ms)",
           median_ms(lambda: fit_custom(X, 2, 10, start), runs=10), "ms")


def cold_start():
    """CuPy's first run of bench/cold_start.cpp's EM program, in a fresh process with an empty
    kernel cache, as Jet's is timed."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, CUPY_CACHE_DIR=cache)
        out = subprocess.run([sys.executable, "-c", EM_PROGRAM], env=env, capture_output=True,
                             text=True, check=True).stdout
    result("cupy: EM first run, empty cache (ms)", float(out.strip().splitlines()[-1]), "ms")


def elementwise(cp, a, b, c):
    """bench/elementwise.cpp's figures: the fused chain, broadcast, transposed, host cost."""
    axpy = cp.ElementwiseKernel("float32 x, float32 y", "float32 z", "z = 2.5f * x + y", "axpy")
    result("cupy: 2.5*a+b ElementwiseKernel (ms)", median_ms(lambda: axpy(a, b)), "ms")

    @cp.fuse()
    def chain(x, y, z):
        return cp.sin(x) * cp.cos(y) + cp.exp(-z * z) * 0.5

    result("cupy: sin*cos+exp chain fused (ms)", median_ms(lambda: chain(a, b, c)), "ms")
    m = 8192
    col, row = cp.random.rand(m, 1, dtype=cp.float32), cp.random.rand(1, m, dtype=cp.float32)
    result("cupy: (8192,1)+(1,8192) (ms)", median_ms(lambda: col + row), "ms")
    A, B = cp.random.rand(m, m, dtype=cp.float32), cp.random.rand(m, m, dtype=cp.float32)
    result("cupy: A+B.T 8192^2 (ms)", median_ms(lambda: A + B.T), "ms")
    x, y = cp.random.rand(1024, dtype=cp.float32), cp.random.rand(1024, dtype=cp.float32)

    @cp.fuse()
    def seven(x, y):
        return cp.sqrt(cp.abs(x * y + 1.0)) - cp.sin(x) / y

    for _ in range(10):
        seven(x, y)
    # The best of 5 rounds of 10,000 calls, as bench/elementwise.cpp times Jet's.
    best = float("inf")
    for _ in range(5):
        cp.cuda.Device().synchronize()
        start = time.perf_counter()
        for _ in range(10000):
            seven(x, y)
        cp.cuda.Device().synchronize()
        best = min(best, (time.perf_counter() - start) / 10000 * 1e6)
    result("cupy: fused 7-op, host cost per call (us)", best, "us")


def torch_figures(cp, a, b, c):
    try:
        import torch
    except ImportError:
        return
    ta, tb, tc = (torch.as_tensor(v, device="cuda") for v in (a, b, c))

    def torch_chain(x, y, z):
        return torch.sin(x) * torch.cos(y) + torch.exp(-z * z) * 0.5

    compiled = torch.compile(torch_chain)
    compiled(ta, tb, tc)
    torch.cuda.synchronize()
    result("torch.compile: sin*cos+exp chain (ms)", median_ms(lambda: compiled(ta, tb, tc)), "ms")
    result("torch: sum(a*b) (ms)", median_ms(lambda: (ta * tb).sum()), "ms")


def transfers(cp):
    """bench/transfer.cpp's figures: 256 MiB of float32 to and from ordinary host memory (host
    clock, median of 10 after 2 runs)."""
    import numpy as np
    host = np.full(64 << 20, 1.5, dtype=np.float32)

    def host_ms(fn):
        for _ in range(2):
            fn()
        times = []
        for _ in range(10):
            t0 = time.perf_counter()
            fn()
            cp.cuda.Stream.null.synchronize()
            times.append((time.perf_counter() - t0) * 1e3)
        return statistics.median(times)
    d = cp.asarray(host)
    result("cupy: asarray, 256 MiB pageable (GB/s)", host.nbytes / host_ms(lambda: cp.asarray(host)) / 1e6, "GB/s")
    result("cupy: asnumpy, 256 MiB pageable (GB/s)", host.nbytes / host_ms(lambda: cp.asnumpy(d)) / 1e6, "GB/s")


def black_scholes(cp):
    """CuPy's examples/finance/black_scholes.py, the plain NumPy-style version, on 10^7 float64
    options with the normal CDF of examples/black_scholes.hpp (bench/kernels.cpp's figures)."""
    n = 10_000_000
    rng = cp.random.default_rng(1)
    s, x, t = rng.uniform(5, 30, n), rng.uniform(1, 100, n), rng.uniform(0.25, 10, n)
    r, v = 0.02, 0.3

    def cnd(d):
        k = 1.0 / (1.0 + 0.2316419 * cp.abs(d))
        tail = 0.3989422804014327 * cp.exp(-0.5 * d * d) * (k * (0.31938153 + k * (
            -0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))))
        return cp.where(d > 0, 1.0 - tail, tail)

    def both():
        root = cp.sqrt(t)
        d1 = (cp.log(s / x) + (r + 0.5 * v * v) * t) / (v * root)
        d2 = d1 - v * root
        discount = cp.exp(-r * t)
        n1, n2 = cnd(d1), cnd(d2)
        return s * n1 - x * discount * n2, x * discount * (1.0 - n2) - s * (1.0 - n1)
    result("cupy: black-scholes call+put, plain (ms)", median_ms(both, runs=10), "ms")


def main():
    try:
        import cupy as cp
    except ImportError:
        print("cupy is not installed: no CuPy or PyTorch figures")
        return
    wanted = set(sys.argv[1:])
    n = 1 << 26
    a, b, c = (cp.random.rand(n, dtype=cp.float32) for _ in range(3))
    src = cp.empty(64 << 20, dtype=cp.float32)
    dst = cp.empty_like(src)
    copy_ms = median_ms(lambda: cp.copyto(dst, src))
    copy_gbps = 2 * src.nbytes / copy_ms / 1e6
    result("cupy: copy bandwidth (GB/s)", copy_gbps, "GB/s")
    parts = [("elementwise", lambda: elementwise(cp, a, b, c)),
             ("reductions", lambda: reductions(cp, copy_gbps)), ("matmuls", lambda: matmuls(cp)),
             ("random", lambda: random_draws(cp)), ("indexing", lambda: indexing(cp)),
             ("sorting", lambda: sorting(cp)), ("statistics", lambda: counting(cp)),
             ("kmeans", lambda: kmeans(cp)), ("transfers", lambda: transfers(cp)),
             ("black_scholes", lambda: black_scholes(cp)),
             ("option_prices", lambda: option_prices(cp)), ("cold_start", cold_start),
             ("torch", lambda: torch_figures(cp, a, b, c))]
    for name, run in parts:
        if not wanted or name in wanted:
            run()


if __name__ == "__main__":
    main()
