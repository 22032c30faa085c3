// The elementwise engine on a GPU: every ufunc over every dtype it has a loop for, on
// contiguous, broadcast, strided, negative-step, zero-size and odd-size operands, against host
// references in higher precision; NumPy's semantics case by case; promotion and weak scalars;
// where, clip, round and astype; fused and in-place expressions; more than 2^31 elements; and
// several threads at once.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <limits>
#include <numbers>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "gpu/reference.hpp"

namespace {

using namespace jet_test;

using unary_fn = jet::expr (*)(const jet::expr&);
using binary_fn = jet::expr (*)(const jet::expr&, const jet::expr&);

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

template <class T>
struct real_of {
  using type = T;
};
template <class R>
struct real_of<std::complex<R>> {
  using type = R;
};

// The host type of a ufunc's result, from its input type T and the reference's return type:
// bool for predicates, the real type for absolute, real, imag and angle of complex numbers.
template <class T, class Ret>
using result_t = std::conditional_t<
    std::is_same_v<Ret, bool> && !std::is_same_v<T, bool>, bool,
    std::conditional_t<is_complex_v<T> && !is_complex_v<Ret>, typename real_of<T>::type, T>>;

unsigned kind_bit(jet::dtype t) {
  switch (jet::kind(t)) {
    case jet::dtype_kind::boolean:
      return B;
    case jet::dtype_kind::signed_int:
    case jet::dtype_kind::unsigned_int:
      return I;
    case jet::dtype_kind::floating:
      return F;
    case jet::dtype_kind::complex:
      return C;
  }
  return 0;
}

// ---- The ufunc tables ----------------------------------------------------------------------

template <unsigned Loops, class Ref>
struct unary_op {
  std::string_view name;
  unary_fn apply;
  Ref reference;
  domain inputs;
};
template <unsigned Loops, class Ref>
unary_op<Loops, Ref> unary(std::string_view name, unary_fn apply, Ref reference,
                           domain inputs = {}) {
  return {name, apply, reference, inputs};
}

template <unsigned Loops, class Ref>
struct binary_op {
  std::string_view name;
  binary_fn apply;
  Ref reference;
  domain lhs, rhs;
};
template <unsigned Loops, class Ref>
binary_op<Loops, Ref> binary(std::string_view name, binary_fn apply, Ref reference, domain lhs = {},
                             domain rhs = {}) {
  return {name, apply, reference, lhs, rhs};
}

const domain with_specials{.specials = true};
const domain predicate_inputs{
    .lo = -2, .hi = 2, .integral = true, .specials = true, .integers = int_range{-2, 2}};

// Complex references for functions the C++ library has only for real arguments.
constexpr auto exp2 = [](auto x) {
  if constexpr (is_complex_v<decltype(x)>)
    return std::exp(x * std::numbers::ln2);
  else
    return std::exp2(x);
};
constexpr auto expm1 = [](auto x) {
  if constexpr (is_complex_v<decltype(x)>)
    return std::exp(x) - 1.0;
  else
    return std::expm1(x);
};
constexpr auto log2 = [](auto x) {
  if constexpr (is_complex_v<decltype(x)>)
    return std::log(x) / std::numbers::ln2;
  else
    return std::log2(x);
};
constexpr auto log1p = [](auto x) {
  if constexpr (is_complex_v<decltype(x)>)
    return std::log(1.0 + x);
  else
    return std::log1p(x);
};

// One row per unary ufunc of include/jet/detail/op_list.hpp: loops, reference, input domain.
auto unary_ops() {
  return std::make_tuple(
      unary<I | F | C>("negative", jet::negative, ref::negative),
      unary<I | F | C>("positive", jet::positive, [](auto x) { return x; }),
      unary<B | I>("invert", jet::invert, ref::invert),
      unary<B | I | F | C>("absolute", jet::absolute, ref::absolute),
      unary<I | F | C>("sign", jet::sign, ref::sign, small_integers),
      unary<I | F | C>("square", jet::square, ref::square),
      unary<I | F | C>("reciprocal", jet::reciprocal, ref::reciprocal,
                       {.integers = int_range{-5, 5}, .nonzero = true}),
      unary<F | C>("sqrt", jet::sqrt, [](auto x) { return std::sqrt(x); }, {.lo = -1, .hi = 16}),
      unary<F>("cbrt", jet::cbrt, [](double x) { return std::cbrt(x); }, {.lo = -27, .hi = 27}),
      unary<F | C>("exp", jet::exp, [](auto x) { return std::exp(x); }, {.lo = -5, .hi = 5}),
      unary<F | C>("exp2", jet::exp2, exp2, {.lo = -8, .hi = 8}),
      unary<F | C>("expm1", jet::expm1, expm1, {.lo = -3, .hi = 3}),
      unary<F | C>("log", jet::log, [](auto x) { return std::log(x); }, {.lo = -0.5, .hi = 20}),
      unary<F | C>("log2", jet::log2, log2, {.lo = -0.5, .hi = 20}),
      unary<F | C>("log10", jet::log10, [](auto x) { return std::log10(x); },
                   {.lo = -0.5, .hi = 20}),
      unary<F | C>("log1p", jet::log1p, log1p, {.lo = -1.5, .hi = 10}),
      unary<F | C>("sin", jet::sin, [](auto x) { return std::sin(x); }, {.lo = -6, .hi = 6}),
      unary<F | C>("cos", jet::cos, [](auto x) { return std::cos(x); }, {.lo = -6, .hi = 6}),
      unary<F | C>("tan", jet::tan, [](auto x) { return std::tan(x); }, {.lo = -1.2, .hi = 1.2}),
      unary<F | C>("arcsin", jet::arcsin, [](auto x) { return std::asin(x); },
                   {.lo = -1.2, .hi = 1.2}),
      unary<F | C>("arccos", jet::arccos, [](auto x) { return std::acos(x); },
                   {.lo = -1.2, .hi = 1.2}),
      unary<F | C>("arctan", jet::arctan, [](auto x) { return std::atan(x); }, {.lo = -3, .hi = 3}),
      unary<F | C>("sinh", jet::sinh, [](auto x) { return std::sinh(x); }, {.lo = -5, .hi = 5}),
      unary<F | C>("cosh", jet::cosh, [](auto x) { return std::cosh(x); }, {.lo = -5, .hi = 5}),
      unary<F | C>("tanh", jet::tanh, [](auto x) { return std::tanh(x); }, {.lo = -1.2, .hi = 1.2}),
      unary<F | C>("arcsinh", jet::arcsinh, [](auto x) { return std::asinh(x); },
                   {.lo = -3, .hi = 3}),
      unary<F | C>("arccosh", jet::arccosh, [](auto x) { return std::acosh(x); },
                   {.lo = 0.5, .hi = 10}),
      unary<F | C>("arctanh", jet::arctanh, [](auto x) { return std::atanh(x); },
                   {.lo = -1.2, .hi = 1.2}),
      unary<B | I | F>("floor", jet::floor, ref::floor, {.lo = -10, .hi = 10}),
      unary<B | I | F>("ceil", jet::ceil, ref::ceil, {.lo = -10, .hi = 10}),
      unary<B | I | F>("trunc", jet::trunc, ref::trunc, {.lo = -10, .hi = 10}),
      unary<F | C>("rint", jet::rint, ref::rint, {.lo = -10, .hi = 10}),
      unary<F>("degrees", jet::degrees, [](double x) { return x * 180.0 / std::numbers::pi; }),
      unary<F>("radians", jet::radians, [](double x) { return x * std::numbers::pi / 180.0; }),
      unary<B | I | F | C>("isnan", jet::isnan, ref::is_nan, predicate_inputs),
      unary<B | I | F | C>("isinf", jet::isinf, ref::is_inf, predicate_inputs),
      unary<B | I | F | C>("isfinite", jet::isfinite, ref::is_finite, predicate_inputs),
      unary<B | I | F | C>("logical_not", jet::logical_not, ref::logical_not, predicate_inputs),
      unary<B | I | F | C>("real", jet::real, ref::real),
      unary<B | I | F | C>("imag", jet::imag, ref::imag),
      unary<I | F | C>("conj", jet::conj, ref::conj),
      unary<F | C>("angle", jet::angle, ref::angle, with_specials));
}

const domain dividends{.lo = -10, .hi = 10};
const domain divisors{.lo = -4, .hi = 4};

// One row per binary ufunc of include/jet/detail/op_list.hpp.
auto binary_ops() {
  const domain shift_counts{.integers = int_range{-2, 70}};
  return std::make_tuple(
      binary<B | I | F | C>("add", jet::add, ref::add),
      binary<I | F | C>("subtract", jet::subtract, ref::subtract),
      binary<B | I | F | C>("multiply", jet::multiply, ref::multiply),
      binary<F | C>("divide", jet::true_divide, [](auto a, auto b) { return a / b; }),
      binary<I | F>("floor_divide", jet::floor_divide, ref::floor_divide, dividends, divisors),
      binary<I | F>("remainder", jet::remainder, ref::remainder, dividends, divisors),
      binary<I | F>("fmod", jet::fmod, ref::fmod, dividends, divisors),
      binary<I | F | C>("power", jet::power, ref::power, {.lo = 0, .hi = 4},
                        {.lo = -3, .hi = 3, .integers = int_range{0, 9}}),
      binary<B | I>("bitwise_and", jet::bitwise_and, [](auto a, auto b) { return a & b; }),
      binary<B | I>("bitwise_or", jet::bitwise_or, [](auto a, auto b) { return a | b; }),
      binary<B | I>("bitwise_xor", jet::bitwise_xor, [](auto a, auto b) { return a ^ b; }),
      binary<I>("left_shift", jet::left_shift, ref::left_shift, {}, shift_counts),
      binary<I>("right_shift", jet::right_shift, ref::right_shift, {}, shift_counts),
      binary<B | I | F | C>(
          "equal", jet::equal, [](auto a, auto b) { return a == b; }, small_integers,
          small_integers),
      binary<B | I | F | C>(
          "not_equal", jet::not_equal, [](auto a, auto b) { return a != b; }, small_integers,
          small_integers),
      binary<B | I | F | C>("less", jet::less, ref::less, small_integers, small_integers),
      binary<B | I | F | C>("less_equal", jet::less_equal, ref::less_equal, small_integers,
                            small_integers),
      binary<B | I | F | C>("greater", jet::greater, ref::greater, small_integers, small_integers),
      binary<B | I | F | C>("greater_equal", jet::greater_equal, ref::greater_equal, small_integers,
                            small_integers),
      binary<B | I | F | C>(
          "logical_and", jet::logical_and,
          [](auto a, auto b) { return ref::truth(a) && ref::truth(b); }, small_integers,
          small_integers),
      binary<B | I | F | C>(
          "logical_or", jet::logical_or,
          [](auto a, auto b) { return ref::truth(a) || ref::truth(b); }, small_integers,
          small_integers),
      binary<B | I | F | C>(
          "logical_xor", jet::logical_xor,
          [](auto a, auto b) { return ref::truth(a) != ref::truth(b); }, small_integers,
          small_integers),
      binary<B | I | F | C>("maximum", jet::maximum, ref::maximum, with_specials, with_specials),
      binary<B | I | F | C>("minimum", jet::minimum, ref::minimum, with_specials, with_specials),
      binary<B | I | F | C>("fmax", jet::fmax, ref::fmax, with_specials, with_specials),
      binary<B | I | F | C>("fmin", jet::fmin, ref::fmin, with_specials, with_specials),
      binary<F>(
          "arctan2", jet::arctan2, [](double a, double b) { return std::atan2(a, b); },
          with_specials, with_specials),
      binary<F>("hypot", jet::hypot, [](double a, double b) { return std::hypot(a, b); }),
      binary<F>(
          "copysign", jet::copysign, [](double a, double b) { return std::copysign(a, b); },
          with_specials, with_specials));
}

// Shapes and layouts every op runs over. Contiguous sizes share one kernel; each other row is
// a kernel of its own (strided, negative step, transposed, broadcast, 0-d, padded rows).
struct unary_case {
  jet::shape shape;
  layout how;
};
const unary_case unary_cases[] = {
    {{0}, layout::contiguous},
    {{1}, layout::contiguous},
    {{31}, layout::contiguous},
    {{1023}, layout::contiguous},
    {{100003}, layout::contiguous},
    {{517}, layout::every_other_reversed},
    {{29, 37}, layout::transposed_reversed},
};

struct binary_case {
  jet::shape lhs;
  layout lhs_layout;
  jet::shape rhs;
  layout rhs_layout;
};
const binary_case binary_cases[] = {
    {{0}, layout::contiguous, {0}, layout::contiguous},
    {{1}, layout::contiguous, {1}, layout::contiguous},
    {{31}, layout::contiguous, {31}, layout::contiguous},
    {{1023}, layout::contiguous, {1023}, layout::contiguous},
    {{100003}, layout::contiguous, {100003}, layout::contiguous},
    {{4, 0}, layout::contiguous, {1}, layout::contiguous},
    {{7, 1}, layout::contiguous, {5}, layout::reversed},
    {{29, 37}, layout::transposed_reversed, {}, layout::contiguous},
    {{9, 32}, layout::row_padded, {9, 1}, layout::contiguous},
};

template <unsigned Loops, class Ref>
void check_unary(const unary_op<Loops, Ref>& op) {
  for (jet::dtype t : all_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      if constexpr ((Loops & kind_of<T>()) != 0) {
        using R = result_t<T, decltype(op.reference(widen(T{})))>;
        for (std::uint32_t k = 0; k < std::size(unary_cases); ++k) {
          const unary_case& c = unary_cases[k];
          INFO(op.name << "(" << jet::name(t) << "), shape " << jet::to_string(c.shape) << ", "
                       << name(c.how));
          guarded([&] {
            std::mt19937 rng = seeded(op.name, t, k);
            const operand<T> x = make_operand<T>(rng, c.shape, c.how, op.inputs);
            check_expression<R>(op.apply(x.device), reference<R>(c.shape, op.reference, x));
          });
        }
      }
    });
  }
}

template <unsigned Loops, class Ref>
void check_binary(const binary_op<Loops, Ref>& op) {
  for (jet::dtype t : all_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      if constexpr ((Loops & kind_of<T>()) != 0) {
        using R = result_t<T, decltype(op.reference(widen(T{}), widen(T{})))>;
        for (std::uint32_t k = 0; k < std::size(binary_cases); ++k) {
          const binary_case& c = binary_cases[k];
          INFO(op.name << "(" << jet::name(t) << "): " << jet::to_string(c.lhs) << " "
                       << name(c.lhs_layout) << " with " << jet::to_string(c.rhs) << " "
                       << name(c.rhs_layout));
          guarded([&] {
            std::mt19937 rng = seeded(op.name, t, k);
            const operand<T> a = make_operand<T>(rng, c.lhs, c.lhs_layout, op.lhs);
            const operand<T> b = make_operand<T>(rng, c.rhs, c.rhs_layout, op.rhs);
            const jet::expr e = op.apply(a.device, b.device);
            CHECK(jet::to_string(e.shape()) == jet::to_string(broadcast(c.lhs, c.rhs)));
            check_expression<R>(e, reference<R>(broadcast(c.lhs, c.rhs), op.reference, a, b));
          });
        }
      }
    });
  }
}

// Ops with no loop at or above an operand's kind (B < I < F < C) cannot take it.
template <unsigned Loops, class Ref>
void check_unary_refuses(const unary_op<Loops, Ref>& op) {
  for (jet::dtype t : all_dtypes) {
    if (Loops >= kind_bit(t)) continue;
    INFO(op.name << "(" << jet::name(t) << ")");
    REQUIRE_THROWS_AS(op.apply(jet::placeholder({3}, t)), jet::dtype_error);
  }
}

template <unsigned Loops, class Ref>
void check_binary_refuses(const binary_op<Loops, Ref>& op) {
  for (jet::dtype t : all_dtypes) {
    if (Loops >= kind_bit(t)) continue;
    INFO(op.name << "(" << jet::name(t) << ", " << jet::name(t) << ")");
    REQUIRE_THROWS_AS(op.apply(jet::placeholder({3}, t), jet::placeholder({3}, t)),
                      jet::dtype_error);
  }
}

}  // namespace

TEST_CASE("unary ufuncs match the host reference over every dtype and layout",
          "[gpu][elementwise][unary]") {
  std::apply([](const auto&... op) { (check_unary(op), ...); }, unary_ops());
}

TEST_CASE("binary ufuncs match the host reference over every dtype, broadcast and layout",
          "[gpu][elementwise][binary]") {
  std::apply([](const auto&... op) { (check_binary(op), ...); }, binary_ops());
}

TEST_CASE("ufuncs refuse dtypes they have no loop for with jet::dtype_error",
          "[gpu][elementwise][errors]") {
  std::apply([](const auto&... op) { (check_unary_refuses(op), ...); }, unary_ops());
  std::apply([](const auto&... op) { (check_binary_refuses(op), ...); }, binary_ops());
  REQUIRE_THROWS_WITH(jet::invert(jet::placeholder({3}, jet::float32)),
                      "ufunc 'invert' not supported for the input types (float32)");
  REQUIRE_THROWS_AS(-jet::placeholder({3}, jet::bool_), jet::dtype_error);
  REQUIRE_THROWS_AS(jet::placeholder({3}, jet::bool_) - jet::placeholder({3}, jet::bool_),
                    jet::dtype_error);
}

namespace {

const std::vector<jet::dtype> signed_ints{jet::int8, jet::int16, jet::int32, jet::int64};
const std::vector<jet::dtype> unsigned_ints{jet::uint8, jet::uint16, jet::uint32, jet::uint64};
const std::vector<jet::dtype> all_ints{jet::int8,  jet::int16,  jet::int32,  jet::int64,
                                       jet::uint8, jet::uint16, jet::uint32, jet::uint64};
const std::vector<jet::dtype> floats{jet::float16, jet::bfloat16, jet::float32, jet::float64};

// One NumPy rule, shown on chosen values: want = op(a, b) elementwise, for each dtype.
struct exact_case {
  std::string_view what;
  binary_fn op;
  std::vector<jet::dtype> dtypes;
  std::vector<double> a, b, want;
  std::optional<jet::dtype> result = std::nullopt;  // when not the operands' dtype
};

const double int64_min = -9223372036854775808.0;

// clang-format off
const exact_case exact_cases[] = {
    {"integer // rounds toward minus infinity", jet::floor_divide, signed_ints,
     {-7, 7, -7, 7, 0, 6, -1}, {2, -2, -2, 2, 3, -3, 5}, {-4, -4, 3, 3, 0, -2, -1}},
    {"unsigned // and % truncate", jet::floor_divide, unsigned_ints,
     {7, 6, 200}, {2, 3, 7}, {3, 2, 28}},
    {"unsigned // and % truncate", jet::remainder, unsigned_ints,
     {7, 6, 200}, {2, 3, 7}, {1, 0, 4}},
    {"integer division by zero gives 0", jet::floor_divide, all_ints,
     {5, 0, 1}, {0, 0, 0}, {0, 0, 0}},
    {"integer % by zero gives 0", jet::remainder, all_ints,
     {5, 0}, {0, 0}, {0, 0}},
    {"the smallest integer // -1 wraps to itself", jet::floor_divide, {jet::int8},
     {-128, -128}, {-1, 1}, {-128, -128}},
    {"the smallest integer // -1 wraps to itself", jet::floor_divide, {jet::int64},
     {int64_min}, {-1}, {int64_min}},
    {"integer % takes the divisor's sign", jet::remainder, signed_ints,
     {-7, 7, -7, 7, -6, -128}, {3, -3, -3, 3, 3, -1}, {2, -2, -1, 1, 0, 0}},
    {"integer fmod takes the dividend's sign", jet::fmod, signed_ints,
     {-7, 7, -7, 5}, {3, -3, -3, 0}, {-1, 1, -1, 0}},
    {"float // rounds toward minus infinity", jet::floor_divide, floats,
     {-7.5, 7.5, 7, -7, 1, -1, 0}, {2, -2, 2, 2, 0, 0, 0}, {-4, -4, 3, -4, inf, -inf, nan}},
    {"float % takes the divisor's sign", jet::remainder, floats,
     {-7, 7, -7.5, 7.5, 6, 1}, {3, -3, 2, -2, -3, 0}, {2, -2, 0.5, -0.5, -0.0, nan}},
    {"float fmod takes the dividend's sign", jet::fmod, floats,
     {-7.5, 7.5, 1}, {2, -2, 0}, {-1.5, 1.5, nan}},
    {"float64 // follows Python: 1 // 0.1 == 9", jet::floor_divide, {jet::float64},
     {1, -1}, {0.1, 0.1}, {9, -10}},
    {"float64 % follows Python", jet::remainder, {jet::float64},
     {1}, {0.1}, {0.09999999999999995}},
    {"maximum propagates NaN", jet::maximum, floats,
     {nan, 1, nan, -inf, 2}, {1, nan, nan, 2, -0.5}, {nan, nan, nan, 2, 2}},
    {"minimum propagates NaN", jet::minimum, floats,
     {nan, 1, nan, -inf, 2}, {1, nan, nan, 2, -0.5}, {nan, nan, nan, -inf, -0.5}},
    {"fmax ignores NaN", jet::fmax, floats,
     {nan, 1, nan, -inf, 2}, {1, nan, nan, 2, -0.5}, {1, 1, nan, 2, 2}},
    {"fmin ignores NaN", jet::fmin, floats,
     {nan, 1, nan, -inf, 2}, {1, nan, nan, 2, -0.5}, {1, 1, nan, -inf, -0.5}},
    {"NaN equals nothing", jet::equal, floats,
     {nan, nan, 1}, {nan, 1, 1}, {0, 0, 1}, jet::bool_},
    {"NaN differs from everything", jet::not_equal, floats,
     {nan, nan, 1}, {nan, 1, 1}, {1, 1, 0}, jet::bool_},
    {"NaN is not ordered", jet::less, floats,
     {nan, 1, 1}, {1, nan, 2}, {0, 0, 1}, jet::bool_},
    {"NaN is not ordered", jet::greater_equal, floats,
     {nan, 1, 2}, {1, nan, 2}, {0, 0, 1}, jet::bool_},
    {"true division of integers gives float64", jet::true_divide, signed_ints,
     {7, -7, 1, -1, 0}, {2, 2, 0, 0, 0}, {3.5, -3.5, inf, -inf, nan}, jet::float64},
    {"true division of integers gives float64", jet::true_divide, unsigned_ints,
     {7, 1, 0}, {2, 0, 0}, {3.5, inf, nan}, jet::float64},
    {"true division of bools gives float64", jet::true_divide, {jet::bool_},
     {1, 1, 0}, {1, 0, 0}, {1, inf, nan}, jet::float64},
    {"left shift by the bit width or more gives 0", jet::left_shift, {jet::int8},
     {1, 1, 1, 3, 5, -1}, {7, 8, 100, 1, -1, 3}, {-128, 0, 0, 6, 0, -8}},
    {"left shift by the bit width or more gives 0", jet::left_shift, {jet::int32},
     {1, 1, 1}, {31, 32, 33}, {-2147483648.0, 0, 0}},
    {"left shift by the bit width or more gives 0", jet::left_shift, {jet::int64},
     {1, 1, 3}, {63, 64, 65}, {int64_min, 0, 0}},
    {"left shift by the bit width or more gives 0", jet::left_shift, {jet::uint8},
     {1, 255, 1}, {7, 1, 8}, {128, 254, 0}},
    {"left shift by the bit width or more gives 0", jet::left_shift, {jet::uint64},
     {1, 1}, {63, 64}, {9223372036854775808.0, 0}},
    {"right shift by the bit width or more fills with the sign", jet::right_shift, {jet::int8},
     {-128, 64, -1, -7, 127, -128}, {8, 8, 100, 1, 7, 7}, {-1, 0, -1, -4, 0, -1}},
    {"right shift by the bit width or more fills with the sign", jet::right_shift, {jet::int32},
     {-5, 5, -2147483648.0}, {32, 32, 31}, {-1, 0, -1}},
    {"right shift by the bit width or more fills with the sign", jet::right_shift, {jet::int64},
     {-1, 1, int64_min}, {64, 64, 63}, {-1, 0, -1}},
    {"right shift by the bit width or more fills with the sign", jet::right_shift, {jet::uint8},
     {255, 128, 255}, {8, 7, 100}, {0, 1, 0}},
    {"integer power wraps", jet::power, {jet::int8},
     {2, -3, 0, 2, 3}, {7, 3, 0, 0, 5}, {-128, -27, 1, 1, -13}},
    {"integer power wraps", jet::power, {jet::int64},
     {2, 10, -1}, {62, 3, 7}, {4611686018427387904.0, 1000, -1}},
};
// clang-format on

// "" when two arrays hold the same dtype and elements (NaN matching NaN).
std::string same_elements(const jet::array& got, const jet::array& want) {
  std::string m;
  visit_dtype(want.dtype(), [&]<class R>(type_tag<R>) {
    const host_values<R> w = download<R>(want);
    std::vector<wide_t<R>> values;
    for (std::int64_t i = 0; i < w.size(); ++i) values.push_back(widen(w[i]));
    m = mismatch<R>(got, values);
  });
  return m;
}

std::vector<cdouble> map_values(const std::vector<cdouble>& values, cdouble (*f)(cdouble)) {
  std::vector<cdouble> out;
  for (const cdouble& v : values) out.push_back(f(v));
  return out;
}

}  // namespace

TEST_CASE("NumPy's division, modulo, shift, NaN and true-division rules hold exactly",
          "[gpu][elementwise][semantics]") {
  for (const exact_case& c : exact_cases) {
    for (jet::dtype t : c.dtypes) {
      INFO(c.what << " (" << jet::name(t) << ")");
      guarded([&] {
        const jet::shape s{static_cast<std::int64_t>(c.a.size())};
        const sample a = sample_of(t, s, c.a), b = sample_of(t, s, c.b);
        const jet::expr e = c.op(a.device, b.device);
        CHECK(jet::name(e.dtype()) == jet::name(c.result.value_or(t)));
        check_expression_any(e, std::vector<cdouble>(c.want.begin(), c.want.end()));
      });
    }
  }
}

TEST_CASE("real, imag, conj, angle and absolute take complex numbers apart",
          "[gpu][elementwise][complex]") {
  const std::vector<cdouble> z{{3, 4}, {-1, 0}, {0, -2}, {-2.5, 1}, {0, 0}};
  for (jet::dtype t : {jet::complex64, jet::complex128}) {
    INFO(jet::name(t));
    const jet::dtype real_type = t == jet::complex64 ? jet::float32 : jet::float64;
    const jet::array x = t == jet::complex64 ? jet::asarray(std::vector<std::complex<float>>{
                                                   {3, 4}, {-1, 0}, {0, -2}, {-2.5f, 1}, {0, 0}})
                                             : jet::asarray(z);
    CHECK(jet::real(x).dtype() == real_type);
    check_expression_any(jet::real(x), {3, -1, 0, -2.5, 0});
    check_expression_any(jet::imag(x), {4, 0, -2, 1, 0});
    check_expression_any(jet::conj(x), {{3, -4}, {-1, 0}, {0, 2}, {-2.5, -1}, {0, 0}});
    check_expression_any(jet::angle(x), {std::atan2(4.0, 3.0), std::numbers::pi,
                                         -std::numbers::pi / 2, std::atan2(1.0, -2.5), 0});
    check_expression_any(jet::absolute(x), {5, 1, 2, std::hypot(2.5, 1.0), 0});
  }
}

TEST_CASE("operators and aliases build the same ufuncs as the named functions",
          "[gpu][elementwise][operators]") {
  std::mt19937 rng = seeded("operators", jet::int32);
  const jet::array a =
      random_operand<std::int32_t>(rng, {257}, {.integers = int_range{-50, 50}}).device;
  const jet::array b =
      random_operand<std::int32_t>(rng, {257}, {.integers = int_range{0, 9}}).device;
  const jet::array z = random_operand<std::complex<double>>(rng, {257}).device;
  const struct {
    std::string_view what;
    jet::expr got, want;
  } pairs[] = {
      {"a + b", a + b, jet::add(a, b)},
      {"a - b", a - b, jet::subtract(a, b)},
      {"a * b", a * b, jet::multiply(a, b)},
      {"a / b", a / b, jet::true_divide(a, b)},
      {"a % b", a % b, jet::remainder(a, b)},
      {"a & b", a & b, jet::bitwise_and(a, b)},
      {"a | b", a | b, jet::bitwise_or(a, b)},
      {"a ^ b", a ^ b, jet::bitwise_xor(a, b)},
      {"a << b", a << b, jet::left_shift(a, b)},
      {"a >> b", a >> b, jet::right_shift(a, b)},
      {"a == b", a == b, jet::equal(a, b)},
      {"a != b", a != b, jet::not_equal(a, b)},
      {"a < b", a < b, jet::less(a, b)},
      {"a <= b", a <= b, jet::less_equal(a, b)},
      {"a > b", a > b, jet::greater(a, b)},
      {"a >= b", a >= b, jet::greater_equal(a, b)},
      {"a && b", a && b, jet::logical_and(a, b)},
      {"a || b", a || b, jet::logical_or(a, b)},
      {"-a", -a, jet::negative(a)},
      {"+a", +a, jet::positive(a)},
      {"~a", ~a, jet::invert(a)},
      {"!a", !a, jet::logical_not(a)},
      {"3 - a", 3 - a, jet::subtract(3, a)},
      {"a * 2", a * 2, jet::multiply(a, 2)},
      {"abs", jet::abs(a), jet::absolute(a)},
      {"divide", jet::divide(a, b), jet::true_divide(a, b)},
      {"mod", jet::mod(a, b), jet::remainder(a, b)},
      {"conjugate", jet::conjugate(z), jet::conj(z)},
  };
  for (const auto& p : pairs) {
    INFO(p.what);
    CHECK(p.got.dtype() == p.want.dtype());
    CHECK(jet::to_string(p.got.shape()) == jet::to_string(p.want.shape()));
    const std::string m = same_elements(jet::array(p.got), jet::array(p.want));
    INFO(m);
    CHECK(m.empty());
  }
}

TEST_CASE("mixed dtypes promote as NumPy's and compute in the promoted dtype",
          "[gpu][elementwise][promotion]") {
  const struct {
    jet::dtype a, b, result;
  } cases[] = {
      {jet::int8, jet::uint8, jet::int16},
      {jet::int16, jet::uint32, jet::int64},
      {jet::int64, jet::uint64, jet::float64},
      {jet::uint8, jet::float16, jet::float16},
      {jet::int16, jet::float16, jet::float32},
      {jet::int32, jet::float32, jet::float64},
      {jet::float16, jet::bfloat16, jet::float32},
      {jet::float32, jet::float64, jet::float64},
      {jet::float32, jet::complex64, jet::complex64},
      {jet::float64, jet::complex64, jet::complex128},
      {jet::bool_, jet::int8, jet::int8},
      {jet::bool_, jet::float16, jet::float16},
      {jet::uint64, jet::complex64, jet::complex128},
      {jet::bfloat16, jet::complex64, jet::complex64},
  };
  const domain small{.lo = 0, .hi = 6, .integral = true, .integers = int_range{0, 6}};
  for (const auto& c : cases) {
    INFO(jet::name(c.a) << " + " << jet::name(c.b));
    guarded([&] {
      std::mt19937 rng = seeded("promotion", c.a, static_cast<std::uint32_t>(c.b));
      const sample a = random_sample(rng, c.a, {7, 1}, small),
                   b = random_sample(rng, c.b, {5}, small);
      const jet::expr e = a.device + b.device;
      CHECK(jet::name(e.dtype()) == jet::name(c.result));
      std::vector<cdouble> want;
      for (std::size_t i = 0; i < 7; ++i)
        for (std::size_t j = 0; j < 5; ++j) want.push_back(a.values[i] + b.values[j]);
      check_expression_any(e, want);
    });
  }
  SECTION("a ufunc without an integer loop takes the smallest float that holds the integers") {
    const struct {
      jet::dtype in, result;
    } unary[] = {{jet::bool_, jet::float16}, {jet::int8, jet::float16},
                 {jet::uint8, jet::float16}, {jet::int16, jet::float32},
                 {jet::int32, jet::float64}, {jet::uint64, jet::float64}};
    // conjugate has no bool loop in NumPy: bool takes its int8 loop.
    CHECK(jet::conj(jet::asarray({true, false})).dtype() == jet::int8);
    check_expression_any(jet::conj(jet::asarray({true, false})), {1, 0});
    for (const auto& c : unary) {
      INFO("sqrt(" << jet::name(c.in) << ")");
      std::mt19937 rng = seeded("sqrt promotion", c.in);
      const sample x = random_sample(rng, c.in, {100}, small);
      const jet::expr e = jet::sqrt(x.device);
      CHECK(jet::name(e.dtype()) == jet::name(c.result));
      check_expression_any(
          e, map_values(x.values, [](cdouble v) { return cdouble(std::sqrt(v.real())); }));
    }
  }
  SECTION("0-d arrays are strong: they take part in promotion") {
    const jet::array a = jet::asarray(std::vector<std::int8_t>{1, -2, 3});
    const jet::expr e = a + jet::full(jet::shape{}, std::int64_t{1000});
    CHECK(e.dtype() == jet::int64);
    check_expression_any(e, {1001, 998, 1003});
  }
}

TEST_CASE("C++ scalars are weak, like Python scalars under NEP 50", "[gpu][elementwise][weak]") {
  using cf = cdouble (*)(cdouble);
  const struct {
    std::string_view what;
    jet::dtype in;
    jet::expr (*build)(const jet::array&);
    jet::dtype result;
    cf want;
  } cases[] = {
      {"float32 * 2.0 stays float32", jet::float32, [](const jet::array& a) { return a * 2.0; },
       jet::float32, [](cdouble x) { return x * 2.0; }},
      {"float16 + 1.5 stays float16", jet::float16, [](const jet::array& a) { return a + 1.5; },
       jet::float16, [](cdouble x) { return x + 1.5; }},
      {"bfloat16 * 3 stays bfloat16", jet::bfloat16, [](const jet::array& a) { return a * 3; },
       jet::bfloat16, [](cdouble x) { return x * 3.0; }},
      {"int8 + 100 stays int8 and wraps", jet::int8, [](const jet::array& a) { return a + 100; },
       jet::int8,
       [](cdouble x) {
         return cdouble(static_cast<std::int8_t>(static_cast<int>(x.real()) + 100));
       }},
      {"uint8 + 255 stays uint8 and wraps", jet::uint8, [](const jet::array& a) { return a + 255; },
       jet::uint8,
       [](cdouble x) {
         return cdouble(static_cast<std::uint8_t>(static_cast<int>(x.real()) + 255));
       }},
      {"int16 + true stays int16", jet::int16, [](const jet::array& a) { return a + true; },
       jet::int16, [](cdouble x) { return x + 1.0; }},
      {"uint64 + UINT64_MAX stays uint64 and wraps", jet::uint64,
       [](const jet::array& a) { return a + std::numeric_limits<std::uint64_t>::max(); },
       jet::uint64, [](cdouble x) { return x - 1.0; }},
      {"int32 * 2.5 gives float64", jet::int32, [](const jet::array& a) { return a * 2.5; },
       jet::float64, [](cdouble x) { return x * 2.5; }},
      {"bool + 1 gives int64", jet::bool_, [](const jet::array& a) { return a + 1; }, jet::int64,
       [](cdouble x) { return x + 1.0; }},
      {"float32 + complex<float> gives complex64", jet::float32,
       [](const jet::array& a) { return a + std::complex<float>(1, -2); }, jet::complex64,
       [](cdouble x) { return x + cdouble(1, -2); }},
      {"float16 * complex<double> gives complex64", jet::float16,
       [](const jet::array& a) { return a * std::complex<double>(0.5, 1); }, jet::complex64,
       [](cdouble x) { return x * cdouble(0.5, 1); }},
      {"float64 * complex<double> gives complex128", jet::float64,
       [](const jet::array& a) { return a * std::complex<double>(0.5, -1); }, jet::complex128,
       [](cdouble x) { return x * cdouble(0.5, -1); }},
      {"int8 < 1000 compares in a type that holds 1000", jet::int8,
       [](const jet::array& a) { return a < 1000; }, jet::bool_,
       [](cdouble) { return cdouble(1); }},
      {"uint8 > -1 compares in a type that holds -1", jet::uint8,
       [](const jet::array& a) { return a > -1; }, jet::bool_, [](cdouble) { return cdouble(1); }},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    guarded([&] {
      std::mt19937 rng = seeded(c.what, c.in);
      const sample x = random_sample(rng, c.in, {333}, {.integers = int_range{1, 100}});
      const jet::expr e = c.build(x.device);
      CHECK(jet::name(e.dtype()) == jet::name(c.result));
      check_expression_any(e, map_values(x.values, c.want));
    });
  }
  SECTION("an integer scalar the array's dtype cannot hold raises jet::value_error") {
    const jet::array i8 = jet::asarray(std::vector<std::int8_t>{1, 2, 3});
    const jet::array u8 = jet::asarray(std::vector<std::uint8_t>{1, 2, 3});
    REQUIRE_THROWS_AS(i8 + 1000, jet::value_error);
    REQUIRE_THROWS_WITH(i8 + 1000, "Python integer 1000 out of bounds for int8");
    REQUIRE_THROWS_WITH(u8 + (-1), "Python integer -1 out of bounds for uint8");
    REQUIRE_THROWS_AS(jet::asarray(std::vector<std::int16_t>{1}) * 70000, jet::value_error);
  }
}

TEST_CASE("where picks elementwise with broadcasting for every dtype",
          "[gpu][elementwise][where]") {
  for (jet::dtype t : all_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      INFO("where over " << jet::name(t));
      guarded([&] {
        std::mt19937 rng = seeded("where", t);
        const auto cond = make_operand<bool>(rng, {7, 1}, layout::contiguous);
        const auto a = make_operand<T>(rng, {1, 5}, layout::reversed);
        const auto b = make_operand<T>(rng, {}, layout::contiguous);
        check_expression<T>(
            jet::where(cond.device, a.device, b.device),
            reference<T>(
                {7, 5}, [](bool c, auto x, auto y) { return c ? x : y; }, cond, a, b));
        // A condition of another dtype means "nonzero".
        const auto nonzero = make_operand<T>(rng, {7, 5}, layout::contiguous, small_integers);
        check_expression<T>(
            jet::where(nonzero.device, a.device, b.device),
            reference<T>(
                {7, 5}, [](auto c, auto x, auto y) { return ref::truth(c) ? x : y; }, nonzero, a,
                b));
      });
    });
  }
  SECTION("the two choices promote together") {
    const jet::array cond = jet::asarray({true, false, true});
    const jet::array i8 = jet::asarray(std::vector<std::int8_t>{1, 2, 3});
    const jet::array f32 = jet::asarray(std::vector<float>{0.5f, 1.5f, 2.5f});
    const jet::array flags = jet::asarray({false, true, true});
    CHECK(jet::where(cond, i8, f32).dtype() == jet::float32);
    check_expression_any(jet::where(cond, i8, f32), {1, 1.5, 3});
    CHECK(jet::where(cond, f32, 2).dtype() == jet::float32);
    check_expression_any(jet::where(cond, f32, 2), {0.5, 2, 2.5});
    CHECK(jet::where(cond, flags, 0).dtype() == jet::int64);
    check_expression_any(jet::where(cond, flags, 0), {0, 0, 1});
  }
}

TEST_CASE("clip bounds every real dtype and propagates NaN", "[gpu][elementwise][clip]") {
  for (jet::dtype t : all_dtypes) {
    if (t == jet::bool_ || jet::is_complex(t)) continue;
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      INFO("clip over " << jet::name(t));
      guarded([&] {
        std::mt19937 rng = seeded("clip", t);
        const auto x = make_operand<T>(rng, {1023}, layout::every_other_reversed, with_specials);
        using W = wide_t<T>;
        const W lo = is_integer_v<T> ? W(3) : W(-0.5), hi = is_integer_v<T> ? W(100) : W(1.25);
        const auto clipped = [lo, hi](W v) { return ref::minimum(ref::maximum(v, lo), hi); };
        if constexpr (is_integer_v<T>)
          check_expression<T>(jet::clip(x.device, 3, 100), reference<T>({1023}, clipped, x));
        else
          check_expression<T>(jet::clip(x.device, -0.5, 1.25), reference<T>({1023}, clipped, x));
        // Array bounds broadcast like any operand.
        const auto lows = make_operand<T>(rng, {1023}, layout::contiguous);
        const auto highs = make_operand<T>(rng, {}, layout::contiguous);
        check_expression<T>(
            jet::clip(x.device, lows.device, highs.device),
            reference<T>(
                {1023}, [](W v, W l, W h) { return ref::minimum(ref::maximum(v, l), h); }, x, lows,
                highs));
      });
    });
  }
}

TEST_CASE("round is half to even at any number of decimals", "[gpu][elementwise][round]") {
  for (jet::dtype t : {jet::float16, jet::bfloat16, jet::float32, jet::float64}) {
    INFO("round over " << jet::name(t));
    const sample halves = sample_of(t, {8}, {0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 3.5, 4.4});
    check_expression_any(jet::round(halves.device), {0, 2, 2, -0.0, -2, -2, 4, 4});
  }
  for (jet::dtype t : {jet::float32, jet::float64}) {
    INFO("round with decimals over " << jet::name(t));
    const sample cents = sample_of(t, {4}, {0.125, 0.375, -0.125, 1.005});
    check_expression_any(jet::round(cents.device, 2), {0.12, 0.38, -0.12, 1});
    const sample hundreds = sample_of(t, {5}, {1250, 1350, -1250, 149, 50});
    check_expression_any(jet::round(hundreds.device, -2), {1200, 1400, -1200, 100, 0});
  }
  SECTION("random float64 values at 3 decimals") {
    std::mt19937 rng = seeded("round", jet::float64);
    const auto x = make_operand<double>(rng, {4097}, layout::reversed, {.lo = -100, .hi = 100});
    check_expression<double>(
        jet::round(x.device, 3),
        reference<double>(
            {4097}, [](double v) { return std::nearbyint(v * 1000) / 1000; }, x));
  }
  SECTION("integers are returned unchanged, complex numbers round by parts") {
    const jet::array i = jet::asarray(std::vector<std::int32_t>{-7, 0, 12345});
    CHECK(jet::round(i).dtype() == jet::int32);
    check_expression_any(jet::round(i), {-7, 0, 12345});
    check_expression_any(jet::round(i, 2), {-7, 0, 12345});
    const jet::array z = jet::asarray(std::vector<cdouble>{{2.5, -3.5}, {0.5, 1.5}});
    check_expression_any(jet::round(z), {{2, -4}, {0, 2}});
  }
}

namespace {

// What a C cast (NumPy's astype) makes of x: bool is "nonzero", complex to real keeps the
// real part, floating to integer truncates, integer to integer wraps.
template <class To, class From>
wide_t<To> converted(From x) {
  const auto w = widen(x);
  if constexpr (std::is_same_v<To, bool>)
    return ref::truth(w);
  else if constexpr (is_complex_v<To> && is_complex_v<From>)
    return w;
  else if constexpr (is_complex_v<To>)
    return cdouble(static_cast<double>(w), 0.0);
  else if constexpr (is_integer_v<To>)
    return static_cast<To>(ref::real(w));
  else
    return static_cast<double>(ref::real(w));
}

// Values every conversion from From to To defines: floating values in range of To's integers.
template <class From, class To>
domain conversion_domain() {
  if constexpr (is_integer_v<From> || std::is_same_v<From, bool>)
    return {};
  else if constexpr (std::is_unsigned_v<To> && !std::is_same_v<To, bool>)
    return {.lo = 0, .hi = 200};
  else if constexpr (is_integer_v<To>)
    return {.lo = -100, .hi = 100};
  else
    return {.lo = -100, .hi = 100, .specials = true};
}

}  // namespace

TEST_CASE("astype converts between every pair of dtypes like a C cast",
          "[gpu][elementwise][astype]") {
  for (jet::dtype from : all_dtypes) {
    for (jet::dtype to : all_dtypes) {
      INFO(jet::name(from) << " -> " << jet::name(to));
      visit_dtype(from, [&]<class From>(type_tag<From>) {
        visit_dtype(to, [&]<class To>(type_tag<To>) {
          guarded([&] {
            std::mt19937 rng = seeded("astype", from, static_cast<std::uint32_t>(to));
            const auto x =
                make_operand<From>(rng, {1023}, layout::contiguous, conversion_domain<From, To>());
            const std::vector<wide_t<To>> want = reference<To>(
                {1023}, [](auto v) { return converted<To>(v); }, x);
            check_expression<To>(jet::astype(x.device, to), want);
            const jet::array copy = x.device.astype(to);
            CHECK(!copy.shares_buffer_with(x.device));
            check_close<To>(copy, want);
          });
        });
      });
    }
  }
}

namespace {

// A sum over operands as a balanced tree, so that no subtree is much deeper than another.
jet::expr tree_sum(std::span<const jet::array> xs) {
  if (xs.size() == 1) return xs[0];
  const std::size_t half = xs.size() / 2;
  return tree_sum(xs.first(half)) + tree_sum(xs.subspan(half));
}

}  // namespace

TEST_CASE("fused expressions over many operands, dtypes and views match the host",
          "[gpu][elementwise][fused]") {
  std::mt19937 rng = seeded("fused", jet::float64);
  SECTION("broadcasting, promotion, casts and a reused subexpression in one kernel") {
    const auto x = make_operand<float>(rng, {37, 1}, layout::contiguous);
    const auto y = make_operand<double>(rng, {29}, layout::every_other_reversed);
    const auto k = make_operand<std::int16_t>(rng, {37, 29}, layout::transposed_reversed,
                                              {.integers = int_range{-1000, 1000}});
    const jet::expr s = x.device * y.device;  // float64, read twice below
    const jet::expr e =
        jet::where(s > 0, jet::sqrt(s), s * s) + (k.device + 1) / 3 - jet::astype(s, jet::int8);
    CHECK(e.dtype() == jet::float64);
    check_expression<double>(e, reference<double>(
                                    {37, 29},
                                    [](double xv, double yv, std::int16_t kv) {
                                      const double sv = xv * yv;
                                      return (sv > 0 ? std::sqrt(sv) : sv * sv) + (kv + 1) / 3.0 -
                                             static_cast<std::int8_t>(sv);
                                    },
                                    x, y, k));
  }
  SECTION("one array read through several views at once") {
    const auto m = make_operand<float>(rng, {64, 64}, layout::contiguous);
    const auto mt = operand<float>{m.device.T(), gather(m.values, {64, 64}, {1, 64}, 0)};
    const auto mr = operand<float>{m.device(jet::slice(jet::none, jet::none, -1)),
                                   gather(m.values, {64, 64}, {-64, 1}, 63 * 64)};
    check_expression<float>(
        m.device * 2 + mt.device - mr.device,
        reference<float>(
            {64, 64}, [](double a, double b, double c) { return a * 2 + b - c; }, m, mt, mr));
  }
  SECTION("more operands than one kernel's parameter block holds") {
    std::vector<jet::array> xs;
    std::vector<cdouble> want(17, 0.0);
    for (int i = 0; i < 530; ++i) {
      const sample s =
          random_sample(rng, jet::float64, {17}, small_integers);  // exact sums in any order
      xs.push_back(s.device);
      for (std::size_t j = 0; j < want.size(); ++j) want[j] += s.values[j];
    }
    check_expression_any(tree_sum(xs), want);
  }
}

TEST_CASE("a fused expression over more than 2^31 elements is right up to the last element",
          "[gpu][elementwise][large]") {
  const std::int64_t n = (std::int64_t{1} << 31) + 5;
  host_values<std::uint8_t> host(n);
  std::uint64_t state = 0x243f6a8885a308d3ull;
  for (std::int64_t i = 0; i < n; i += 8) {  // splitmix64: fast enough for 2 GiB
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    std::memcpy(&host[i], &z, static_cast<std::size_t>(std::min<std::int64_t>(8, n - i)));
  }
  const jet::array a = upload(host, {n});

  // Both ends, the positions around 2^31 where 32-bit indexing would wrap, and random ones.
  const std::int64_t windows[][2] = {{0, 4096}, {(std::int64_t{1} << 31) - 4096, n}};
  std::vector<std::int64_t> scattered;
  std::mt19937_64 rng(2031);
  for (int i = 0; i < 3000; ++i)
    scattered.push_back(std::uniform_int_distribution<std::int64_t>(0, n - 1)(rng));
  auto check_positions = [&](const jet::array& out, auto want) {
    std::string m;
    for (const auto& w : windows) {
      const host_values<std::uint8_t> got = download<std::uint8_t>(out(jet::slice(w[0], w[1])));
      for (std::int64_t i = w[0]; i < w[1] && m.empty(); ++i)
        if (got[i - w[0]] != want(i))
          m = "element " + std::to_string(i) + ": got " + show(got[i - w[0]]) + ", want " +
              show(want(i));
    }
    for (std::int64_t i : scattered)
      if (m.empty() && out(i).item<std::uint8_t>() != want(i))
        m = "element " + std::to_string(i) + ": got " + show(out(i).item<std::uint8_t>()) +
            ", want " + show(want(i));
    INFO(m);
    CHECK(m.empty());
  };
  {
    jet::array out = jet::full({n}, 7, jet::uint8);
    std::move(out) = a + 1;
    check_positions(out, [&](std::int64_t i) { return static_cast<std::uint8_t>(host[i] + 1); });
  }
  {
    jet::array out = jet::full({n}, 7, jet::uint8);
    std::move(out) = a(jet::slice(jet::none, jet::none, -1)) ^ 0x5a;
    check_positions(
        out, [&](std::int64_t i) { return static_cast<std::uint8_t>(host[n - 1 - i] ^ 0x5a); });
  }
}

namespace {

// One round of a thread's work: its own inputs, one evaluation, the comparison. Threads t and
// t + 4 run the same kind of expression, so that they build and look up the same kernels.
std::string thread_round(int kind, std::mt19937& rng, std::int64_t n) {
  const jet::shape s{n};
  switch (kind) {
    case 0: {
      const auto a = random_operand<float>(rng, s), b = random_operand<float>(rng, s);
      const jet::array out = jet::sin(a.device) * b.device + 1.5;
      return mismatch<float>(
          out, reference<float>(
                   s, [](double x, double y) { return std::sin(x) * y + 1.5; }, a, b));
    }
    case 1: {
      const auto a = random_operand<std::int32_t>(rng, s), b = random_operand<std::int32_t>(rng, s);
      const jet::array out = (a.device * 3 + b.device) % 7;
      return mismatch<std::int32_t>(out, reference<std::int32_t>(
                                             s,
                                             [](std::int32_t x, std::int32_t y) {
                                               return ref::remainder(
                                                   ref::add(ref::multiply(x, 3), y), 7);
                                             },
                                             a, b));
    }
    case 2: {
      const auto a = random_operand<double>(rng, s), b = random_operand<double>(rng, s);
      const jet::array out =
          jet::where(a.device > b.device, a.device - b.device, jet::sqrt(jet::abs(b.device)));
      return mismatch<double>(
          out,
          reference<double>(
              s, [](double x, double y) { return x > y ? x - y : std::sqrt(std::abs(y)); }, a, b));
    }
    default: {
      const auto a = random_operand<std::complex<float>>(rng, s),
                 b = random_operand<std::complex<float>>(rng, s);
      const jet::array out = a.device * jet::conj(b.device);
      return mismatch<std::complex<float>>(
          out, reference<std::complex<float>>(
                   s, [](cdouble x, cdouble y) { return x * std::conj(y); }, a, b));
    }
  }
}

}  // namespace

TEST_CASE("threads evaluating different expressions at once get correct results",
          "[gpu][elementwise][threads]") {
  constexpr int thread_count = 8, rounds = 12;
  std::vector<std::string> failures(thread_count);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([t, &failures] {
      try {
        // Odd threads work on a stream of their own, even ones on the default stream.
        std::optional<jet::stream> own;
        std::optional<jet::stream_guard> guard;
        if (t % 2) {
          own.emplace();
          guard.emplace(*own);
        }
        std::mt19937 rng = seeded("threads", jet::float32, static_cast<std::uint32_t>(t));
        for (int r = 0; r < rounds && failures[t].empty(); ++r)
          failures[t] = thread_round(t % 4, rng, 1000 + 4099 * r);
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < thread_count; ++t) {
    INFO("thread " << t << ": " << failures[t]);
    CHECK(failures[t].empty());
  }
}

TEST_CASE("in-place operators and overlapping assignments give NumPy's results",
          "[gpu][elementwise][inplace]") {
  std::mt19937 rng = seeded("inplace", jet::int32);
  SECTION("every compound operator on int32, with a broadcast operand") {
    using int_fn = std::int32_t (*)(std::int32_t, std::int32_t);
    const struct {
      std::string_view what;
      void (*apply)(jet::array&, const jet::array&);
      int_fn want;
    } ops[] = {
        {"+=", [](jet::array& a, const jet::array& b) { a += b; }, ref::add},
        {"-=", [](jet::array& a, const jet::array& b) { a -= b; }, ref::subtract},
        {"*=", [](jet::array& a, const jet::array& b) { a *= b; }, ref::multiply},
        {"%=", [](jet::array& a, const jet::array& b) { a %= b; }, ref::remainder},
        {"&=", [](jet::array& a, const jet::array& b) { a &= b; },
         [](std::int32_t x, std::int32_t y) { return x & y; }},
        {"|=", [](jet::array& a, const jet::array& b) { a |= b; },
         [](std::int32_t x, std::int32_t y) { return x | y; }},
        {"^=", [](jet::array& a, const jet::array& b) { a ^= b; },
         [](std::int32_t x, std::int32_t y) { return x ^ y; }},
        {"<<=", [](jet::array& a, const jet::array& b) { a <<= b; }, ref::left_shift},
        {">>=", [](jet::array& a, const jet::array& b) { a >>= b; }, ref::right_shift},
    };
    for (const auto& op : ops) {
      INFO("a " << op.what << " b");
      operand<std::int32_t> a = make_operand<std::int32_t>(rng, {13, 31}, layout::contiguous);
      const auto b =
          make_operand<std::int32_t>(rng, {31}, layout::reversed, {.integers = int_range{-40, 40}});
      const std::vector<std::int32_t> want = reference<std::int32_t>({13, 31}, op.want, a, b);
      const void* before = a.device.data();
      op.apply(a.device, b.device);
      CHECK(a.device.data() == before);
      check_close<std::int32_t>(a.device, want);
    }
  }
  SECTION("in place into a strided view writes only the view") {
    const auto x = make_operand<double>(rng, {16, 16}, layout::contiguous);
    const auto row = make_operand<double>(rng, {16}, layout::contiguous);
    x.device(jet::slice(jet::none, jet::none, 2)) /= row.device;
    std::vector<double> want;
    for (std::int64_t i = 0; i < 256; ++i)
      want.push_back(i / 16 % 2 ? x.values[i] : x.values[i] / row.values[i % 16]);
    check_close<double>(x.device, want);
  }
  SECTION("a *= 2.5 on an int array raises jet::dtype_error and leaves the array alone") {
    jet::array a = jet::asarray(std::vector<std::int32_t>{1, 2, 3});
    REQUIRE_THROWS_AS(a *= 2.5, jet::dtype_error);
    REQUIRE_THROWS_WITH(
        a *= 2.5,
        "Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('int32') "
        "with casting rule 'same_kind'");
    REQUIRE_THROWS_AS(a /= a, jet::dtype_error);
    check_close<std::int32_t>(a, {1, 2, 3});
  }
  SECTION("overlapping slices assign as if the source were copied first") {
    const operand<std::int32_t> x = make_operand<std::int32_t>(rng, {1023}, layout::contiguous);
    const struct {
      std::string_view what;
      void (*assign)(const jet::array&);
      std::int32_t (*want)(std::int64_t i, const operand<std::int32_t>& x);
    } cases[] = {
        {"a[1:] = a[:-1]",
         [](const jet::array& a) { a(jet::slice(1, jet::none)) = a(jet::slice(0, -1)); },
         [](std::int64_t i, const operand<std::int32_t>& x) {
           return x.values[i == 0 ? 0 : i - 1];
         }},
        {"a[:-1] = a[1:]",
         [](const jet::array& a) { a(jet::slice(0, -1)) = a(jet::slice(1, jet::none)); },
         [](std::int64_t i, const operand<std::int32_t>& x) {
           return x.values[i == 1022 ? 1022 : i + 1];
         }},
        {"a[...] = a[::-1]",
         [](const jet::array& a) { a(jet::ellipsis) = a(jet::slice(jet::none, jet::none, -1)); },
         [](std::int64_t i, const operand<std::int32_t>& x) { return x.values[1022 - i]; }},
        {"a[2:] += a[:-2]",
         [](const jet::array& a) { a(jet::slice(2, jet::none)) += a(jet::slice(0, -2)); },
         [](std::int64_t i, const operand<std::int32_t>& x) {
           return i < 2 ? x.values[i] : ref::add(x.values[i], x.values[i - 2]);
         }},
    };
    for (const auto& c : cases) {
      INFO(c.what);
      const jet::array a = x.device.copy();
      c.assign(a);
      std::vector<std::int32_t> want;
      for (std::int64_t i = 0; i < 1023; ++i) want.push_back(c.want(i, x));
      check_close<std::int32_t>(a, want);
    }
    const operand<double> m0 = make_operand<double>(rng, {31, 31}, layout::contiguous);
    jet::array m = m0.device;
    m += m.T();
    std::vector<double> want;
    for (std::int64_t i = 0; i < 31; ++i)
      for (std::int64_t j = 0; j < 31; ++j)
        want.push_back(m0.values[i * 31 + j] + m0.values[j * 31 + i]);
    INFO("m += m.T");
    check_close<double>(m, want);
  }
}
