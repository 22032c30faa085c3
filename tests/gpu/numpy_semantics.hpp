// NumPy's elementwise semantics on the host, the references the GPU ufunc tests compare with.
#pragma once

#include "gpu/comparison.hpp"

namespace jet_test {

// Random values with NaN, infinities and signed zeros mixed in.
inline const domain with_specials{.specials = true};

// Jet's ufuncs as plain function pointers, for tables of ops and their references.
using unary_fn = jet::expr (*)(jet::expr);
using binary_fn = jet::expr (*)(jet::expr, jet::expr);

// ---- NumPy's elementwise semantics on the host ------------------------------------------
//
// Each takes and returns wide values (see wide_t): integers in their own type with wrapping
// arithmetic, floating values as double, complex ones as complex<double>.
namespace ref {

template <class T>
std::uint64_t bits(T v) {
  return static_cast<std::uint64_t>(v);
}

inline constexpr auto is_nan = [](auto x) {
  using T = decltype(x);
  if constexpr (is_complex_v<T>)
    return std::isnan(x.real()) || std::isnan(x.imag());
  else if constexpr (std::is_floating_point_v<T>)
    return std::isnan(x);
  else
    return false;
};
inline constexpr auto is_inf = [](auto x) {
  using T = decltype(x);
  if constexpr (is_complex_v<T>)
    return std::isinf(x.real()) || std::isinf(x.imag());
  else if constexpr (std::is_floating_point_v<T>)
    return std::isinf(x);
  else
    return false;
};
inline constexpr auto is_finite = [](auto x) { return !is_nan(x) && !is_inf(x); };
inline constexpr auto truth = [](auto x) { return x != decltype(x)(0); };
inline constexpr auto logical_not = [](auto x) { return !truth(x); };

// Integer arithmetic wraps modulo 2^bits, through uint64 so that nothing overflows here.
inline constexpr auto add = [](auto a, auto b) {
  using T = decltype(a);
  if constexpr (std::is_same_v<T, bool>)
    return a || b;
  else if constexpr (is_integer_v<T>)
    return static_cast<T>(bits(a) + bits(b));
  else
    return a + b;
};
inline constexpr auto subtract = [](auto a, auto b) {
  using T = decltype(a);
  if constexpr (is_integer_v<T>)
    return static_cast<T>(bits(a) - bits(b));
  else
    return a - b;
};
inline constexpr auto multiply = [](auto a, auto b) {
  using T = decltype(a);
  if constexpr (std::is_same_v<T, bool>)
    return a && b;
  else if constexpr (is_integer_v<T>)
    return static_cast<T>(bits(a) * bits(b));
  else
    return a * b;
};
inline constexpr auto negative = [](auto a) {
  using T = decltype(a);
  if constexpr (is_integer_v<T>)
    return static_cast<T>(0 - bits(a));
  else
    return -a;
};
inline constexpr auto absolute = [](auto a) {
  using T = decltype(a);
  if constexpr (std::is_same_v<T, bool>)
    return a;
  else if constexpr (std::is_unsigned_v<T>)
    return a;
  else if constexpr (is_integer_v<T>)
    return a < T(0) ? negative(a) : a;  // abs(INT_MIN) wraps
  else
    return std::abs(a);
};
inline constexpr auto sign = [](auto a) {
  using T = decltype(a);
  if constexpr (is_complex_v<T>)
    return a == 0.0 ? T(0) : a / std::abs(a);  // NumPy 2: z / |z|
  else if constexpr (std::is_unsigned_v<T>)
    return static_cast<T>(a != T(0));
  else if constexpr (is_integer_v<T>)
    return static_cast<T>((a > T(0)) - (a < T(0)));
  else
    return a > 0 ? 1.0 : (a < 0 ? -1.0 : a);  // NaN stays NaN
};
inline constexpr auto square = [](auto a) { return multiply(a, a); };
inline constexpr auto reciprocal = [](auto a) {
  using T = decltype(a);
  if constexpr (is_integer_v<T>) {  // C's 1 / a: 0 unless |a| == 1 (a == 0 is never asked)
    if (a == T(1)) return T(1);
    if (std::is_signed_v<T> && a == static_cast<T>(-1)) return a;
    return T(0);
  } else {
    return T(1) / a;
  }
};
inline constexpr auto invert = [](auto a) {
  using T = decltype(a);
  if constexpr (std::is_same_v<T, bool>)
    return !a;
  else
    return static_cast<T>(~bits(a));
};
inline constexpr auto floor = [](auto a) {
  if constexpr (std::is_floating_point_v<decltype(a)>)
    return std::floor(a);
  else
    return a;
};
inline constexpr auto ceil = [](auto a) {
  if constexpr (std::is_floating_point_v<decltype(a)>)
    return std::ceil(a);
  else
    return a;
};
inline constexpr auto trunc = [](auto a) {
  if constexpr (std::is_floating_point_v<decltype(a)>)
    return std::trunc(a);
  else
    return a;
};
inline constexpr auto rint = [](auto a) {  // half to even, the default rounding mode
  if constexpr (is_complex_v<decltype(a)>)
    return cdouble(std::nearbyint(a.real()), std::nearbyint(a.imag()));
  else
    return std::nearbyint(a);
};
inline constexpr auto real = [](auto a) {
  if constexpr (is_complex_v<decltype(a)>)
    return a.real();
  else
    return a;
};
inline constexpr auto imag = [](auto a) {
  using T = decltype(a);
  if constexpr (is_complex_v<T>)
    return a.imag();
  else
    return T(0);
};
// NumPy's angle is arctan2(imag, real); std::arg of a real NaN would give 0, not NaN.
inline constexpr auto angle = [](auto a) {
  if constexpr (is_complex_v<decltype(a)>)
    return std::arg(a);
  else
    return std::atan2(0.0, a);
};
inline constexpr auto conj = [](auto a) {
  if constexpr (is_complex_v<decltype(a)>)
    return std::conj(a);
  else
    return a;
};

// Python's floor division and modulo: the quotient rounds toward minus infinity and the
// remainder takes the divisor's sign. Integer division by zero gives 0, as in NumPy; the
// floating forms follow CPython's float_floor_div (NumPy's npy_divmod).
inline constexpr auto floor_divide = [](auto a, auto b) {
  using T = decltype(a);
  if constexpr (is_integer_v<T>) {
    if (b == T(0)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return negative(a);
      T q = static_cast<T>(a / b);
      if (static_cast<T>(a % b) != T(0) && ((a < T(0)) != (b < T(0)))) q = static_cast<T>(q - 1);
      return q;
    } else {
      return static_cast<T>(a / b);
    }
  } else {
    if (b == 0) return a / b;
    const double mod = std::fmod(a, b);
    double div = (a - mod) / b;
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= 1.0;
    if (div == 0) return std::copysign(0.0, a / b);
    double whole = std::floor(div);
    if (div - whole > 0.5) whole += 1.0;
    return whole;
  }
};
inline constexpr auto remainder = [](auto a, auto b) {
  using T = decltype(a);
  if constexpr (is_integer_v<T>) {
    if (b == T(0)) return T(0);
    if constexpr (std::is_signed_v<T>) {
      if (b == T(-1)) return T(0);
      T r = static_cast<T>(a % b);
      if (r != T(0) && ((r < T(0)) != (b < T(0)))) r = static_cast<T>(r + b);
      return r;
    } else {
      return static_cast<T>(a % b);
    }
  } else {
    double mod = std::fmod(a, b);
    if (b == 0) return mod;
    if (mod != 0) {
      if ((b < 0) != (mod < 0)) mod += b;
    } else {
      mod = std::copysign(0.0, b);
    }
    return mod;
  }
};
inline constexpr auto fmod = [](auto a, auto b) {  // C's: the remainder takes the dividend's sign
  using T = decltype(a);
  if constexpr (is_integer_v<T>) {
    if (b == T(0)) return T(0);
    if constexpr (std::is_signed_v<T>)
      if (b == T(-1)) return T(0);
    return static_cast<T>(a % b);
  } else {
    return std::fmod(a, b);
  }
};
inline constexpr auto power = [](auto a, auto b) {
  using T = decltype(a);
  if constexpr (is_integer_v<T>) {  // exponents are >= 0 here: NumPy refuses negative ones
    T result = 1;
    for (std::uint64_t e = bits(b); e != 0; e >>= 1) {
      if (e & 1) result = multiply(result, a);
      a = multiply(a, a);
    }
    return result;
  } else {
    return std::pow(a, b);
  }
};
// Shifts by a negative count or by the bit width or more give 0 (left) or the sign (right).
inline constexpr auto left_shift = [](auto a, auto b) {
  using T = decltype(a);
  if (bits(b) >= sizeof(T) * 8) return T(0);
  return static_cast<T>(bits(a) << bits(b));
};
inline constexpr auto right_shift = [](auto a, auto b) {
  using T = decltype(a);
  if (bits(b) < sizeof(T) * 8) return static_cast<T>(a >> b);
  if constexpr (std::is_signed_v<T>) return a < T(0) ? static_cast<T>(-1) : T(0);
  return T(0);
};

// Complex numbers order lexicographically, as NumPy orders them.
inline constexpr auto less = [](auto a, auto b) {
  if constexpr (is_complex_v<decltype(a)>)
    return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
  else
    return a < b;
};
inline constexpr auto less_equal = [](auto a, auto b) {
  if constexpr (is_complex_v<decltype(a)>)
    return a.real() < b.real() || (a.real() == b.real() && a.imag() <= b.imag());
  else
    return a <= b;
};
inline constexpr auto greater = [](auto a, auto b) { return less(b, a); };
inline constexpr auto greater_equal = [](auto a, auto b) { return less_equal(b, a); };

// maximum and minimum propagate NaN; fmax and fmin return the other operand.
inline constexpr auto maximum = [](auto a, auto b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  if constexpr (std::is_same_v<decltype(a), bool>)
    return a || b;
  else
    return less_equal(b, a) ? a : b;
};
inline constexpr auto minimum = [](auto a, auto b) {
  if (is_nan(a)) return a;
  if (is_nan(b)) return b;
  if constexpr (std::is_same_v<decltype(a), bool>)
    return a && b;
  else
    return less_equal(a, b) ? a : b;
};
inline constexpr auto fmax = [](auto a, auto b) {
  if (is_nan(b)) return a;
  if (is_nan(a)) return b;
  return maximum(a, b);
};
inline constexpr auto fmin = [](auto a, auto b) {
  if (is_nan(b)) return a;
  if (is_nan(a)) return b;
  return minimum(a, b);
};

}  // namespace ref

}  // namespace jet_test
