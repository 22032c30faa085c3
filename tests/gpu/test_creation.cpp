// Creation on a GPU: empty, zeros, ones, full (and its dtype deduction), arange, linspace,
// eye, identity, the *_like forms and asarray, with NumPy's default dtypes.
#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/comparison.hpp"
#include "gpu/samples.hpp"

namespace {

using namespace jet_test;

// Frees a dirty block into the memory pool, so that a creation that skipped elements shows
// the dirt rather than zeros that happened to be there.
void dirty_the_pool(std::int64_t bytes) {
  const jet::array dirt = jet::full({bytes}, 0xA5, jet::uint8);
  jet::synchronize();
}

std::vector<cdouble> repeated(double value, std::int64_t n) {
  return std::vector<cdouble>(static_cast<std::size_t>(n), value);
}

std::vector<cdouble> values_of(std::initializer_list<double> values) {
  return {values.begin(), values.end()};
}

// An array a creation function made, with the dtype and values NumPy gives.
struct made_case {
  std::string_view what;
  jet::array made;
  jet::dtype dtype;
  std::vector<cdouble> want;
};

void check_made(const made_case& c) {
  INFO(c.what);
  CHECK(jet::name(c.made.dtype()) == jet::name(c.dtype));
  CHECK(c.made.size() == static_cast<std::int64_t>(c.want.size()));
  check_any(c.made, c.want);
}

}  // namespace

TEST_CASE("empty, zeros, ones and full make arrays of every dtype", "[gpu][creation]") {
  const jet::shape s{7, 33};
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    const jet::array e = jet::empty(s, t);
    CHECK(e.dtype() == t);
    CHECK(jet::to_string(e.shape()) == "(7,33)");
    CHECK(jet::to_string(e.strides()) == "(33,1)");
    CHECK(e.is_c_contiguous());
    CHECK(e.nbytes() == 231 * jet::itemsize(t));
    dirty_the_pool(1 << 16);
    check_any(jet::zeros(s, t), repeated(0, 231));
    dirty_the_pool(1 << 16);
    check_any(jet::ones(s, t), repeated(1, 231));
    dirty_the_pool(1 << 16);
    check_any(jet::full(s, 5, t), repeated(t == jet::bool_ ? 1 : 5, 231));
    for (const jet::shape& nothing : {jet::shape{0}, jet::shape{3, 0}, jet::shape{0, 5, 2}}) {
      CHECK(jet::zeros(nothing, t).size() == 0);
      CHECK(jet::ones(nothing, t).size() == 0);
      CHECK(jet::to_string(jet::full(nothing, 2, t).shape()) == jet::to_string(nothing));
    }
  }
  REQUIRE_THROWS_AS(jet::empty({2, -1}), jet::value_error);
  REQUIRE_THROWS_WITH(jet::zeros({-3}), "negative dimensions are not allowed");
}

TEST_CASE("full deduces its dtype from the value as NumPy does", "[gpu][creation]") {
  const jet::shape s{4, 3};
  const made_case cases[] = {
      {"full(s, 3) is int64", jet::full(s, 3), jet::int64, repeated(3, 12)},
      {"full(s, 2.5) is float64", jet::full(s, 2.5), jet::float64, repeated(2.5, 12)},
      {"full(s, true) is bool", jet::full(s, true), jet::bool_, repeated(1, 12)},
      {"full(s, 7, int8)", jet::full(s, 7, jet::int8), jet::int8, repeated(7, 12)},
      {"full(s, 2.9, int32) truncates", jet::full(s, 2.9, jet::int32), jet::int32, repeated(2, 12)},
      {"full(s, -2.9, int32) truncates toward zero", jet::full(s, -2.9, jet::int32), jet::int32,
       repeated(-2, 12)},
      {"full(s, 0.1, float16) rounds once", jet::full(s, 0.1, jet::float16), jet::float16,
       repeated(0.1, 12)},
      {"full(s, 1.5, complex64)", jet::full(s, 1.5, jet::complex64), jet::complex64,
       repeated(1.5, 12)},
  };
  for (const made_case& c : cases) check_made(c);
  SECTION("a complex value gives complex128") {
    const jet::array z = jet::full(s, std::complex<double>(1, -2));
    CHECK(z.dtype() == jet::complex128);
    check_any(z, std::vector<cdouble>(12, cdouble(1, -2)));
  }
  SECTION("an array value broadcasts and keeps its dtype") {
    const jet::array row = jet::asarray(std::vector<float>{1.5f, -2, 4});
    const jet::array filled = jet::full(s, row);
    CHECK(filled.dtype() == jet::float32);
    CHECK(!filled.shares_buffer_with(row));
    std::vector<cdouble> want;
    for (int i = 0; i < 4; ++i)
      for (double v : {1.5, -2.0, 4.0}) want.push_back(v);
    check_any(filled, want);
    const jet::array nine = jet::asarray({std::int16_t{9}}, jet::shape{});  // a strong 0-d int16
    CHECK(jet::full(s, nine).dtype() == jet::int16);
    check_any(jet::full(s, nine), repeated(9, 12));
  }
}

TEST_CASE("arange follows NumPy's dtype and length rules", "[gpu][creation]") {
  // The int64 overloads are spelled with int64 arguments: jet::arange(2, 11, 3) with int
  // literals is ambiguous between the int64 and the double overloads.
  const std::int64_t two = 2, three = 3, five = 5, ten = 10, eleven = 11, minus_three = -3,
                     zero = 0;
  const made_case cases[] = {
      {"arange(10)", jet::arange(10), jet::int64, values_of({0, 1, 2, 3, 4, 5, 6, 7, 8, 9})},
      {"arange(2, 11, 3)", jet::arange(two, eleven, three), jet::int64, values_of({2, 5, 8})},
      {"arange(10, 0, -3)", jet::arange(ten, zero, minus_three), jet::int64,
       values_of({10, 7, 4, 1})},
      {"arange(-3, 3)", jet::arange(minus_three, three), jet::int64,
       values_of({-3, -2, -1, 0, 1, 2})},
      {"arange(5, 5)", jet::arange(five, five), jet::int64, {}},
      {"arange(5, 0)", jet::arange(five, zero), jet::int64, {}},
      {"arange(0)", jet::arange(0), jet::int64, {}},
      {"arange(0.5, 3.0)", jet::arange(0.5, 3.0), jet::float64, values_of({0.5, 1.5, 2.5})},
      {"arange(1.0, -1.0, -0.25)", jet::arange(1.0, -1.0, -0.25), jet::float64,
       values_of({1, 0.75, 0.5, 0.25, 0, -0.25, -0.5, -0.75})},
      {"arange(0.0, 1.0, 0.25, float32)", jet::arange(0.0, 1.0, 0.25, jet::float32), jet::float32,
       values_of({0, 0.25, 0.5, 0.75})},
      {"arange(0.0, 1.0, 0.1)", jet::arange(0.0, 1.0, 0.1), jet::float64,
       values_of({0, 0.1, 0.2, 0.30000000000000004, 0.4, 0.5, 0.6000000000000001,
                  0.7000000000000001, 0.8, 0.9})},
  };
  for (const made_case& c : cases) check_made(c);
  SECTION("a long arange is exact to its end") {
    std::vector<cdouble> want;
    for (int i = 0; i < 100003; ++i) want.push_back(7 + 3.0 * i);
    const std::int64_t start = 7, stop = 7 + 3 * 100003 - 2, step = 3;
    check_any(jet::arange(start, stop, step), want);
  }
  SECTION("a zero step is refused") {
    REQUIRE_THROWS_AS(jet::arange(zero, ten, zero), jet::value_error);
    REQUIRE_THROWS_AS(jet::arange(0.0, 1.0, 0.0), jet::value_error);
  }
}

TEST_CASE("linspace covers its endpoints and the edge counts", "[gpu][creation]") {
  const made_case cases[] = {
      {"linspace(0, 1, 5)", jet::linspace(0, 1, 5), jet::float64,
       values_of({0, 0.25, 0.5, 0.75, 1})},
      {"linspace(0, 1, 5, endpoint=false)", jet::linspace(0, 1, 5, false), jet::float64,
       values_of({0, 0.2, 0.4, 0.6, 0.8})},
      {"linspace(2, -3, 11)", jet::linspace(2, -3, 11), jet::float64,
       values_of({2, 1.5, 1, 0.5, 0, -0.5, -1, -1.5, -2, -2.5, -3})},
      {"linspace(0, 1, 0)", jet::linspace(0, 1, 0), jet::float64, {}},
      {"linspace(3, 7, 1)", jet::linspace(3, 7, 1), jet::float64, values_of({3})},
      {"linspace(3, 7, 1, endpoint=false)", jet::linspace(3, 7, 1, false), jet::float64,
       values_of({3})},
      {"linspace(-1, 1, 5, dtype=float32)", jet::linspace(-1, 1, 5, true, jet::float32),
       jet::float32, values_of({-1, -0.5, 0, 0.5, 1})},
      {"linspace(0, 10, 6, dtype=int32)", jet::linspace(0, 10, 6, true, jet::int32), jet::int32,
       values_of({0, 2, 4, 6, 8, 10})},
  };
  for (const made_case& c : cases) check_made(c);
  SECTION("the default count is 50 and the last element is exactly stop") {
    const jet::array x = jet::linspace(0, 0.3, 50);
    REQUIRE(x.size() == 50);
    const std::vector<double> got = x.to_vector<double>();
    CHECK(got.front() == 0.0);
    CHECK(got.back() == 0.3);
    std::vector<cdouble> want;
    for (int i = 0; i < 50; ++i) want.push_back(0.3 / 49 * i);
    check_any(x, want);
  }
  SECTION("a negative count is refused") {
    REQUIRE_THROWS_AS(jet::linspace(0, 1, -1), jet::value_error);
    REQUIRE_THROWS_WITH(jet::linspace(0, 1, -1), "Number of samples, -1, must be non-negative.");
  }
}

TEST_CASE("eye and identity put ones on the k-th diagonal", "[gpu][creation]") {
  const struct {
    std::int64_t n;
    std::optional<std::int64_t> m;
    std::int64_t k;
  } cases[] = {{4, std::nullopt, 0}, {3, 5, 1},  {3, 5, 4}, {5, 3, -2},
               {3, 4, 10},           {4, 4, -4}, {1, 1, 0}, {0, std::nullopt, 0}};
  for (jet::dtype t : {jet::float64, jet::int32, jet::bool_, jet::float16, jet::complex64}) {
    for (const auto& c : cases) {
      const std::int64_t m = c.m.value_or(c.n);
      INFO("eye(" << c.n << ", " << m << ", k=" << c.k << ", " << jet::name(t) << ")");
      dirty_the_pool(1 << 12);
      const jet::array e = jet::eye(c.n, c.m, c.k, t);
      CHECK(e.dtype() == t);
      CHECK(jet::to_string(e.shape()) == jet::to_string(jet::shape{c.n, m}));
      std::vector<cdouble> want;
      for (std::int64_t i = 0; i < c.n; ++i)
        for (std::int64_t j = 0; j < m; ++j) want.push_back(j - i == c.k ? 1.0 : 0.0);
      check_any(e, want);
    }
  }
  CHECK(jet::eye(3).dtype() == jet::float64);
  CHECK(jet::identity(3).dtype() == jet::float64);
  check_any(jet::identity(3), values_of({1, 0, 0, 0, 1, 0, 0, 0, 1}));
  check_any(jet::identity(2, jet::bool_), values_of({1, 0, 0, 1}));
  CHECK(jet::identity(2, jet::bool_).dtype() == jet::bool_);
}

TEST_CASE("the _like functions copy the shape and choose the dtype", "[gpu][creation]") {
  const jet::array base = jet::ones({3, 5}, jet::float32).T();  // (5,3), not C-contiguous
  const struct {
    std::string_view what;
    jet::array made;
    jet::dtype dtype;
    std::optional<double> value;  // none for empty_like
  } cases[] = {
      {"empty_like", jet::empty_like(base), jet::float32, std::nullopt},
      {"empty_like(int16)", jet::empty_like(base, jet::int16), jet::int16, std::nullopt},
      {"zeros_like", jet::zeros_like(base), jet::float32, 0.0},
      {"zeros_like(int8)", jet::zeros_like(base, jet::int8), jet::int8, 0.0},
      {"ones_like", jet::ones_like(base), jet::float32, 1.0},
      {"ones_like(complex128)", jet::ones_like(base, jet::complex128), jet::complex128, 1.0},
      {"full_like(7)", jet::full_like(base, 7), jet::float32, 7.0},
      {"full_like(2.5, int32)", jet::full_like(base, 2.5, jet::int32), jet::int32, 2.0},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(c.made.dtype() == c.dtype);
    CHECK(jet::to_string(c.made.shape()) == "(5,3)");
    CHECK(c.made.is_c_contiguous());
    CHECK(!c.made.shares_buffer_with(base));
    if (c.value) check_any(c.made, repeated(*c.value, 15));
  }
}

TEST_CASE("asarray copies host values with the dtype of their C++ type and the shape given",
          "[gpu][creation]") {
  SECTION("vectors default to 1-D") {
    const jet::array f = jet::asarray(std::vector<float>{1.5f, -2.25f, 3});
    CHECK(f.dtype() == jet::float32);
    CHECK(jet::to_string(f.shape()) == "(3,)");
    CHECK(f.to_vector<float>() == std::vector<float>{1.5f, -2.25f, 3});
    const jet::array u = jet::asarray(std::vector<std::uint16_t>{65535, 0, 7});
    CHECK(u.dtype() == jet::uint16);
    CHECK(u.to_vector<std::uint16_t>() == std::vector<std::uint16_t>{65535, 0, 7});
    const jet::array i = jet::asarray(std::vector<int>{-1, 2});
    CHECK(i.dtype() == jet::int32);
    const jet::array l =
        jet::asarray(std::vector<std::int64_t>{-9223372036854775807 - 1, 9223372036854775807});
    CHECK(l.dtype() == jet::int64);
    CHECK(l.to_vector<std::int64_t>() ==
          std::vector<std::int64_t>{-9223372036854775807 - 1, 9223372036854775807});
    const jet::array z = jet::asarray(std::vector<std::complex<float>>{{1, 2}, {-3, 0.5f}});
    CHECK(z.dtype() == jet::complex64);
    CHECK(z.to_vector<std::complex<float>>() ==
          std::vector<std::complex<float>>{{1, 2}, {-3, 0.5f}});
    const jet::array h =
        jet::asarray(std::vector<jet::float16_t>{jet::float16_t(0.5f), jet::float16_t(-3.0f)});
    CHECK(h.dtype() == jet::float16);
    CHECK(h.to_vector<float>() == std::vector<float>{0.5f, -3.0f});
    const jet::array e = jet::asarray(std::vector<double>{});
    CHECK(e.dtype() == jet::float64);
    CHECK(jet::to_string(e.shape()) == "(0,)");
  }
  SECTION("a shape lays the values out in C order") {
    const jet::array m =
        jet::asarray(std::vector<std::int64_t>{1, 2, 3, 4, 5, 6}, jet::shape{2, 3});
    CHECK(jet::to_string(m.shape()) == "(2,3)");
    CHECK(m(1, 0).item<std::int64_t>() == 4);
    CHECK(m(0, 2).item<std::int64_t>() == 3);
    const jet::array c = jet::asarray({0.5, 1.5, 2.5}, jet::shape{3, 1});
    CHECK(c.dtype() == jet::float64);
    CHECK(jet::to_string(c.shape()) == "(3,1)");
    CHECK(c(2, 0).item<double>() == 2.5);
    const jet::array s = jet::asarray({42.0}, jet::shape{});
    CHECK(s.ndim() == 0);
    CHECK(s.item<double>() == 42.0);
  }
  SECTION("initializer lists give the dtype of their element type, bool included") {
    const jet::array b = jet::asarray({true, false, true});
    CHECK(b.dtype() == jet::bool_);
    check_any(b, values_of({1, 0, 1}));
    CHECK(jet::asarray({1, 2, 3}).dtype() == jet::int32);
    CHECK(jet::asarray({1.0f, 2.0f}).dtype() == jet::float32);
    CHECK(jet::asarray({std::int8_t{-1}}).item<std::int8_t>() == -1);
  }
}

TEST_CASE("dtypes default to float64", "[gpu][creation]") {
  const jet::array nothing;
  CHECK(nothing.dtype() == jet::float64);
  CHECK(jet::to_string(nothing.shape()) == "(0,)");
  CHECK(nothing.size() == 0);
  CHECK(jet::empty({2}).dtype() == jet::float64);
  CHECK(jet::zeros({2}).dtype() == jet::float64);
  CHECK(jet::ones({2}).dtype() == jet::float64);
  CHECK(jet::full({2}, 1.0).dtype() == jet::float64);
  CHECK(jet::arange(0.0, 2.0).dtype() == jet::float64);
  CHECK(jet::linspace(0, 1).dtype() == jet::float64);
  CHECK(jet::eye(2).dtype() == jet::float64);
  CHECK(jet::identity(2).dtype() == jet::float64);
}
