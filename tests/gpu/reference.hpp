// Shared helpers for the GPU tests: random inputs of every dtype laid out as device views, and
// host references computed in higher precision over broadcast operands. Comparing results
// with them is gpu/comparison.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace jet_test {

using cdouble = std::complex<double>;

inline constexpr jet::dtype all_dtypes[] = {
    jet::bool_,    jet::int8,    jet::int16,   jet::int32,     jet::int64,
    jet::uint8,    jet::uint16,  jet::uint32,  jet::uint64,    jet::float16,
    jet::bfloat16, jet::float32, jet::float64, jet::complex64, jet::complex128,
};

// ---- Host types --------------------------------------------------------------------------

template <class T>
struct type_tag {};

// Calls f(type_tag<T>{}) with the host type T that holds dtype t.
template <class F>
void visit_dtype(jet::dtype t, F&& f) {
  switch (t) {
    case jet::dtype::bool_: f(type_tag<bool>{}); return;
    case jet::dtype::int8: f(type_tag<std::int8_t>{}); return;
    case jet::dtype::int16: f(type_tag<std::int16_t>{}); return;
    case jet::dtype::int32: f(type_tag<std::int32_t>{}); return;
    case jet::dtype::int64: f(type_tag<std::int64_t>{}); return;
    case jet::dtype::uint8: f(type_tag<std::uint8_t>{}); return;
    case jet::dtype::uint16: f(type_tag<std::uint16_t>{}); return;
    case jet::dtype::uint32: f(type_tag<std::uint32_t>{}); return;
    case jet::dtype::uint64: f(type_tag<std::uint64_t>{}); return;
    case jet::dtype::float16: f(type_tag<jet::float16_t>{}); return;
    case jet::dtype::bfloat16: f(type_tag<jet::bfloat16_t>{}); return;
    case jet::dtype::float32: f(type_tag<float>{}); return;
    case jet::dtype::float64: f(type_tag<double>{}); return;
    case jet::dtype::complex64: f(type_tag<std::complex<float>>{}); return;
    case jet::dtype::complex128: f(type_tag<std::complex<double>>{}); return;
  }
}

template <class T>
inline constexpr bool is_half_v =
    std::is_same_v<T, jet::float16_t> || std::is_same_v<T, jet::bfloat16_t>;
template <class T>
inline constexpr bool is_complex_v =
    std::is_same_v<T, std::complex<float>> || std::is_same_v<T, cdouble>;
template <class T>
inline constexpr bool is_integer_v = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// The real type of a complex type; other types are their own.
template <class T>
struct real_of {
  using type = T;
};
template <class R>
struct real_of<std::complex<R>> {
  using type = R;
};

// The dtype kinds a ufunc has loops for, spelled as in include/jet/detail/op_list.hpp.
enum kinds : unsigned { B = 1, I = 2, F = 4, C = 8 };
template <class T>
constexpr unsigned kind_of() {
  if constexpr (std::is_same_v<T, bool>)
    return B;
  else if constexpr (is_integer_v<T>)
    return I;
  else if constexpr (is_complex_v<T>)
    return C;
  else
    return F;
}

// The type a host reference computes in: integers and bool stay exact, floating types widen to
// double and complex ones to complex<double>.
template <class T>
using wide_t = std::conditional_t<is_complex_v<T>, cdouble,
                                  std::conditional_t<std::is_integral_v<T>, T, double>>;

template <class T>
wide_t<T> widen(T x) {
  if constexpr (is_half_v<T>)
    return static_cast<float>(x);
  else if constexpr (is_complex_v<T>)
    return cdouble(x.real(), x.imag());
  else
    return x;
}

// A host value of type T from double parts (rounded to nearest for the floating types).
template <class T>
T narrow(double re, double im = 0.0) {
  if constexpr (is_complex_v<T>) {
    using R = typename T::value_type;
    return T(static_cast<R>(re), static_cast<R>(im));
  } else if constexpr (is_half_v<T>) {
    return T(static_cast<float>(re));
  } else {
    return static_cast<T>(re);
  }
}

// A reference result converted to the wide type of the result's host type R. Integers wrap
// modulo 2^bits, as the device's stores do.
template <class R, class X>
wide_t<R> to_wide(X x) {
  if constexpr (std::is_integral_v<R>)
    return static_cast<R>(x);
  else
    return static_cast<wide_t<R>>(x);
}

// ---- Host buffers ------------------------------------------------------------------------

// Host elements in C order. Not std::vector<T>: std::vector<bool> packs its bits and has no
// data(), while a device bool is one byte.
template <class T>
class host_values {
 public:
  host_values() = default;
  // A negative count is a bug in the test; clamping it also keeps GCC from warning that the
  // size_t it becomes could exceed any object.
  explicit host_values(std::int64_t n)
      : data_(std::make_unique<T[]>(static_cast<std::size_t>(std::max<std::int64_t>(n, 0)))),
        size_(n) {
    REQUIRE(n >= 0);
  }
  std::int64_t size() const { return size_; }
  T* data() { return data_.get(); }
  const T* data() const { return data_.get(); }
  T& operator[](std::int64_t i) { return data_[static_cast<std::size_t>(i)]; }
  const T& operator[](std::int64_t i) const { return data_[static_cast<std::size_t>(i)]; }

 private:
  std::unique_ptr<T[]> data_;
  std::int64_t size_ = 0;
};

template <class T>
jet::array upload(const host_values<T>& values, const jet::shape& s) {
  return jet::from_host(values.data(), jet::dtype_of<T>(), s);
}

template <class T>
host_values<T> download(const jet::array& a) {
  host_values<T> out(a.size());
  a.to_host(out.data(), jet::dtype_of<T>());
  return out;
}

// ---- Random inputs -----------------------------------------------------------------------

struct int_range {
  std::int64_t lo, hi;
};

// Where random elements come from.
struct domain {
  double lo = -4.0, hi = 4.0;  // floating values, and both parts of complex ones
  bool integral = false;       // round floating values to integers: ties and zeros appear
  bool specials = false;       // one floating value in 8 is NaN, +-inf or +-0
  // Integers: this range, clamped to the type; else the full range mixed with small values
  // and the edges (0, 1, -1, min, max).
  std::optional<int_range> integers = std::nullopt;
  bool nonzero = false;
};

// Small integral values: ties for comparisons, zeros for logical operations.
inline const domain small_integers{
    .lo = -3, .hi = 3, .integral = true, .integers = int_range{-3, 3}};

inline std::mt19937 seeded(std::string_view what, jet::dtype t, std::uint32_t salt = 0) {
  std::uint32_t h = 2166136261u;  // FNV-1a of the case's name, so each case has its own stream
  for (char c : what) h = (h ^ static_cast<unsigned char>(c)) * 16777619u;
  return std::mt19937(h ^ (static_cast<std::uint32_t>(t) * 0x9e3779b9u) ^ (salt * 0x85ebca6bu));
}

inline double random_real(std::mt19937& rng, const domain& d) {
  if (d.specials && std::uniform_int_distribution<int>(0, 7)(rng) == 0) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double specials[] = {std::numeric_limits<double>::quiet_NaN(), inf, -inf, 0.0, -0.0};
    return specials[std::uniform_int_distribution<int>(0, 4)(rng)];
  }
  const double x = std::uniform_real_distribution<double>(d.lo, d.hi)(rng);
  return d.integral ? std::round(x) : x;
}

template <class T>
T random_integer(std::mt19937& rng, const domain& d) {
  using limits = std::numeric_limits<T>;
  if (d.integers) {
    const std::int64_t lo =
        std::max<std::int64_t>(d.integers->lo, std::is_signed_v<T> ? limits::min() : 0);
    const std::int64_t hi = std::min<std::int64_t>(
        d.integers->hi,
        static_cast<std::int64_t>(std::min<std::uint64_t>(limits::max(), INT64_MAX)));
    return static_cast<T>(std::uniform_int_distribution<std::int64_t>(lo, hi)(rng));
  }
  switch (std::uniform_int_distribution<int>(0, 7)(rng)) {
    case 0: {
      const T edges[] = {T(0), T(1), static_cast<T>(-1), limits::min(), limits::max()};
      return edges[std::uniform_int_distribution<int>(0, 4)(rng)];
    }
    case 1:
    case 2:
    case 3: {
      const std::int64_t lo = std::is_signed_v<T> ? -8 : 0;
      return static_cast<T>(std::uniform_int_distribution<std::int64_t>(lo, lo + 16)(rng));
    }
    default:
      if constexpr (std::is_signed_v<T>)
        return static_cast<T>(
            std::uniform_int_distribution<std::int64_t>(limits::min(), limits::max())(rng));
      else
        return static_cast<T>(std::uniform_int_distribution<std::uint64_t>(0, limits::max())(rng));
  }
}

template <class T>
T random_value(std::mt19937& rng, const domain& d) {
  for (;;) {
    T x;
    if constexpr (std::is_same_v<T, bool>)
      x = std::bernoulli_distribution(0.5)(rng);
    else if constexpr (is_integer_v<T>)
      x = random_integer<T>(rng, d);
    else if constexpr (is_complex_v<T>)
      x = narrow<T>(random_real(rng, d), random_real(rng, d));
    else
      x = narrow<T>(random_real(rng, d));
    if (!d.nonzero || widen(x) != wide_t<T>(0)) return x;
  }
}

template <class T>
host_values<T> random_values(std::mt19937& rng, std::int64_t n, const domain& d = {}) {
  host_values<T> out(n);
  for (std::int64_t i = 0; i < n; ++i) out[i] = random_value<T>(rng, d);
  return out;
}

// ---- Layouts -----------------------------------------------------------------------------

// How an operand's elements sit in its buffer. Each is a view of a larger random base array.
enum class layout {
  contiguous,
  reversed,              // base(..., ::-1)
  every_other_reversed,  // base(..., ::-2): negative step, stride 2
  transposed_reversed,   // 2-D: base(::-1, ::2).T()
  row_padded,            // 2-D: base(:, :n) of a wider base; unit inner stride, padded rows
};

inline std::string_view name(layout l) {
  switch (l) {
    case layout::contiguous: return "contiguous";
    case layout::reversed: return "reversed";
    case layout::every_other_reversed: return "every other element, reversed";
    case layout::transposed_reversed: return "transposed, reversed and strided";
    case layout::row_padded: return "padded rows";
  }
  return "?";
}

inline jet::shape c_strides(const jet::shape& s) {
  jet::shape out = jet::shape::filled(s.size(), 1);
  for (int d = s.size() - 2; d >= 0; --d) out[d] = out[d + 1] * std::max<std::int64_t>(s[d + 1], 1);
  return out;
}

// The base array a layout views, and the view's strides and offset in base elements, worked
// out here independently of Jet's indexing.
struct view_plan {
  jet::shape base, strides;
  std::int64_t offset = 0;
};

inline view_plan plan_view(const jet::shape& s, layout l) {
  view_plan p{s, c_strides(s), 0};
  const int last = s.size() - 1;
  switch (l) {
    case layout::contiguous: break;
    case layout::reversed:
      p.strides[last] = -1;
      p.offset = std::max<std::int64_t>(s[last] - 1, 0);
      break;
    case layout::every_other_reversed:
      p.base[last] = 2 * s[last];
      p.strides = c_strides(p.base);
      p.strides[last] = -2;
      p.offset = std::max<std::int64_t>(2 * s[last] - 1, 0);
      break;
    case layout::transposed_reversed:
      p.base = {s[1], 2 * s[0]};
      p.strides = {2, -2 * s[0]};
      p.offset = std::max<std::int64_t>(s[1] - 1, 0) * 2 * s[0];
      break;
    case layout::row_padded:
      p.base = {s[0], s[1] + 8};
      p.strides = {s[1] + 8, 1};
      break;
  }
  return p;
}

inline jet::array apply_layout(const jet::array& base, const jet::shape& s, layout l) {
  const jet::slice all, backwards(jet::none, jet::none, -1);
  switch (l) {
    case layout::contiguous: return base;
    case layout::reversed: return base(jet::ellipsis, backwards);
    case layout::every_other_reversed:
      return base(jet::ellipsis, jet::slice(jet::none, jet::none, -2));
    case layout::transposed_reversed:
      return base(backwards, jet::slice(jet::none, jet::none, 2)).T();
    case layout::row_padded: return base(all, jet::slice(0, s[1]));
  }
  return base;
}

// The elements a view (shape, strides, offset) of `base` sees, in C order.
template <class T>
host_values<T> gather(const host_values<T>& base, const jet::shape& s, const jet::shape& strides,
                      std::int64_t offset) {
  host_values<T> out(s.product());
  for (std::int64_t flat = 0; flat < out.size(); ++flat) {
    std::int64_t rest = flat, at = offset;
    for (int d = s.size() - 1; d >= 0; --d) {
      at += (rest % s[d]) * strides[d];
      rest /= s[d];
    }
    out[flat] = base[at];
  }
  return out;
}

// A device view with random elements, and those elements on the host in C order.
template <class T>
struct operand {
  jet::array device;
  host_values<T> values;
};

// A contiguous operand with random elements. Uses no Catch macros, so threads may call it.
template <class T>
operand<T> random_operand(std::mt19937& rng, const jet::shape& s, const domain& d = {}) {
  host_values<T> values = random_values<T>(rng, s.product(), d);
  jet::array device = upload(values, s);
  return {device, std::move(values)};
}

template <class T>
operand<T> make_operand(std::mt19937& rng, const jet::shape& s, layout l, const domain& d = {}) {
  const view_plan p = plan_view(s, l);
  const host_values<T> base = random_values<T>(rng, p.base.product(), d);
  const jet::array base_device = upload(base, p.base);
  jet::array view = apply_layout(base_device, s, l);
  CHECK(jet::to_string(view.shape()) == jet::to_string(s));
  if (s.product() > 0) {
    CHECK(jet::to_string(view.strides()) == jet::to_string(p.strides));
    CHECK(view.offset() == p.offset);
  }
  CHECK(view.shares_buffer_with(base_device));
  return {view, gather(base, s, p.strides, p.offset)};
}

// ---- Host reference over broadcast operands ----------------------------------------------

// NumPy's broadcasting rule, worked out on the host.
inline jet::shape broadcast(const jet::shape& a, const jet::shape& b) {
  const int n = std::max(a.size(), b.size());
  jet::shape out = jet::shape::filled(n, 1);
  for (int i = 0; i < n; ++i) {
    const std::int64_t x = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const std::int64_t y = i < n - b.size() ? 1 : b[i - (n - b.size())];
    out[i] = x == 1 ? y : x;
  }
  return out;
}

// The flat index, in an operand of shape `from`, of the element broadcasting sends to flat
// index `flat` of the result shape `to`.
inline std::int64_t source_index(const jet::shape& to, const jet::shape& from, std::int64_t flat) {
  std::int64_t source = 0, stride = 1;
  for (int d = to.size() - 1, e = from.size() - 1; d >= 0 && e >= 0; --d, --e) {
    const std::int64_t i = flat % to[d];
    flat /= to[d];
    if (from[e] != 1) source += i * stride;
    stride *= from[e];
  }
  return source;
}

// f over broadcast operands, element by element in higher precision, as R's wide type.
template <class R, class F, class... T>
std::vector<wide_t<R>> reference(const jet::shape& out, F&& f, const operand<T>&... in) {
  std::vector<wide_t<R>> want(static_cast<std::size_t>(out.product()));
  for (std::int64_t i = 0; i < out.product(); ++i)
    want[static_cast<std::size_t>(i)] =
        to_wide<R>(f(widen(in.values[source_index(out, in.device.shape(), i)])...));
  return want;
}

}  // namespace jet_test
