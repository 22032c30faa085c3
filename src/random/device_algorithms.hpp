// Sampling algorithms of the random kernels, written once in the C++ that both NVRTC and the
// host compiler accept. src/CMakeLists.txt embeds this file in the kernels' source
// (src/random/kernels.cpp), and tests/host/test_random_algorithms.cpp compiles it on the host
// to check every sampler against its exact distribution without a GPU. The includer defines
// JET_RNG_FN (`__device__ __forceinline__`, or `inline` on the host) and JET_RNG_OUTLINED
// (`__device__ __noinline__`, for a large function called from several places: NVRTC then
// compiles it once) and provides the C math functions for double (log, log1p, exp, sqrt, cos,
// floor, fabs, lgamma) and for float (logf, expf, sqrtf, cosf). No includes here.
#ifndef JET_RANDOM_ALGORITHMS_HPP
#define JET_RANDOM_ALGORITHMS_HPP

// ---- Each element of a kernel owns the Philox4x32-10 counters (element, block, launch word,
// ...) of codegen/render/philox.h, which comes before this file, so elements draw independent
// streams.

// The stream of one element: Philox blocks at counters (element low, element high, block,
// launch word), handed out one 32-bit word at a time.
struct jet_rng_stream {
  unsigned int key0, key1;
  unsigned int counter[4];
  unsigned int words[4];
  int used;
};

JET_RNG_FN jet_rng_stream jet_rng_start(const unsigned int* key, unsigned long long element) {
  jet_rng_stream s;
  s.key0 = key[0];
  s.key1 = key[1];
  s.counter[0] = (unsigned int)element;
  s.counter[1] = (unsigned int)(element >> 32);
  s.counter[2] = 0;
  s.counter[3] = key[2];
  s.used = 4;
  return s;
}

JET_RNG_FN unsigned int jet_rng_next32(jet_rng_stream& s) {
  if (s.used == 4) {
    const jet_philox_block b = jet_philox(s.counter, s.key0, s.key1);
    for (int i = 0; i < 4; ++i) s.words[i] = b.v[i];
    ++s.counter[2];
    s.used = 0;
  }
  return s.words[s.used++];
}

JET_RNG_FN unsigned long long jet_rng_next64(jet_rng_stream& s) {
  const unsigned long long high = jet_rng_next32(s);
  return high << 32 | jet_rng_next32(s);
}

// Uniform on [0, 1) with 53 random bits.
JET_RNG_FN double jet_rng_uniform(jet_rng_stream& s) {
  return (double)(jet_rng_next64(s) >> 11) * (1.0 / 9007199254740992.0);
}

// Uniform on (0, 1], for logarithms (1 - k 2^-53 is exact).
JET_RNG_FN double jet_rng_uniform_positive(jet_rng_stream& s) { return 1.0 - jet_rng_uniform(s); }

// Standard normal by Box and Muller's transform (one of the pair).
JET_RNG_FN double jet_rng_normal(jet_rng_stream& s) {
  const double radius = sqrt(-2.0 * log(jet_rng_uniform_positive(s)));
  return radius * cos(6.283185307179586 * jet_rng_uniform(s));
}

// ---- Integers

// The high 64 bits of a 64 x 64-bit product, from 32-bit halves.
JET_RNG_FN unsigned long long jet_rng_mulhi64(unsigned long long a, unsigned long long b) {
  const unsigned long long a_lo = a & 0xffffffffull, a_hi = a >> 32;
  const unsigned long long b_lo = b & 0xffffffffull, b_hi = b >> 32;
  const unsigned long long lo_lo = a_lo * b_lo, hi_lo = a_hi * b_lo, lo_hi = a_lo * b_hi;
  const unsigned long long middle = (lo_lo >> 32) + (hi_lo & 0xffffffffull) + lo_hi;
  return a_hi * b_hi + (hi_lo >> 32) + (middle >> 32);
}

// Uniform on [0, range) without bias (Lemire, "Fast random integer generation in an
// interval", 2019: multiply, reject the few products whose low half falls below 2^64 mod
// range); range 0 stands for 2^64.
JET_RNG_FN unsigned long long jet_rng_below(jet_rng_stream& s, unsigned long long range) {
  unsigned long long x = jet_rng_next64(s);
  if (range == 0) return x;
  unsigned long long low = x * range;
  if (low < range) {
    const unsigned long long threshold = (0ull - range) % range;
    while (low < threshold) {
      x = jet_rng_next64(s);
      low = x * range;
    }
  }
  return jet_rng_mulhi64(x, range);
}

// ---- Gamma and beta

// Gamma(shape, 1) for shape >= 1 (Marsaglia and Tsang, "A simple method for generating gamma
// variables", 2000): a cubed shifted normal, accepted by a squeeze or the exact test. Beta
// calls it twice; outlined, NVRTC compiles it once (beta's kernel: 2.1 s -> 0.9 s of NVRTC).
JET_RNG_OUTLINED double jet_rng_gamma_at_least_one(jet_rng_stream& s, double shape) {
  const double d = shape - 1.0 / 3.0, c = 1.0 / sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = jet_rng_normal(s);
      v = 1.0 + c * x;
    } while (v <= 0.0);
    v = v * v * v;
    const double u = jet_rng_uniform_positive(s);
    const double x2 = x * x;
    if (u < 1.0 - 0.0331 * x2 * x2) return d * v;
    if (log(u) < 0.5 * x2 + d * (1.0 - v + log(v))) return d * v;
  }
}

// log of a Gamma(shape, 1) variate for shape > 0. Below 1, Gamma(shape) is
// Gamma(shape + 1) U^(1/shape); in logs, tiny shapes do not underflow to zero.
JET_RNG_FN double jet_rng_log_gamma_variate(jet_rng_stream& s, double shape) {
  if (shape >= 1.0) return log(jet_rng_gamma_at_least_one(s, shape));
  return log(jet_rng_gamma_at_least_one(s, shape + 1.0)) + log(jet_rng_uniform_positive(s)) / shape;
}

JET_RNG_FN double jet_rng_gamma(jet_rng_stream& s, double shape) {
  if (shape >= 1.0) return jet_rng_gamma_at_least_one(s, shape);
  return exp(jet_rng_log_gamma_variate(s, shape));
}

// ---- Gamma in single precision, for float32 and 16-bit results (NumPy's float32 gamma is its
// own single-precision algorithm too): the same method in float, which the GPU computes
// several times faster than double.

// Uniform on (0, 1] from 32 random bits (rounded to float's 24), for logarithms: the normal's
// tail reaches 6.8 standard deviations.
JET_RNG_FN float jet_rng_uniform_positive_f(jet_rng_stream& s) {
  return ((float)jet_rng_next32(s) + 0.5f) * (1.0f / 4294967296.0f);
}

// Standard normal by Box and Muller's transform (one of the pair).
JET_RNG_FN float jet_rng_normal_f(jet_rng_stream& s) {
  const float radius = sqrtf(-2.0f * logf(jet_rng_uniform_positive_f(s)));
  return radius * cosf(6.28318531f * (float)(jet_rng_next32(s) >> 8) * (1.0f / 16777216.0f));
}

// Marsaglia and Tsang, as jet_rng_gamma_at_least_one, for shape >= 1.
JET_RNG_OUTLINED float jet_rng_gamma_at_least_one_f(jet_rng_stream& s, float shape) {
  const float d = shape - 1.0f / 3.0f, c = 1.0f / sqrtf(9.0f * d);
  for (;;) {
    float x, v;
    do {
      x = jet_rng_normal_f(s);
      v = 1.0f + c * x;
    } while (v <= 0.0f);
    v = v * v * v;
    const float u = jet_rng_uniform_positive_f(s);
    const float x2 = x * x;
    if (u < 1.0f - 0.0331f * x2 * x2) return d * v;
    if (logf(u) < 0.5f * x2 + d * (1.0f - v + logf(v))) return d * v;
  }
}

// Gamma(shape, 1) for shape > 0; below 1 as Gamma(shape + 1) U^(1/shape), through logs.
JET_RNG_FN float jet_rng_gamma_f(jet_rng_stream& s, float shape) {
  if (shape >= 1.0f) return jet_rng_gamma_at_least_one_f(s, shape);
  return expf(logf(jet_rng_gamma_at_least_one_f(s, shape + 1.0f)) +
              logf(jet_rng_uniform_positive_f(s)) / shape);
}

// Beta(a, b) as X / (X + Y) of two gamma variates, computed from their logs so that small
// a and b (where X and Y both underflow) still give the right limit.
JET_RNG_FN double jet_rng_beta(jet_rng_stream& s, double a, double b) {
  const double log_x = jet_rng_log_gamma_variate(s, a);
  const double log_y = jet_rng_log_gamma_variate(s, b);
  return 1.0 / (1.0 + exp(log_y - log_x));
}

// ---- Poisson

// Below a mean of 10, counts uniforms until their product falls under e^-lam; above, the
// transformed rejection with squeeze of Hormann ("The transformed rejection method for
// generating Poisson random variables", 1993), which NumPy also uses.
JET_RNG_FN long long jet_rng_poisson(jet_rng_stream& s, double lam) {
  if (lam < 10.0) {
    const double limit = exp(-lam);
    long long k = 0;
    double product = jet_rng_uniform(s);
    while (product > limit) {
      ++k;
      product *= jet_rng_uniform(s);
    }
    return k;
  }
  const double root = sqrt(lam), log_lam = log(lam);
  const double b = 0.931 + 2.53 * root;
  const double a = -0.059 + 0.02483 * b;
  const double inverse_alpha = 1.1239 + 1.1328 / (b - 3.4);
  const double v_r = 0.9277 - 3.6224 / (b - 2.0);
  for (;;) {
    const double u = jet_rng_uniform(s) - 0.5;
    const double v = jet_rng_uniform(s);
    const double us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + lam + 0.43);
    if (us >= 0.07 && v <= v_r) return (long long)k;
    if (k < 0.0 || (us < 0.013 && v > us)) continue;
    if (log(v) + log(inverse_alpha) - log(a / (us * us) + b) <=
        -lam + k * log_lam - lgamma(k + 1.0))
      return (long long)k;
  }
}

// ---- Binomial

// log(k!) - [(k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2], the error of Stirling's formula.
JET_RNG_FN double jet_rng_stirling_error(double k) {
  if (k < 10.0) return lgamma(k + 1.0) - (k + 0.5) * log(k + 1.0) + (k + 1.0) - 0.9189385332046728;
  const double r = 1.0 / (k + 1.0), r2 = r * r;
  return (1.0 / 12.0 - (1.0 / 360.0 - r2 / 1260.0) * r2) * r;
}

// Inversion from zero, for a small mean: walks the probabilities P(k) = P(k-1) (n-k+1)/k p/q.
// Rounding can leave some of u unspent past the last term; such a draw starts again.
JET_RNG_FN long long jet_rng_binomial_inversion(jet_rng_stream& s, long long n, double p) {
  const double q = 1.0 - p, ratio = p / q, a = ((double)n + 1.0) * ratio;
  const double first = exp((double)n * log1p(-p));
  for (;;) {
    double u = jet_rng_uniform(s), f = first;
    long long k = 0;
    while (u > f && f > 0.0 && k < n) {
      u -= f;
      ++k;
      f *= a / (double)k - ratio;
    }
    if (u <= f) return k;
  }
}

// BTRD, transformed rejection with decomposition (Hormann, "The generation of binomial random
// variates", 1993), for n p >= 10 and p <= 1/2. The acceptance test is exact: near the mode
// the ratio f(k)/f(m) is multiplied out, farther away it is taken from Stirling's formula.
JET_RNG_FN long long jet_rng_binomial_btrd(jet_rng_stream& s, long long trials, double p) {
  const double n = (double)trials, q = 1.0 - p;
  const double npq = n * p * q, spq = sqrt(npq);
  const double b = 1.15 + 2.53 * spq;
  const double a = -0.0873 + 0.0248 * b + 0.01 * p;
  const double c = n * p + 0.5;
  const double alpha = (2.83 + 5.1 / b) * spq;
  const double v_r = 0.92 - 4.2 / b;
  const double box = 0.86 * v_r;
  const double m = floor((n + 1.0) * p);
  const double r = p / q, nr = (n + 1.0) * r;
  const double nm = n - m + 1.0;
  const double h = (m + 0.5) * log((m + 1.0) / (r * nm)) + jet_rng_stirling_error(m) +
                   jet_rng_stirling_error(n - m);
  for (;;) {
    double v = jet_rng_uniform(s), u;
    if (v <= box) {
      u = v / v_r - 0.43;
      const double k = floor((2.0 * a / (0.5 - fabs(u)) + b) * u + c);
      if (k >= 0.0 && k <= n) return (long long)k;
      continue;
    }
    if (v >= v_r) {
      u = jet_rng_uniform(s) - 0.5;
    } else {
      u = v / v_r - 0.93;
      u = (u < 0.0 ? -0.5 : 0.5) - u;
      v = jet_rng_uniform(s) * v_r;
    }
    const double us = 0.5 - fabs(u);
    const double k = floor((2.0 * a / us + b) * u + c);
    if (k < 0.0 || k > n) continue;
    v = v * alpha / (a / (us * us) + b);
    if (fabs(k - m) <= 15.0) {
      double f = 1.0;
      for (double i = m + 1.0; i <= k; i += 1.0) f *= nr / i - r;
      for (double i = k + 1.0; i <= m; i += 1.0) v *= nr / i - r;
      if (v <= f) return (long long)k;
      continue;
    }
    const double nk = n - k + 1.0;
    const double log_ratio = h + (n + 1.0) * log(nm / nk) + (k + 0.5) * log(nk * r / (k + 1.0)) -
                             jet_rng_stirling_error(k) - jet_rng_stirling_error(n - k);
    if (log(v) <= log_ratio) return (long long)k;
  }
}

JET_RNG_FN long long jet_rng_binomial(jet_rng_stream& s, long long n, double p) {
  if (n == 0 || p == 0.0) return 0;
  if (p == 1.0) return n;
  const bool flip = p > 0.5;
  const double small = flip ? 1.0 - p : p;
  const long long k = (double)n * small < 10.0 ? jet_rng_binomial_inversion(s, n, small)
                                               : jet_rng_binomial_btrd(s, n, small);
  return flip ? n - k : k;
}

#endif
