// Names, sizes and NumPy 2 promotion of dtypes.
#include "jet/dtype.hpp"

#include <array>
#include <bit>
#include <cmath>
#include <cstring>
#include <string>

#include "codegen/core/dtype_order.hpp"
#include "jet/error.hpp"

namespace jet {
namespace {

constexpr std::string_view names[dtype_count] = {
    "bool",   "int8",    "int16",    "int32",   "int64",   "uint8",     "uint16",     "uint32",
    "uint64", "float16", "bfloat16", "float32", "float64", "complex64", "complex128",
};

// Bits of precision a floating type keeps (for deciding which integers fit exactly).
int mantissa_bits(dtype t) {
  switch (t) {
    case dtype::float16: return 11;
    case dtype::bfloat16: return 8;
    case dtype::float32:
    case dtype::complex64: return 24;
    default: return 53;
  }
}

}  // namespace

std::string_view name(dtype t) { return names[static_cast<int>(t)]; }

dtype dtype_from_name(std::string_view n) {
  for (int i = 0; i < dtype_count; ++i)
    if (names[i] == n) return static_cast<dtype>(i);
  throw dtype_error("data type '" + std::string(n) + "' not understood");
}

namespace {

// NumPy's safe casting rule, which can_cast reads from a table.
bool safe_cast(dtype from, dtype to) {
  if (from == to) return true;
  const dtype_kind fk = kind(from), tk = kind(to);
  const int fbits = itemsize(from) * 8;
  switch (fk) {
    case dtype_kind::boolean: return true;
    case dtype_kind::signed_int:
    case dtype_kind::unsigned_int: {
      const bool from_signed = fk == dtype_kind::signed_int;
      if (tk == dtype_kind::signed_int)
        return itemsize(to) > itemsize(from) || (from_signed && itemsize(to) == itemsize(from));
      if (tk == dtype_kind::unsigned_int) return !from_signed && itemsize(to) >= itemsize(from);
      if (tk == dtype_kind::boolean) return false;
      // NumPy: 8-bit ints fit every float, 16-bit ones float32 and up, wider ones float64 only.
      if (fbits == 8) return true;
      return mantissa_bits(real_dtype(to)) >= (fbits == 16 ? 24 : 53);
    }
    case dtype_kind::floating:
      if (tk == dtype_kind::floating) {
        if (from == dtype::float16 || from == dtype::bfloat16) return itemsize(to) > 2;
        return itemsize(to) > itemsize(from);
      }
      if (tk == dtype_kind::complex) {
        if (from == dtype::float16 || from == dtype::bfloat16) return true;
        return itemsize(to) >= 2 * itemsize(from);
      }
      return false;
    case dtype_kind::complex: return tk == dtype_kind::complex && itemsize(to) > itemsize(from);
  }
  return false;
}

template <class T, class Rule>
std::array<std::array<T, dtype_count>, dtype_count> pair_table(Rule&& rule) {
  std::array<std::array<T, dtype_count>, dtype_count> t{};
  for (int a = 0; a < dtype_count; ++a)
    for (int b = 0; b < dtype_count; ++b)
      t[a][b] = rule(static_cast<dtype>(a), static_cast<dtype>(b));
  return t;
}

// The first dtype in promotion order that both cast to safely.
dtype common_type(dtype a, dtype b) {
  for (dtype t : detail::safe_cast_order)
    if (safe_cast(a, t) && safe_cast(b, t)) return t;
  throw internal_error("no common dtype for " + std::string(name(a)) + " and " +
                       std::string(name(b)));
}

}  // namespace

// Both are asked several times per expression node: tables, filled on first use.
bool can_cast(dtype from, dtype to) {
  static const auto table = pair_table<bool>(safe_cast);
  return table[static_cast<int>(from)][static_cast<int>(to)];
}

dtype promote_types(dtype a, dtype b) {
  static const auto table = pair_table<dtype>(common_type);
  return table[static_cast<int>(a)][static_cast<int>(b)];
}

dtype default_dtype(weak_kind weak) {
  switch (weak) {
    case weak_kind::boolean: return dtype::bool_;
    case weak_kind::integer: return dtype::int64;
    case weak_kind::floating: return dtype::float64;
    case weak_kind::complex: return dtype::complex128;
    case weak_kind::none: break;
  }
  throw internal_error("default_dtype of a strong type");
}

dtype promote_weak(dtype strong, weak_kind weak) {
  const dtype_kind k = kind(strong);
  switch (weak) {
    case weak_kind::none:
    case weak_kind::boolean: return strong;
    case weak_kind::integer: return k == dtype_kind::boolean ? dtype::int64 : strong;
    case weak_kind::floating: return is_inexact(strong) ? strong : dtype::float64;
    case weak_kind::complex:
      if (is_complex(strong)) return strong;
      if (is_floating(strong))
        return strong == dtype::float64 ? dtype::complex128 : dtype::complex64;
      return dtype::complex128;
  }
  return strong;
}

float16_t::float16_t(float value) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  const std::uint32_t abs = x & 0x7fffffffu;
  if (abs >= 0x7f800000u) {  // inf or NaN
    bits = static_cast<std::uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0u));
    return;
  }
  if (abs >= 0x477ff000u) {  // rounds to beyond the largest half: inf
    bits = static_cast<std::uint16_t>(sign | 0x7c00u);
    return;
  }
  if (abs < 0x38800000u) {  // subnormal half (or zero): round on the 2^-24 grid
    const float scaled = std::bit_cast<float>(abs) * 16777216.0f;  // exact: power of two
    bits = static_cast<std::uint16_t>(sign | static_cast<std::uint32_t>(std::nearbyint(scaled)));
    return;
  }
  const std::uint32_t mantissa_odd = (abs >> 13) & 1u;
  const std::uint32_t rounded = abs + 0xfffu + mantissa_odd;  // round half to even
  bits = static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

float16_t::operator float() const {
  const std::uint32_t sign = (bits & 0x8000u) << 16;
  const std::uint32_t exponent = (bits >> 10) & 0x1fu;
  const std::uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0) {
    const float magnitude = static_cast<float>(mantissa) / 16777216.0f;
    return sign ? -magnitude : magnitude;
  }
  if (exponent == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mantissa << 13));
  return std::bit_cast<float>(sign | ((exponent + 112) << 23) | (mantissa << 13));
}

bfloat16_t::bfloat16_t(float value) {
  const std::uint32_t x = std::bit_cast<std::uint32_t>(value);
  if ((x & 0x7fffffffu) > 0x7f800000u) {
    bits = static_cast<std::uint16_t>((x >> 16) | 0x40u);  // keep NaN a NaN
    return;
  }
  bits = static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}

bfloat16_t::operator float() const { return std::bit_cast<float>(std::uint32_t{bits} << 16); }

}  // namespace jet
