// Element types, their names and sizes, and NumPy 2's type promotion.
#pragma once

#include <complex>
#include <cstdint>
#include <string_view>
#include <type_traits>

namespace jet {

// In NumPy's order of kinds: bool, signed, unsigned, floating, complex.
enum class dtype : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  bfloat16,
  float32,
  float64,
  complex64,
  complex128,
};
inline constexpr int dtype_count = 15;

inline constexpr dtype bool_ = dtype::bool_;
inline constexpr dtype int8 = dtype::int8;
inline constexpr dtype int16 = dtype::int16;
inline constexpr dtype int32 = dtype::int32;
inline constexpr dtype int64 = dtype::int64;
inline constexpr dtype uint8 = dtype::uint8;
inline constexpr dtype uint16 = dtype::uint16;
inline constexpr dtype uint32 = dtype::uint32;
inline constexpr dtype uint64 = dtype::uint64;
inline constexpr dtype float16 = dtype::float16;
inline constexpr dtype bfloat16 = dtype::bfloat16;
inline constexpr dtype float32 = dtype::float32;
inline constexpr dtype float64 = dtype::float64;
inline constexpr dtype complex64 = dtype::complex64;
inline constexpr dtype complex128 = dtype::complex128;

enum class dtype_kind : std::uint8_t { boolean, signed_int, unsigned_int, floating, complex };

namespace detail {
inline constexpr dtype_kind kinds[dtype_count] = {
    dtype_kind::boolean,      dtype_kind::signed_int,   dtype_kind::signed_int,
    dtype_kind::signed_int,   dtype_kind::signed_int,   dtype_kind::unsigned_int,
    dtype_kind::unsigned_int, dtype_kind::unsigned_int, dtype_kind::unsigned_int,
    dtype_kind::floating,     dtype_kind::floating,     dtype_kind::floating,
    dtype_kind::floating,     dtype_kind::complex,      dtype_kind::complex,
};
inline constexpr std::uint8_t itemsizes[dtype_count] = {1, 1, 2, 4, 8, 1, 2, 4,
                                                        8, 2, 2, 4, 8, 8, 16};
}  // namespace detail

// Kind of a dtype (bool, signed, unsigned, floating, complex).
constexpr dtype_kind kind(dtype t) { return detail::kinds[static_cast<int>(t)]; }
// Bytes per element.
constexpr int itemsize(dtype t) { return detail::itemsizes[static_cast<int>(t)]; }
// NumPy's name: "float32", "bool", ...
std::string_view name(dtype t);
// Parses a NumPy dtype name; throws jet::dtype_error for an unknown one.
dtype dtype_from_name(std::string_view name);

// Kind tests: signed or unsigned integer; floating; complex; floating or complex.
inline bool is_integer(dtype t) {
  return kind(t) == dtype_kind::signed_int || kind(t) == dtype_kind::unsigned_int;
}
inline bool is_floating(dtype t) { return kind(t) == dtype_kind::floating; }
inline bool is_complex(dtype t) { return kind(t) == dtype_kind::complex; }
inline bool is_inexact(dtype t) { return is_floating(t) || is_complex(t); }
// The dtype of a value's real part: complex64 -> float32, complex128 -> float64, others as is.
inline dtype real_dtype(dtype t) {
  if (t == dtype::complex64) return dtype::float32;
  if (t == dtype::complex128) return dtype::float64;
  return t;
}

// True when every value of `from` is exactly representable in `to` (NumPy's "safe" casting).
bool can_cast(dtype from, dtype to);
// The smallest dtype both safely cast to (numpy.promote_types). bfloat16, which NumPy lacks,
// promotes as float16 does, and float16 with bfloat16 gives float32.
dtype promote_types(dtype a, dtype b);

// The kind of a C++ arithmetic scalar, which is weak as Python scalars are under NEP 50.
enum class weak_kind : std::uint8_t { none, boolean, integer, floating, complex };
// Result of an array of dtype `strong` meeting a weak scalar of kind `weak` (NEP 50).
dtype promote_weak(dtype strong, weak_kind weak);
// The dtype a weak scalar takes when no array fixes it (Python's int -> int64, ...).
dtype default_dtype(weak_kind weak);

// 16-bit IEEE half, as stored on the device.
struct float16_t {
  std::uint16_t bits = 0;
  float16_t() = default;
  explicit float16_t(float value);
  explicit operator float() const;
};
// bfloat16 (the upper half of a float32), as stored on the device.
struct bfloat16_t {
  std::uint16_t bits = 0;
  bfloat16_t() = default;
  explicit bfloat16_t(float value);
  explicit operator float() const;
};

// The dtype that holds the C++ type T.
template <class T>
constexpr dtype dtype_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, bool>)
    return dtype::bool_;
  else if constexpr (std::is_same_v<U, float16_t>)
    return dtype::float16;
  else if constexpr (std::is_same_v<U, bfloat16_t>)
    return dtype::bfloat16;
  else if constexpr (std::is_same_v<U, float>)
    return dtype::float32;
  else if constexpr (std::is_same_v<U, double>)
    return dtype::float64;
  else if constexpr (std::is_same_v<U, std::complex<float>>)
    return dtype::complex64;
  else if constexpr (std::is_same_v<U, std::complex<double>>)
    return dtype::complex128;
  else if constexpr (std::is_integral_v<U> && std::is_signed_v<U>) {
    constexpr dtype by_size[] = {dtype::int8, dtype::int16, dtype::int32, dtype::int32,
                                 dtype::int64};
    return by_size[sizeof(U) == 8 ? 4 : sizeof(U) - 1];
  } else if constexpr (std::is_integral_v<U> && std::is_unsigned_v<U>) {
    constexpr dtype by_size[] = {dtype::uint8, dtype::uint16, dtype::uint32, dtype::uint32,
                                 dtype::uint64};
    return by_size[sizeof(U) == 8 ? 4 : sizeof(U) - 1];
  } else {
    static_assert(sizeof(U) == 0, "jet: no dtype holds this C++ type");
  }
}

}  // namespace jet
