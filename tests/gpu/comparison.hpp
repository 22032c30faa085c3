// Comparisons of GPU results with host references: per-dtype tolerances, and reports that
// name the first mismatching element.
#pragma once

#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "gpu/reference.hpp"

namespace jet_test {

// ---- Comparison --------------------------------------------------------------------------

// Relative tolerance of results of dtype t; 0 means exact. Half types compute in float32 and
// round once on store, so their bound is about two units in the last place.
inline double tolerance(jet::dtype t) {
  switch (t) {
    case jet::dtype::float16: return 2e-3;
    case jet::dtype::bfloat16: return 1.6e-2;
    case jet::dtype::float32:
    case jet::dtype::complex64: return 1e-5;
    case jet::dtype::float64:
    case jet::dtype::complex128: return 1e-12;
    default: return 0.0;
  }
}

// The magnitude past which a correctly rounded store into dtype t gives infinity.
inline double overflow_threshold(jet::dtype t) {
  switch (t) {
    case jet::dtype::float16: return 65520.0;
    case jet::dtype::bfloat16: return 3.3961775292304957e38;
    case jet::dtype::float32:
    case jet::dtype::complex64: return 3.4028235677973366e38;
    default: return std::numeric_limits<double>::infinity();
  }
}

// |got - want| <= rtol * max(|want|, floor); NaN matches NaN, infinities match exactly.
inline bool close(double got, double want, double rtol, double floor, double overflow) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want) || std::abs(want) >= overflow)
    return got == std::copysign(std::numeric_limits<double>::infinity(), want);
  return std::abs(got - want) <= rtol * std::max(std::abs(want), floor);
}

inline bool close(cdouble got, cdouble want, double rtol, double floor, double overflow) {
  const bool special = std::isnan(want.real()) || std::isnan(want.imag()) ||
                       std::isinf(want.real()) || std::isinf(want.imag());
  if (special) {
    const double scale = std::max(std::abs(want.real()) + std::abs(want.imag()), floor);
    return close(got.real(), want.real(), rtol, scale, overflow) &&
           close(got.imag(), want.imag(), rtol, scale, overflow);
  }
  // Beyond the dtype's range complex arithmetic gives some mix of inf and NaN, as NumPy's does.
  if (std::abs(want.real()) >= overflow || std::abs(want.imag()) >= overflow)
    return !std::isfinite(got.real()) || !std::isfinite(got.imag());
  return std::abs(got - want) <= rtol * std::max(std::abs(want), floor);
}

template <class T>
requires std::is_integral_v<T>
bool close(T got, T want, double, double, double) { return got == want; }

template <class W>
std::string show(W x) {
  std::ostringstream s;
  s.precision(17);
  if constexpr (std::is_same_v<W, bool>)
    s << (x ? "true" : "false");
  else if constexpr (std::is_integral_v<W>)
    s << +x;  // int8 prints as a number, not a char
  else
    s << x;
  return s.str();
}

inline std::string multi_index(const jet::shape& s, std::int64_t flat) {
  jet::shape index = jet::shape::filled(s.size(), 0);
  for (int d = s.size() - 1; d >= 0; --d) {
    index[d] = flat % s[d];
    flat /= s[d];
  }
  return jet::to_string(index);
}

// "" when every element of `got` matches `want`; else how many differ and the first one.
// Uses no Catch macros, so threads may call it.
// "" when `got` has dtype R and `count` elements; else what differs.
template <class R>
std::string dtype_or_size_mismatch(const jet::array& got, std::size_t count) {
  if (got.dtype() != jet::dtype_of<R>())
    return "result dtype " + std::string(jet::name(got.dtype())) + ", want " +
           std::string(jet::name(jet::dtype_of<R>()));
  if (got.size() != static_cast<std::int64_t>(count))
    return "result has " + std::to_string(got.size()) + " elements, want " + std::to_string(count);
  return {};
}

template <class R>
std::string mismatch(const jet::array& got, const std::vector<wide_t<R>>& want,
                     double floor = 1.0) {
  if (std::string m = dtype_or_size_mismatch<R>(got, want.size()); !m.empty()) return m;
  std::ostringstream s;
  const host_values<R> host = download<R>(got);
  const double rtol = tolerance(got.dtype()), overflow = overflow_threshold(got.dtype());
  std::int64_t bad = 0, first = -1;
  for (std::int64_t i = 0; i < host.size(); ++i) {
    if (close(widen(host[i]), want[static_cast<std::size_t>(i)], rtol, floor, overflow)) continue;
    if (bad++ == 0) first = i;
  }
  if (bad == 0) return {};
  s << bad << " of " << host.size() << " elements differ; the first at "
    << multi_index(got.shape(), first) << ": got " << show(widen(host[first])) << ", want "
    << show(want[static_cast<std::size_t>(first)]) << " (" << jet::name(got.dtype()) << ", rtol "
    << rtol << ")";
  return s.str();
}

template <class R>
void check_close(const jet::array& got, const std::vector<wide_t<R>>& want, double floor = 1.0) {
  const std::string m = mismatch<R>(got, want, floor);
  INFO(m);
  CHECK(m.empty());
}

// Poison for outputs: a value no reference in these tests produces. Bool outputs get both
// values in turn, so an element left unwritten cannot pass.
template <class R>
std::vector<jet::expr> poisons() {
  if constexpr (std::is_same_v<R, bool>)
    return {jet::expr(true), jet::expr(false)};
  else if constexpr (is_integer_v<R>)
    return {jet::expr(91)};
  else
    return {jet::expr(-12345.0)};  // a real poison also serves complex outputs
}

// Evaluates `e` into a preallocated output filled with poison, then checks every element.
template <class R>
void check_expression(const jet::expr& e, const std::vector<wide_t<R>>& want, double floor = 1.0) {
  CHECK(jet::name(e.dtype()) == jet::name(jet::dtype_of<R>()));
  if (e.dtype() != jet::dtype_of<R>()) return;
  for (const jet::expr& poison : poisons<R>()) {
    jet::array out = jet::full(e.shape(), poison, e.dtype());
    std::move(out) = e;
    check_close<R>(out, want, floor);
  }
}

// Runs one case of a table; an exception fails that case and the table goes on.
template <class F>
void guarded(F&& f) {
  std::string error;
  try {
    f();
  } catch (const std::exception& e) {
    error = e.what();
  }
  INFO("exception: " << error);
  CHECK(error.empty());
}

}  // namespace jet_test
