// The corners where Jet once differed from NumPy 2 (each found by tests/diff/numpy_diff.py),
// against NumPy's own values: float16 rounding at every node, constant operands in vector
// kernels, casts of floats to integers, integers to negative powers, int16 results widened,
// complex functions at infinities (glibc's values), the functions NumPy defines in its own
// terms (angle, real and imag of Python scalars, the logical ufuncs).
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "host/numpy_table.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"
#include "support/ufunc_by_name.hpp"

namespace {

std::vector<double> doubles(const jet::expr& e) {
  return jet::array(e).astype(jet::float64).to_vector<double>();
}

template <class T>
std::vector<T> values(const jet::expr& e) {
  return jet::array(e).to_vector<T>();
}

const double inf = std::numeric_limits<double>::infinity();

}  // namespace

TEST_CASE("float16 results round to float16 at every node, as NumPy's ufuncs do", "[gpu][numpy]") {
  const jet::array k = jet::asarray<std::int8_t>({1, 2, 3, 5, 7, 9});
  const jet::array x = jet::asarray<float>({0.5f, 1, 2, 3, 4, 5}).astype(jet::float16);
  const jet::expr f = jet::fmod(k, jet::radians(x <= x));
  CHECK(f.dtype() == jet::float16);
  CHECK(doubles(f) == std::vector<double>{0.0050048828125, 0.010009765625, 0.0150146484375,
                                          0.007568359375, 0.0001220703125, 0.0101318359375});

  const jet::array h = jet::asarray<float>({0.1f, 1.7f, 33.3f, 250.1f}).astype(jet::float16);
  const jet::array u = jet::asarray<std::uint32_t>({3, 7, 11, 65535});
  CHECK(doubles(jet::square(h) * u) ==
        std::vector<double>{0.0299835205078125, 20.234375, 12210.0, 4099869600.0});

  const jet::array u8 = jet::asarray<std::uint8_t>({0, 1, 10, 11, 12, 100, 255});
  CHECK(doubles(jet::expm1(u8)) ==
        std::vector<double>{0.0, 1.71875, 22032.0, 59872.0, inf, inf, inf});
  CHECK(values<bool>(jet::isinf(jet::expm1(u8))) ==
        std::vector<bool>{false, false, false, false, true, true, true});

  const jet::array a = jet::asarray<std::uint8_t>({1, 2, 3, 200});
  const jet::array b = jet::asarray<std::int8_t>({1, 3, 4, 100});
  CHECK(doubles(jet::hypot(a, b)) == std::vector<double>{1.4140625, 3.60546875, 5.0, 223.625});
  // 0.1 * 0.1 rounds to float16 before the sum, as two NumPy calls would.
  const jet::array t = jet::asarray<float>({0.1f}).astype(jet::float16);
  CHECK(doubles(t * t + 1) == std::vector<double>{1.009765625});
}

TEST_CASE("bfloat16 results round to bfloat16 at every node", "[gpu][numpy]") {
  const jet::array t = jet::asarray<float>({0.1f, 3.3f, 100.7f}).astype(jet::bfloat16);
  const std::vector<double> got = doubles(t * t + 1);
  const std::vector<float> in = jet::array(t).astype(jet::float32).to_vector<float>();
  for (std::size_t i = 0; i < in.size(); ++i) {
    const float square = static_cast<float>(jet::bfloat16_t(in[i] * in[i]));
    CHECK(got[i] == static_cast<float>(jet::bfloat16_t(square + 1)));
  }
}

TEST_CASE("ufuncs of constant-valued operands fill every lane of a vector", "[gpu][numpy]") {
  // isnan of integers, imag of integers and isfinite of integers are constants, once wrong in
  // most lanes of each vector (the kernel read its result vector before writing it).
  const jet::array i32 = jet::array(jet::arange(9)).astype(jet::int32).reshape({3, 3});
  CHECK(doubles(jet::log2(jet::isnan(i32))) == std::vector<double>(9, -inf));
  const jet::array u8 = jet::array(jet::arange(99) % 7).astype(jet::uint8).reshape({33, 3});
  CHECK(doubles(jet::log(jet::imag(u8))) == std::vector<double>(99, -inf));
  const jet::expr e = jet::exp2(jet::isfinite(jet::floor_divide(u8 == u8, jet::where(u8, u8, u8))));
  CHECK(doubles(e) == std::vector<double>(99, 2.0));
  const jet::array u16 = jet::array(jet::arange(2112)).astype(jet::uint16).reshape({16, 4, 33});
  CHECK(doubles(jet::rint(u16 >= u16)) == std::vector<double>(2112, 1.0));
}

TEST_CASE("floats cast to integers as NumPy's casts do on x86", "[gpu][numpy]") {
  const jet::array d = jet::asarray<double>({-1.0, 300.0, -129.0, 255.9, 65536.5});
  CHECK(values<std::int8_t>(d.astype(jet::int8)) == std::vector<std::int8_t>{-1, 44, 127, -1, 0});
  CHECK(values<std::uint16_t>(jet::asarray<double>({-1.0, -2.5, 70000.0}).astype(jet::uint16)) ==
        std::vector<std::uint16_t>{65535, 65534, 4464});
  CHECK(values<std::uint64_t>(jet::asarray<double>({-1.0, -3.0}).astype(jet::uint64)) ==
        std::vector<std::uint64_t>{18446744073709551615ull, 18446744073709551613ull});
  CHECK(values<std::uint32_t>(jet::asarray<double>({-1.0, 5e9}).astype(jet::uint32)) ==
        std::vector<std::uint32_t>{4294967295u, 705032704u});
  const jet::array c = jet::asarray<std::complex<double>>({{-2.0, 1.0}});
  CHECK(values<std::uint8_t>(jet::expr(c).astype(jet::uint8)) == std::vector<std::uint8_t>{254});
  // NumPy's integer reciprocal is 1.0 / x cast back: 1 / 0 is the lowest int32 and int64.
  CHECK(values<std::int64_t>(jet::reciprocal(jet::asarray<std::int64_t>({0, 1, -1, 2}))) ==
        std::vector<std::int64_t>{std::numeric_limits<std::int64_t>::min(), 1, -1, 0});
  CHECK(values<std::int32_t>(jet::reciprocal(jet::asarray<std::int32_t>({0, 2}))) ==
        std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::min(), 0});
  CHECK(values<std::uint8_t>(jet::reciprocal(jet::asarray<std::uint8_t>({0, 1, 2}))) ==
        std::vector<std::uint8_t>{0, 1, 0});
}

TEST_CASE("an integer to a negative integer power raises at the next synchronization",
          "[gpu][numpy]") {
  const jet::array b = jet::asarray<std::int32_t>({2, 3, 4});
  const jet::array e = jet::asarray<std::int32_t>({1, -1, 2});
  jet::array r = jet::power(b, e);  // queued: the error is found on the device
  CHECK_THROWS_WITH(r.to_vector<std::int32_t>(),
                    "Integers to negative integer powers are not allowed.");
  // The channel is clear again, and other kernels report the same way.
  CHECK(values<std::int32_t>(jet::power(b, 2)) == std::vector<std::int32_t>{4, 9, 16});
  jet::array s = jet::sum(jet::power(b, -e));
  CHECK_THROWS_AS(jet::synchronize(), jet::value_error);
  // NumPy computes the power before it broadcasts against an empty operand.
  jet::array empty = jet::power(e.reshape({3, 1}), e.reshape({3, 1})) + jet::zeros({0}, jet::int32);
  CHECK(empty.shape() == jet::shape{3, 0});
  CHECK_THROWS_AS(jet::synchronize(), jet::value_error);
  CHECK(values<std::int64_t>(jet::power(jet::asarray<std::int64_t>({-2}), 3)) ==
        std::vector<std::int64_t>{-8});
  // Unsigned exponents are never negative.
  CHECK(values<std::uint8_t>(jet::power(jet::asarray<std::uint8_t>({2}), 7)) ==
        std::vector<std::uint8_t>{128});
}

TEST_CASE("NumPy's functions keep NumPy's own definitions", "[gpu][numpy]") {
  // angle(z) of a real z is arctan2(0, z): float64 for bool, float16 for int8.
  const jet::array flags = jet::asarray(std::vector<bool>{true, false});
  CHECK(jet::angle(flags).dtype() == jet::float64);
  CHECK(jet::angle(jet::asarray<std::int8_t>({-1, 1})).dtype() == jet::float16);
  CHECK(doubles(jet::angle(jet::asarray<std::int8_t>({-1, 1})))[1] == 0.0);
  // real and imag of a Python scalar are Python scalars, weak as before.
  const jet::array i32 = jet::asarray<std::int32_t>({1, 2});
  CHECK((jet::imag(-2) + i32).dtype() == jet::int32);
  CHECK((jet::real(4) + i32).dtype() == jet::int32);
  CHECK((jet::imag(2.0) * jet::asarray<std::int8_t>({1})).dtype() == jet::float64);
  CHECK((jet::real(std::complex<double>(1, 2)) * jet::asarray<float>({1})).dtype() == jet::float32);
  CHECK(doubles(jet::imag(std::complex<double>(-0.0, -0.5)) + jet::asarray<std::uint16_t>({4})) ==
        std::vector<double>{3.5});
  // The logical ufuncs take any Python int by its truth.
  CHECK(values<bool>(jet::logical_and(jet::asarray<std::uint32_t>({0, 5}), -7)) ==
        std::vector<bool>{false, true});
  CHECK(values<bool>(jet::logical_or(300, jet::asarray<std::int8_t>({0}))) ==
        std::vector<bool>{true});
  CHECK(values<bool>(jet::logical_and(jet::asarray<std::uint8_t>({1}), 256)) ==
        std::vector<bool>{true});
  // ... but not one past a C long, nor does a comparison with bools (NumPy 2.5).
  CHECK_THROWS_AS(jet::logical_or(jet::asarray<std::uint32_t>({1}), 18446744073709551615ull),
                  jet::value_error);
  CHECK_THROWS_AS(jet::greater(18446744073709551615ull, flags), jet::value_error);
  // where checks the range, as NumPy 2.5 does.
  CHECK_THROWS_AS(jet::where(flags, jet::asarray<std::uint64_t>({1, 2}), -1), jet::value_error);
  // A Python int above INT64_MAX is uint64.
  CHECK(jet::nanmean(18446744073709551615ull).dtype() == jet::float64);
  CHECK(doubles(jet::nanmean(18446744073709551615ull))[0] == 18446744073709551615.0);
}

TEST_CASE("complex order and degrees follow NumPy to the last bit", "[gpu][numpy]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const jet::array a = jet::asarray<std::complex<double>>({{1, nan}, {1, 0}});
  const jet::array b = jet::asarray<std::complex<double>>({{2, 0}, {2, nan}});
  CHECK(values<bool>(jet::less(a, b)) == std::vector<bool>{false, false});
  CHECK(values<bool>(jet::less_equal(a, b)) == std::vector<bool>{false, false});
  const jet::array f = jet::asarray<float>({1.0f, 2.5f, 3.1f, 100.7f, 0.3f});
  CHECK(jet::array(jet::degrees(f)).to_vector<float>() ==
        std::vector<float>{57.2957763671875f, 143.23944091796875f, 177.6168975830078f,
                           5769.6845703125f, 17.18873405456543f});
}

TEST_CASE("complex functions take C99's branch cuts and limits, as NumPy's", "[gpu][numpy]") {
  using c = std::complex<double>;
  const double pi = 3.14159265358979323846;
  auto one = [](const jet::expr& e) { return jet::array(e).to_vector<c>()[0]; };
  auto near = [](c got, c want) { return std::abs(got - want) <= 1e-12 * (1 + std::abs(want)); };
  const jet::array two = jet::asarray<c>({{2.0, 0.0}});
  CHECK(near(one(jet::arcsin(two)), c(pi / 2, 1.3169578969248166)));
  CHECK(near(one(jet::arccos(two)), c(0, -1.3169578969248166)));
  CHECK(near(one(jet::arctanh(two)), c(0.5493061443340549, pi / 2)));
  CHECK(near(one(jet::arcsinh(jet::asarray<c>({{-0.0, 4.0}}))), c(-2.0634370688955608, pi / 2)));
  CHECK(one(jet::sinh(jet::asarray<c>({{inf, 0.0}}))) == c(inf, 0.0));
  CHECK(one(jet::power(jet::asarray<c>({{0.0, 0.0}}), jet::asarray<c>({{1.0, 1.0}}))) == c(0, 0));
  CHECK(one(jet::sign(jet::asarray<c>({{-inf, 0.0}}))) == c(-1, 0));
  CHECK(near(one(jet::power(jet::asarray<c>({{1.0, 1.0}}), 5)), c(-4, -4)));
}

TEST_CASE("complex functions at infinities, NaN and overflow take glibc's values", "[gpu][numpy]") {
  using c = std::complex<double>;
  const double nan = std::numeric_limits<double>::quiet_NaN(), pi = 3.14159265358979323846;
  auto one = [](const jet::expr& e) { return jet::array(e).to_vector<c>()[0]; };
  auto z = [](double re, double im) { return jet::asarray<c>({{re, im}}); };
  // Both parts NaN, or the same part NaN or infinite, as NumPy (glibc) gives them.
  auto same = [](c got, c want) {
    auto part = [](double g, double w) { return std::isnan(w) ? std::isnan(g) : g == w; };
    return part(got.real(), want.real()) && part(got.imag(), want.imag());
  };
  CHECK(same(one(jet::exp(z(-inf, inf))), c(0, 0)));
  CHECK(same(one(jet::exp(z(inf, nan))), c(inf, nan)));
  const c big = one(jet::exp(z(710, 0.5)));  // finite, past exp(710)
  CHECK(big.real() == inf);
  CHECK(std::abs(big.imag() / 1.0710341440060488e+308 - 1) < 1e-14);
  CHECK(same(one(jet::cos(z(inf, inf))), c(inf, nan)));
  CHECK(same(one(jet::sin(z(inf, 0.0))), c(nan, 0)));
  CHECK(same(one(jet::sin(z(inf, -inf))), c(nan, inf)));
  CHECK(same(one(jet::sinh(z(0.0, nan))), c(0, nan)));
  CHECK(same(one(jet::tanh(z(0.0, inf))), c(0, nan)));
  CHECK(same(one(jet::tan(z(inf, 2.0))), c(nan, nan)));
  CHECK(same(one(jet::tanh(z(1000, 2.0))), c(1, -0.0)));
  CHECK(same(one(jet::arccosh(z(3, inf))), c(inf, pi / 2)));
  CHECK(same(one(jet::arccosh(z(-inf, 2))), c(inf, pi)));
  CHECK(same(one(jet::arctanh(z(0.0, nan))), c(0, nan)));
  CHECK(same(one(jet::arcsin(z(0.0, nan))), c(0, nan)));
  CHECK(std::abs(one(jet::arccos(z(1, 1e-30))) - c(1e-15, -1e-15)) < 1e-28);
  CHECK(one(jet::arcsinh(z(1e-30, 0))) == c(1e-30, 0));
  // inf ** (-2.4 + 2i) is exp((-inf) + i inf) = 0; (-1.5) ** (inf + NaN i) is C99's product's inf.
  CHECK(same(one(jet::power(z(inf, 0), z(-2.42261713, 2))), c(0, 0)));
  CHECK(same(one(jet::power(-1.5, z(inf, nan))), c(inf, nan)));
  CHECK(std::abs(one(jet::log1p(jet::asarray<std::complex<float>>({{0.0f, 1e30f}})))) < 70);
  // NumPy's reciprocal divides as Smith does: 1/0 is nan + nan i, 1/(inf + 0i) is 0 - 0i.
  CHECK(same(one(jet::reciprocal(z(0, 0))), c(nan, nan)));
  CHECK(same(one(jet::reciprocal(z(inf, 0))), c(0, -0.0)));
  CHECK(one(jet::reciprocal(z(0, 2))) == c(0, -0.5));
  CHECK(std::abs(one(jet::reciprocal(z(3, 4))) - c(0.12, -0.16)) < 1e-16);
}

TEST_CASE("complex products fuse the real part's product as NumPy's SIMD loop does",
          "[gpu][numpy]") {
  using c = std::complex<float>;
  auto one = [](const jet::expr& e) { return jet::array(e).to_vector<c>()[0]; };
  const jet::array big = jet::asarray<c>({{2e19f, 2e19f}}),
                   near_one = jet::asarray<c>({{1.3f, 0.7f}});
  // 2e19² overflows float, but fma(x, x, -inf) is -inf where inf - inf is NaN.
  const float finf = std::numeric_limits<float>::infinity();
  CHECK(one(jet::square(big)) == c(-finf, finf));
  CHECK(one(big * big) == c(-finf, finf));
  // 1.3f² - 0.7f² rounded once: NumPy's 1.1999999f, where two roundings give 1.1999998f.
  CHECK(one(near_one * near_one).real() == 1.1999999f);
  CHECK(one(jet::square(near_one)).real() == 1.1999999f);
}

TEST_CASE("int16 results widen as the int16 they are (no ptxas widening of neg.s16)",
          "[gpu][numpy]") {
  const jet::array x = jet::asarray<std::int16_t>({-32768, 5, -1});
  CHECK(values<std::int64_t>(jet::expr(jet::negative(x)).astype(jet::int64)) ==
        std::vector<std::int64_t>{-32768, -5, 1});
  CHECK(values<std::int32_t>(jet::expr(jet::absolute(x)).astype(jet::int32)) ==
        std::vector<std::int32_t>{-32768, 5, 1});
  CHECK(values<bool>(jet::negative(x) < 0) == std::vector<bool>{true, true, false});
  CHECK(values<std::int64_t>(jet::expr(jet::subtract(0, x)).astype(jet::int64)) ==
        std::vector<std::int64_t>{-32768, -5, 1});
  CHECK(values<std::int64_t>(jet::expr(x * x).astype(jet::int64)) ==
        std::vector<std::int64_t>{0, 25, 1});
  // ptxas once read int16 -5 widened to uint32 and then to float64 as -5.0.
  CHECK(values<double>(
            jet::expr(jet::expr(jet::negative(x)).astype(jet::uint32)).astype(jet::float64)) ==
        std::vector<double>{4294934528.0, 4294967291.0, 1.0});
  CHECK(values<bool>(jet::less_equal(1.0, jet::expr(jet::negative(x)).astype(jet::uint32))) ==
        std::vector<bool>{true, true, true});
}

namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  return items;
}

jet::array integers(const std::string& dtype, const std::vector<std::string>& values) {
  const jet::dtype t = jet::dtype_from_name(dtype);
  if (t == jet::bool_) {
    std::vector<bool> flags;
    for (const std::string& v : values) flags.push_back(v == "1");
    return jet::asarray(flags);
  }
  std::vector<std::uint64_t> bits;  // two's complement: the cast keeps the low bits
  for (const std::string& v : values)
    bits.push_back(v[0] == '-' ? static_cast<std::uint64_t>(std::stoll(v)) : std::stoull(v));
  return jet::asarray(bits).astype(t);
}

// Within `ulps` units in the last place of `t` (NaN matching NaN, infinities exact).
bool close(double got, double want, jet::dtype t, int ulps) {
  if (std::isnan(want) || std::isinf(want)) return std::isnan(want) ? std::isnan(got) : got == want;
  const int bits = t == jet::float16 ? 10 : t == jet::float32 ? 23 : 52;
  return std::abs(got - want) <= ulps * std::ldexp(std::max(std::abs(want), 6.1e-5), -bits);
}

}  // namespace

TEST_CASE("every unary ufunc on bool and integers gives NumPy's dtype and values", "[gpu][numpy]") {
  const auto rows = jet_test::read_table(JET_TEST_DATA "/unary_integers.tsv");
  REQUIRE(rows.size() == 378);
  const std::set<std::string> exact = {
      "negative",   "positive",    "invert", "absolute", "sign",     "sqrt",  "square",
      "reciprocal", "floor",       "ceil",   "trunc",    "rint",     "isnan", "isinf",
      "isfinite",   "logical_not", "real",   "imag",     "conjugate"};
  for (const auto& row : rows) {
    INFO(row[0] << " of " << row[1] << ": NumPy " << row[3] << " " << row[4]);
    const jet::array x = integers(row[1], split(row[2]));
    if (row[3] == "error") {
      CHECK_THROWS_AS(jet_test::ufuncs().at(row[0])({x}), jet::dtype_error);
      continue;
    }
    const jet::expr y = jet_test::ufuncs().at(row[0])({x});
    REQUIRE(std::string(jet::name(y.dtype())) == row[3]);
    const std::vector<std::string> want = split(row[4]);
    if (jet::is_floating(y.dtype())) {
      const std::vector<double> got = doubles(y);
      for (std::size_t i = 0; i < want.size(); ++i)
        CHECK(close(got[i], std::stod(want[i]), y.dtype(), exact.count(row[0]) ? 0 : 2));
    } else {
      const std::vector<std::string> got = [&] {
        std::vector<std::string> out;
        if (y.dtype() == jet::bool_)
          for (bool b : values<bool>(y)) out.push_back(b ? "1" : "0");
        else if (jet::kind(y.dtype()) == jet::dtype_kind::unsigned_int)
          for (std::uint64_t v : values<std::uint64_t>(jet::expr(y).astype(jet::uint64)))
            out.push_back(std::to_string(v));
        else
          for (std::int64_t v : values<std::int64_t>(jet::expr(y).astype(jet::int64)))
            out.push_back(std::to_string(v));
        return out;
      }();
      CHECK(got == want);
    }
  }
}
