// The helpers of kernels that compute in a complex type: arithmetic, comparisons and NumPy's
// complex functions, with glibc's values at infinities and NaN.
#include "codegen/render/preamble.hpp"

namespace jet::codegen {
namespace {

constexpr helper table[] = {
    {"jet_complex", R"(template <class R> struct jet_complex { R re, im; };
template <class R> __device__ __forceinline__ jet_complex<R> operator-(jet_complex<R> a) { return {-a.re, -a.im}; }
template <class R> __device__ __forceinline__ jet_complex<R> operator+(jet_complex<R> a, jet_complex<R> b) {
  return {a.re + b.re, a.im + b.im};
}
template <class R> __device__ __forceinline__ jet_complex<R> operator-(jet_complex<R> a, jet_complex<R> b) {
  return {a.re - b.re, a.im - b.im};
}
template <class R> __device__ __forceinline__ jet_complex<R> operator*(jet_complex<R> a, jet_complex<R> b) {
  return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
}
template <class R> __device__ __forceinline__ jet_complex<R> operator*(jet_complex<R> a, R s) {
  return {a.re * s, a.im * s};
}
// Smith's algorithm (no overflow for large denominators), scaled by 1 / d as NumPy's is.
template <class R> __device__ __forceinline__ jet_complex<R> operator/(jet_complex<R> a, jet_complex<R> b) {
  if (jet_fabs(b.re) >= jet_fabs(b.im)) {
    if (b.re == R(0) && b.im == R(0)) return {a.re / jet_fabs(b.re), a.im / jet_fabs(b.im)};
    R r = b.im / b.re, s = R(1) / (b.re + b.im * r);
    return {(a.re + a.im * r) * s, (a.im - a.re * r) * s};
  }
  R r = b.re / b.im, s = R(1) / (b.im + b.re * r);
  return {(a.re * r + a.im) * s, (a.im * r - a.re) * s};
}
)"},
    {"jet_c64", R"(typedef jet_complex<float> jet_c64;
)"},
    {"jet_c128", R"(typedef jet_complex<double> jet_c128;
)"},
    {"jet_cmul",
     R"(// NumPy's multiply and square ufuncs on FMA hardware (every x86-64 since 2013, every ARM64):
// its SIMD loop fuses the real part's product, so a product can stay finite past overflow.
// operator* above is npymath's product, which NumPy's own complex functions use.
template <class R> __device__ __forceinline__ jet_complex<R> jet_cmul(jet_complex<R> a, jet_complex<R> b) {
  return {jet_fma(a.re, b.re, -(a.im * b.im)), jet_fma(a.re, b.im, a.im * b.re)};
}
)"},
    {"jet_inf", R"(template <class R> __device__ __forceinline__ R jet_inf() {
  return sizeof(R) == 4 ? R(__int_as_float(0x7f800000)) : R(__longlong_as_double(0x7ff0000000000000LL));
}
)"},
    {"jet_ctruth",
     R"(template <class R> __device__ __forceinline__ bool jet_ctruth(jet_complex<R> a) { return a.re != R(0) || a.im != R(0); }
)"},
    {"jet_cisnan",
     R"(template <class R> __device__ __forceinline__ bool jet_cisnan(jet_complex<R> a) { return a.re != a.re || a.im != a.im; }
)"},
    {"jet_clt",
     R"(// NumPy's order: by real part, then imaginary; a NaN imaginary part makes it unordered.
template <class R> __device__ __forceinline__ bool jet_clt(jet_complex<R> a, jet_complex<R> b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im);
}
)"},
    {"jet_cle",
     R"(template <class R> __device__ __forceinline__ bool jet_cle(jet_complex<R> a, jet_complex<R> b) {
  return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im);
}
)"},
    {"jet_cmaximum",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_cmaximum(jet_complex<R> a, jet_complex<R> b) {
  return jet_cisnan(a) ? a : (jet_cisnan(b) ? b : (jet_cle(b, a) ? a : b));
}
)"},
    {"jet_cminimum",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_cminimum(jet_complex<R> a, jet_complex<R> b) {
  return jet_cisnan(a) ? a : (jet_cisnan(b) ? b : (jet_cle(a, b) ? a : b));
}
)"},
    {"jet_cfmax",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_cfmax(jet_complex<R> a, jet_complex<R> b) {
  return jet_cisnan(b) ? a : (jet_cisnan(a) ? b : (jet_cle(b, a) ? a : b));
}
)"},
    {"jet_cfmin",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_cfmin(jet_complex<R> a, jet_complex<R> b) {
  return jet_cisnan(b) ? a : (jet_cisnan(a) ? b : (jet_cle(a, b) ? a : b));
}
)"},
    {"jet_cabs",
     R"(template <class R> __device__ __forceinline__ R jet_cabs(jet_complex<R> a) { return jet_hypot(a.re, a.im); }
)"},
    {"jet_csign", R"(// NumPy 2's sign: z / |z|, with the infinite cases' limits.
template <class R> __device__ __forceinline__ jet_complex<R> jet_csign(jet_complex<R> a) {
  R m = jet_cabs(a);
  if (m != m) return {m, m};
  if (jet_isinf(m)) {
    if (jet_isinf(a.re)) {
      if (jet_isinf(a.im)) return {R(0) * m, R(0) * m};  // NaN
      return {a.re > R(0) ? R(1) : R(-1), R(0)};
    }
    return {R(0), a.im > R(0) ? R(1) : R(-1)};
  }
  if (m == R(0)) return {R(0), R(0)};
  return {a.re / m, a.im / m};
}
)"},
    {"jet_creciprocal",
     R"(// NumPy's reciprocal loop (Smith's division of 1 by a): 1/0 is nan + nan i there.
template <class R> __device__ __forceinline__ jet_complex<R> jet_creciprocal(jet_complex<R> a) {
  if (jet_fabs(a.im) <= jet_fabs(a.re)) {
    R r = a.im / a.re, d = a.re + a.im * r;
    return {R(1) / d, -r / d};
  }
  R r = a.re / a.im, d = a.re * r + a.im;
  return {r / d, R(-1) / d};
}
)"},
    {"jet_csqrt",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_csqrt(jet_complex<R> a) {
  if (a.re == R(0) && a.im == R(0)) return {R(0), a.im};
  if (jet_isinf(a.im)) return {jet_fabs(a.im), a.im};  // C99's limits, as NumPy's
  if (jet_isinf(a.re) && a.im == a.im)
    return a.re > R(0) ? jet_complex<R>{a.re, jet_copysign(R(0), a.im)}
                       : jet_complex<R>{R(0), jet_copysign(-a.re, a.im)};
  R t = jet_sqrt((jet_fabs(a.re) + jet_cabs(a)) * R(0.5));
  if (a.re >= R(0)) return {t, a.im / (R(2) * t)};
  return {jet_fabs(a.im) / (R(2) * t), jet_copysign(t, a.im)};
}
)"},
    {"jet_finite",
     R"(// The complex functions take glibc's values (NumPy calls glibc's): C99's at infinities and
// NaN, and no overflow before a result that is finite.
template <class R> __device__ __forceinline__ bool jet_finite(R x) { return jet_fabs(x) < jet_inf<R>(); }
)"},
    {"jet_negative_sign",
     R"(template <class R> __device__ __forceinline__ bool jet_negative_sign(R x) { return jet_copysign(R(1), x) < R(0); }
)"},
    {"jet_quiet_nan",
     R"(template <class R> __device__ __forceinline__ R jet_quiet_nan() { return R(0) * jet_inf<R>(); }
)"},
    {"jet_exp_limit", R"(// (max exponent - 1) ln 2: exp of up to this is finite.
template <class R> __device__ __forceinline__ R jet_exp_limit() {
  return sizeof(R) == 4 ? R(88.02969193111305) : R(709.0895657128241);
}
)"},
    {"jet_scaled_exp",
     R"(// exp(x) (c, s) for x >= 0 with exp(x) taken in pieces, so that a finite product stays finite.
template <class R> __device__ __forceinline__ jet_complex<R> jet_scaled_exp(R x, R c, R s) {
  const R t = jet_exp_limit<R>();
  for (int k = 0; k < 2 && x > t; ++k) {
    const R e = jet_exp(t);
    x -= t;
    c *= e;
    s *= e;
  }
  const R e = x > t ? (sizeof(R) == 4 ? R(__int_as_float(0x7f7fffff)) : R(__longlong_as_double(0x7fefffffffffffffLL)))
                    : jet_exp(x);
  return {e * c, e * s};
}
)"},
    {"jet_cexp",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_cexp(jet_complex<R> a) {
  const R x = a.re, y = a.im;
  if (jet_finite(x)) {
    if (jet_finite(y)) return jet_scaled_exp(x, jet_cos(y), jet_sin(y));
    return {y - y, y - y};
  }
  if (x != x) return {x, y == R(0) ? y : x};
  if (jet_finite(y)) {  // x infinite
    const R v = x > R(0) ? x : R(0);
    if (y == R(0)) return {v, y};
    return {jet_copysign(v, jet_cos(y)), jet_copysign(v, jet_sin(y))};
  }
  if (x > R(0)) return {x, y - y};
  return {R(0), jet_copysign(R(0), y)};
}
)"},
    {"jet_cexpm1",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_cexpm1(jet_complex<R> a) {
  R s = jet_sin(a.im * R(0.5));
  return {jet_expm1(a.re) * jet_cos(a.im) - R(2) * s * s, jet_exp(a.re) * jet_sin(a.im)};
}
)"},
    {"jet_clog",
     R"(// Near |z| = 1, log |z| = log1p((big - 1)(big + 1) + small^2) / 2 keeps its digits.
template <class R> __device__ __forceinline__ jet_complex<R> jet_clog(jet_complex<R> a) {
  const R h = jet_cabs(a), angle = jet_atan2(a.im, a.re);
  if (!(h > R(0.5) && h < R(2))) return {jet_log(h), angle};
  const R big = jet_fmax(jet_fabs(a.re), jet_fabs(a.im)), small = jet_fmin(jet_fabs(a.re), jet_fabs(a.im));
  return {R(0.5) * jet_log1p((big - R(1)) * (big + R(1)) + small * small), angle};
}
)"},
    {"jet_clog1p",
     R"(// NumPy's: log(1 + z), so that a huge imaginary part does not overflow a square.
template <class R> __device__ __forceinline__ jet_complex<R> jet_clog1p(jet_complex<R> a) {
  return jet_clog(jet_complex<R>{R(1) + a.re, a.im});
}
)"},
    {"jet_csinh", R"(// sinh and cosh: exp(|x|) / 2 in pieces past exp's limit.
template <class R> __device__ __forceinline__ jet_complex<R> jet_csinh(jet_complex<R> a) {
  const R x = jet_fabs(a.re), y = a.im;
  const R sign = jet_negative_sign(a.re) ? R(-1) : R(1);
  if (jet_finite(x)) {
    if (!jet_finite(y)) return {x == R(0) ? jet_copysign(R(0), sign) : jet_quiet_nan<R>(), y - y};
    const R c = jet_cos(y) * sign, s = jet_sin(y);
    if (x > jet_exp_limit<R>()) return jet_scaled_exp(x, c * R(0.5), s * R(0.5));
    return {jet_sinh(x) * c, jet_cosh(x) * s};
  }
  if (x != x) return {x, y == R(0) ? y : x};
  if (!jet_finite(y)) return {x, y - y};
  if (y == R(0)) return {x * sign, y};
  return {jet_copysign(x, jet_cos(y)) * sign, jet_copysign(x, jet_sin(y))};
}
)"},
    {"jet_ccosh",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_ccosh(jet_complex<R> a) {
  const R x = a.re, y = a.im;
  if (jet_finite(x)) {
    if (!jet_finite(y)) return {y - y, x == R(0) ? R(0) : jet_quiet_nan<R>()};
    const R c = jet_cos(y), s = jet_sin(y);
    if (jet_fabs(x) > jet_exp_limit<R>())
      return jet_scaled_exp(jet_fabs(x), c * R(0.5), (jet_negative_sign(x) ? -s : s) * R(0.5));
    return {jet_cosh(x) * c, jet_sinh(x) * s};
  }
  if (x != x) return {x, y == R(0) ? y : x};
  const R sign = jet_negative_sign(x) ? R(-1) : R(1), inf = jet_inf<R>();
  if (!jet_finite(y)) return {inf, y - y};
  if (y == R(0)) return {inf, y * sign};
  return {jet_copysign(inf, jet_cos(y)), jet_copysign(inf, jet_sin(y)) * sign};
}
)"},
    {"jet_csin",
     R"(// sin z = -i sinh(i z), cos z = cosh(i z); glibc's sin(+-inf or NaN +- i inf) is NaN + i inf.
template <class R> __device__ __forceinline__ jet_complex<R> jet_csin(jet_complex<R> a) {
  if (jet_isinf(a.im) && !jet_finite(a.re)) return {a.re - a.re, jet_inf<R>()};
  const jet_complex<R> t = jet_csinh(jet_complex<R>{-a.im, a.re});
  return {t.im, -t.re};
}
)"},
    {"jet_ccos",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_ccos(jet_complex<R> a) {
  return jet_ccosh(jet_complex<R>{-a.im, a.re});
}
)"},
    {"jet_ctanh",
     R"(// tanh z = (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y); past half exp's limit the real
// part is +-1 and the imaginary one 4 sin y cos y / exp(2|x|), taken in pieces.
template <class R> __device__ __forceinline__ jet_complex<R> jet_ctanh(jet_complex<R> a) {
  const R x = a.re, y = a.im;
  if (!jet_finite(x) || !jet_finite(y)) {
    if (jet_isinf(x))
      return {jet_copysign(R(1), x),
              jet_copysign(R(0), jet_finite(y) && jet_fabs(y) > R(1) ? jet_sin(y) * jet_cos(y) : y)};
    if (y == R(0)) return a;
    return {x == R(0) ? x : jet_quiet_nan<R>(), jet_quiet_nan<R>()};
  }
  const R s = jet_sin(y), c = jet_cos(y), half = jet_exp_limit<R>() * R(0.5);
  if (jet_fabs(x) > half) {
    const R e = jet_exp(R(2) * half), rest = jet_fabs(x) - half;
    const R im = R(4) * s * c / e;
    return {jet_copysign(R(1), x), rest > half ? im / e : im / jet_exp(R(2) * rest)};
  }
  const R sh = jet_sinh(x), ch = jet_cosh(x);
  const R eps = sizeof(R) == 4 ? R(1.1920929e-07) : R(2.220446049250313e-16);
  const R d = jet_fabs(sh) > jet_fabs(c) * eps ? sh * sh + c * c : c * c;
  return {sh * ch / d, s * c / d};
}
)"},
    {"jet_ctan",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_ctan(jet_complex<R> a) {
  jet_complex<R> t = jet_ctanh(jet_complex<R>{-a.im, a.re});  // tan z = -i tanh(i z)
  return {t.im, -t.re};
}
)"},
    {"jet_kahan_asin",
     R"(// Kahan's formulas ("Branch cuts for complex elementary functions", 1987) for finite z: no
// cancellation near +-1 or 0, no overflow, and C99's branch cuts through signed zeros.
template <class R> __device__ __forceinline__ jet_complex<R> jet_kahan_asin(jet_complex<R> a) {
  const jet_complex<R> p = jet_csqrt(jet_complex<R>{R(1) - a.re, -a.im});
  const jet_complex<R> q = jet_csqrt(jet_complex<R>{R(1) + a.re, a.im});
  return {jet_atan2(a.re, p.re * q.re - p.im * q.im), jet_asinh(p.re * q.im - p.im * q.re)};
}
)"},
    {"jet_casinh", R"(// asinh z = -i asin(i z); C99's values at infinities and NaN.
template <class R> __device__ __forceinline__ jet_complex<R> jet_casinh(jet_complex<R> a) {
  const R x = a.re, y = a.im, quarter = R(0.78539816339744830962);
  if (jet_isinf(y))
    return {jet_copysign(jet_inf<R>(), x),
            x != x ? x : jet_copysign(jet_finite(x) ? R(2) * quarter : quarter, y)};
  if (!jet_finite(x))
    return {x, (jet_isinf(x) && y == y) || (x != x && y == R(0)) ? jet_copysign(R(0), y) : jet_quiet_nan<R>()};
  if (y != y) return {y, y};
  if (x == R(0) && y == R(0)) return a;
  const jet_complex<R> t = jet_kahan_asin(jet_complex<R>{-y, x});
  return {t.im, -t.re};
}
)"},
    {"jet_casin",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_casin(jet_complex<R> a) {
  if (a.re != a.re || a.im != a.im) {
    if (a.re == R(0)) return a;
    if (jet_isinf(a.re) || jet_isinf(a.im)) return {jet_quiet_nan<R>(), jet_copysign(jet_inf<R>(), a.im)};
    return {jet_quiet_nan<R>(), jet_quiet_nan<R>()};
  }
  jet_complex<R> t = jet_casinh(jet_complex<R>{-a.im, a.re});  // asin z = -i asinh(i z)
  return {t.im, -t.re};
}
)"},
    {"jet_cacos",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_cacos(jet_complex<R> a) {
  if (!jet_finite(a.re) || !jet_finite(a.im) || (a.re == R(0) && a.im == R(0))) {
    const jet_complex<R> s = jet_casin(a);
    return {R(1.57079632679489661923) - s.re + R(0), -s.im};
  }
  const jet_complex<R> p = jet_csqrt(jet_complex<R>{R(1) - a.re, -a.im});
  const jet_complex<R> q = jet_csqrt(jet_complex<R>{R(1) + a.re, a.im});
  return {R(2) * jet_atan2(p.re, q.re), jet_asinh(q.re * p.im - q.im * p.re)};
}
)"},
    {"jet_cacosh",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_cacosh(jet_complex<R> a) {
  const R x = a.re, y = a.im, half_pi = R(1.57079632679489661923);
  if (jet_isinf(y))
    return {jet_inf<R>(), x != x ? x
                                 : jet_copysign(jet_isinf(x) ? (x < R(0) ? R(1.5) : R(0.5)) * half_pi : half_pi, y)};
  if (jet_isinf(x))
    return {jet_inf<R>(), y == y ? jet_copysign(x < R(0) ? R(2) * half_pi : R(0), y) : y};
  if (x != x || y != y) return {jet_quiet_nan<R>(), x == R(0) ? half_pi : jet_quiet_nan<R>()};
  if (x == R(0) && y == R(0)) return {R(0), jet_copysign(half_pi, y)};
  const jet_complex<R> p = jet_csqrt(jet_complex<R>{x - R(1), y});
  const jet_complex<R> q = jet_csqrt(jet_complex<R>{x + R(1), y});
  return {jet_asinh(p.re * q.re + p.im * q.im), R(2) * jet_atan2(p.im, q.re)};
}
)"},
    {"jet_catanh",
     R"(// atanh z = log((1 + z) / (1 - z)) / 2 in real terms: the real part by log1p where the quotient
// is near 1, x / |z|^2 for huge z; C99's values at infinities and NaN.
template <class R> __device__ __forceinline__ jet_complex<R> jet_catanh(jet_complex<R> a) {
  const R x = a.re, y = a.im, half_pi = R(1.57079632679489661923);
  if (jet_isinf(y)) return {jet_copysign(R(0), x), jet_copysign(half_pi, y)};
  if (jet_isinf(x) || (x == R(0) && y != y))
    return {jet_copysign(R(0), x), y == y ? jet_copysign(half_pi, y) : y};
  if (x != x || y != y) return {jet_quiet_nan<R>(), jet_quiet_nan<R>()};
  if (x == R(0) && y == R(0)) return a;
  const R big = sizeof(R) == 4 ? R(1.34217728e8) : R(7.205759403792794e16);  // 16 / epsilon
  if (jet_fabs(x) >= big || jet_fabs(y) >= big) {
    const R h = jet_hypot(x, y);
    return {x / h / h, jet_copysign(half_pi, y)};
  }
  const R up = (R(1) + x) * (R(1) + x) + y * y, down = (R(1) - x) * (R(1) - x) + y * y;
  const R f = up / down;
  const R re = f < R(0.5) ? R(0.25) * jet_log(f) : R(0.25) * jet_log1p(R(4) * x / down);
  return {re, R(0.5) * jet_atan2(R(2) * y, (R(1) - x) * (R(1) + x) - y * y)};
}
)"},
    {"jet_catan",
     R"(template <class R> __device__ __forceinline__ jet_complex<R> jet_catan(jet_complex<R> a) {
  jet_complex<R> t = jet_catanh(jet_complex<R>{-a.im, a.re});  // atan z = -i atanh(i z)
  return {t.im, -t.re};
}
)"},
    {"jet_cmul_c99",
     R"(// C99's product (Annex G): the plain one, but where both its parts are NaN while an operand or
// a partial product is infinite, the infinite result that the plain one lost (glibc's cpow
// multiplies by it; NumPy's multiply does not).
template <class R> __device__ __forceinline__ R jet_unit_or_zero(R x) {
  return jet_copysign(jet_isinf(x) ? R(1) : R(0), x);
}
template <class R> __device__ __forceinline__ R jet_nan_to_zero(R x) { return x != x ? jet_copysign(R(0), x) : x; }
template <class R> __device__ __forceinline__ jet_complex<R> jet_cmul_c99(jet_complex<R> a, jet_complex<R> b) {
  const R ac = a.re * b.re, bd = a.im * b.im, ad = a.re * b.im, bc = a.im * b.re;
  const jet_complex<R> plain{ac - bd, ad + bc};
  if (plain.re == plain.re || plain.im == plain.im) return plain;
  bool recover = false;
  if (jet_isinf(a.re) || jet_isinf(a.im)) {
    a = {jet_unit_or_zero(a.re), jet_unit_or_zero(a.im)};
    b = {jet_nan_to_zero(b.re), jet_nan_to_zero(b.im)};
    recover = true;
  }
  if (jet_isinf(b.re) || jet_isinf(b.im)) {
    b = {jet_unit_or_zero(b.re), jet_unit_or_zero(b.im)};
    a = {jet_nan_to_zero(a.re), jet_nan_to_zero(a.im)};
    recover = true;
  }
  if (!recover && (jet_isinf(ac) || jet_isinf(bd) || jet_isinf(ad) || jet_isinf(bc))) {
    a = {jet_nan_to_zero(a.re), jet_nan_to_zero(a.im)};
    b = {jet_nan_to_zero(b.re), jet_nan_to_zero(b.im)};
    recover = true;
  }
  if (!recover) return plain;
  const R inf = jet_inf<R>();
  return {inf * (a.re * b.re - a.im * b.im), inf * (a.re * b.im + a.im * b.re)};
}
)"},
    {"jet_cpow",
     R"(// NumPy's complex power: 1 for a zero exponent; a zero base gives 0 for an exponent of
// positive real part and NaN otherwise; small integer exponents by repeated products (a quotient for
// negative ones); the others as glibc's cpow, exp(b log a).
template <class R> __device__ __forceinline__ jet_complex<R> jet_cpow(jet_complex<R> a, jet_complex<R> b) {
  if (b.re == R(0) && b.im == R(0)) return {R(1), R(0)};
  if (a.re == R(0) && a.im == R(0)) {
    if (b.re > R(0)) return {R(0), R(0)};
    const R nan = R(0) * jet_inf<R>();
    return {nan, nan};
  }
  if (b.im == R(0) && b.re > R(-100) && b.re < R(100) && b.re == R((int)b.re)) {
    const int n = (int)b.re;
    if (n == 1) return a;
    if (n == 2) return a * a;
    if (n == 3) return a * a * a;
    jet_complex<R> r{R(1), R(0)}, p = a;
    for (int m = n < 0 ? -n : n; m != 0; m >>= 1) {
      if (m & 1) r = r * p;
      p = p * p;
    }
    return n < 0 ? jet_complex<R>{R(1), R(0)} / r : r;
  }
  return jet_cexp(jet_cmul_c99(b, jet_clog(a)));
}
)"},
    {"jet_complex_key",
     R"(// NumPy's sort order of complex numbers as one unsigned key: by the real part, then the
// imaginary; then R + nan j by R, nan + R j by R, nan + nan j, in classes above +inf's key.
// Comparing: -0.0 ties with 0.0 and NaNs with each other. complex128's 128-bit key travels
// as a jet_c128 whose first double holds its low half.
__device__ __forceinline__ unsigned long long jet_complex_key(float re, float im) {
  const unsigned r = jet_float_key(__float_as_uint(re), 0x7f800000u, true);
  const unsigned i = jet_float_key(__float_as_uint(im), 0x7f800000u, true);
  const unsigned top = 0xff800000u;
  const bool nr = re != re, ni = im != im;
  const unsigned long long high = nr ? (ni ? top + 3 : top + 2) : (ni ? top + 1 : r);
  return (high << 32) | (nr ? (ni ? 0u : i) : (ni ? r : i));
}
__device__ __forceinline__ jet_c128 jet_complex_key(double re, double im) {
  const unsigned long long r = jet_float_key((unsigned long long)__double_as_longlong(re),
                                             0x7ff0000000000000ull, true);
  const unsigned long long i = jet_float_key((unsigned long long)__double_as_longlong(im),
                                             0x7ff0000000000000ull, true);
  const unsigned long long top = 0xfff0000000000000ull;
  const bool nr = re != re, ni = im != im;
  const unsigned long long high = nr ? (ni ? top + 3 : top + 2) : (ni ? top + 1 : r);
  const unsigned long long low = nr ? (ni ? 0ull : i) : (ni ? r : i);
  return jet_c128{__longlong_as_double((long long)low), __longlong_as_double((long long)high)};
}
)"},
    {"jet_key_before",
     R"(// complex128's keys: the high halves (the second doubles' bits), then the low ones.
__device__ __forceinline__ bool jet_key_before(jet_c128 a, jet_c128 b, bool or_equal) {
  const unsigned long long ah = __double_as_longlong(a.im), bh = __double_as_longlong(b.im);
  const unsigned long long al = __double_as_longlong(a.re), bl = __double_as_longlong(b.re);
  return ah != bh ? ah < bh : (or_equal ? al <= bl : al < bl);
}
)",
     "jet_c128"},
};

}  // namespace

std::span<const helper> complex_helpers() { return table; }

}  // namespace jet::codegen
