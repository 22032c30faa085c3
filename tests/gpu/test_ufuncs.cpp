// Every ufunc on a GPU over every dtype it has a loop for, on contiguous, broadcast, strided,
// negative-step, zero-size and odd-size operands, against host references in higher precision;
// and the refusals of dtypes a ufunc has no loop for.
#include <cmath>
#include <complex>
#include <cstdint>
#include <iterator>
#include <numbers>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/comparison.hpp"
#include "gpu/numpy_semantics.hpp"
#include "gpu/samples.hpp"

namespace {

using namespace jet_test;

// The host type of a ufunc's result, from its input type T and the reference's return type:
// bool for predicates, the real type for absolute, real, imag and angle of complex numbers.
template <class T, class Ret>
using result_t = std::conditional_t<
    std::is_same_v<Ret, bool> && !std::is_same_v<T, bool>, bool,
    std::conditional_t<is_complex_v<T> && !is_complex_v<Ret>, typename real_of<T>::type, T>>;

unsigned kind_bit(jet::dtype t) {
  switch (jet::kind(t)) {
    case jet::dtype_kind::boolean: return B;
    case jet::dtype_kind::signed_int:
    case jet::dtype_kind::unsigned_int: return I;
    case jet::dtype_kind::floating: return F;
    case jet::dtype_kind::complex: return C;
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
