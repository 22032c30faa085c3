// NumPy's elementwise semantics on a GPU, case by case: division, modulo, shifts and NaN rules;
// complex parts; operators and aliases; promotion and weak scalars; where, clip and round.
#include <cmath>
#include <complex>
#include <cstdint>
#include <iterator>
#include <limits>
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

constexpr double nan = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

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
