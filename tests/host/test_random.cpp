// jet::random before the device: a generator touches no GPU until its first draw, so argument
// checks (NumPy's errors, with the values involved) and empty requests run anywhere.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "codegen/plan/kernel_plan.hpp"
#include "jet/jet.hpp"
#include "src/nvrtc/compile.hpp"
#include "src/random/kernels.hpp"
#include "support/catch.hpp"

namespace {

// Each call would draw from the generator were its arguments valid.
template <class F>
void check_error(F&& call, const std::string& message) {
  INFO(message);
  REQUIRE_THROWS_WITH(call(), message);
}

}  // namespace

TEST_CASE("a generator keeps its seed, offset and algorithm, and MT19937 takes no offset",
          "[host][random]") {
  jet::random::generator g(42, jet::random::algorithm::xorwow, 7);
  CHECK(g.seed() == 42);
  CHECK(g.offset() == 7);
  CHECK(g.kind() == jet::random::algorithm::xorwow);
  g.seed(9, 1000);
  CHECK(g.seed() == 9);
  CHECK(g.offset() == 1000);
  CHECK(jet::random::generator(1).kind() == jet::random::algorithm::philox4x32_10);
  CHECK(jet::random::name(jet::random::algorithm::mrg32k3a) == "mrg32k3a");
  CHECK(jet::random::name(jet::random::algorithm::mt19937) == "mt19937");
  REQUIRE_THROWS_AS(jet::random::generator(1, jet::random::algorithm::mt19937, 5),
                    jet::value_error);
  jet::random::generator mt(1, jet::random::algorithm::mt19937);
  check_error([&] { mt.seed(2, 5); },
              "jet::random::generator: cuRAND's MT19937 cannot start at an offset (got offset 5); "
              "use another "
              "seed, or another algorithm");
  CHECK(mt.seed() == 1);
  jet::random::generator moved = std::move(g);
  CHECK(moved.seed() == 9);
}

TEST_CASE("continuous distributions take floating dtypes only", "[host][random]") {
  jet::random::generator g(1);
  check_error([&] { g.rand({3}, jet::int32); },
              "rand: dtype int32 is not supported; use float16, bfloat16, float32 or float64");
  check_error([&] { g.randn({3}, jet::complex64); },
              "randn: dtype complex64 is not supported; use float16, bfloat16, float32 or float64");
  check_error([&] { g.uniform(0, 1, {3}, jet::bool_); },
              "uniform: dtype bool is not supported; use float16, bfloat16, float32 or float64");
  check_error([&] { g.normal(0, 1, {3}, jet::uint8); },
              "normal: dtype uint8 is not supported; use float16, bfloat16, float32 or float64");
  check_error([&] { g.lognormal(0, 1, {3}, jet::int64); },
              "lognormal: dtype int64 is not supported; use float16, bfloat16, float32 or float64");
  check_error(
      [&] { g.exponential(1, {3}, jet::int16); },
      "exponential: dtype int16 is not supported; use float16, bfloat16, float32 or float64");
  check_error([&] { g.gamma(1, 1, {3}, jet::int8); },
              "gamma: dtype int8 is not supported; use float16, bfloat16, float32 or float64");
  check_error([&] { g.beta(1, 1, {3}, jet::uint64); },
              "beta: dtype uint64 is not supported; use float16, bfloat16, float32 or float64");
  check_error([&] { g.randint(0, 5, {3}, jet::float32); },
              "randint: dtype float32 is not supported; use an integer dtype or bool");
}

TEST_CASE("invalid distribution parameters raise NumPy's errors with the values",
          "[host][random]") {
  jet::random::generator g(1);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  check_error([&] { g.normal(0, -1, {3}); }, "normal: scale < 0 (got -1)");
  check_error([&] { g.lognormal(0, -0.5, {3}); }, "lognormal: sigma < 0 (got -0.5)");
  check_error([&] { g.exponential(-2, {3}); }, "exponential: scale < 0 (got -2)");
  check_error([&] { g.gamma(-1, 1, {3}); }, "gamma: shape < 0 (got -1)");
  check_error([&] { g.gamma(1, -3, {3}); }, "gamma: scale < 0 (got -3)");
  check_error([&] { g.gamma(nan, 1, {3}); }, "gamma: shape is NaN");
  check_error([&] { g.beta(0, 1, {3}); }, "beta: a <= 0 (got 0)");
  check_error([&] { g.beta(1, -2, {3}); }, "beta: b <= 0 (got -2)");
  check_error([&] { g.beta(nan, 1, {3}); }, "beta: a <= 0 (got nan)");
  check_error([&] { g.poisson(-1, {3}); }, "poisson: lam < 0 or lam is NaN (got -1)");
  check_error([&] { g.poisson(nan, {3}); }, "poisson: lam < 0 or lam is NaN (got nan)");
  check_error([&] { g.poisson(1e19, {3}); }, "poisson: lam value too large (got 1e+19)");
  check_error([&] { g.binomial(-3, 0.5, {3}); }, "binomial: n < 0 (got -3)");
  check_error([&] { g.binomial(10, 1.5, {3}); }, "binomial: p < 0, p > 1 or p is NaN (got 1.5)");
  check_error([&] { g.binomial(10, nan, {3}); }, "binomial: p < 0, p > 1 or p is NaN (got nan)");
  check_error([&] { g.uniform(0, inf, {3}); },
              "uniform: high - low is not finite (low 0, high inf)");
  check_error([&] { g.rand({2, -1}); }, "negative dimensions are not allowed");
  check_error([&] { g.randn({-3}); }, "negative dimensions are not allowed");
}

TEST_CASE("randint checks the half-open range against the dtype", "[host][random]") {
  jet::random::generator g(1);
  check_error([&] { g.randint(5, 5, {3}); }, "randint: low >= high (low 5, high 5)");
  check_error([&] { g.randint(7, -2, {3}); }, "randint: low >= high (low 7, high -2)");
  check_error([&] { g.randint(0, {3}); }, "randint: low >= high (low 0, high 0)");
  check_error([&] { g.randint(0, 257, {3}, jet::uint8); },
              "randint: high 257 is out of bounds for uint8");
  check_error([&] { g.randint(-1, 10, {3}, jet::uint8); },
              "randint: low -1 is out of bounds for uint8");
  check_error([&] { g.randint(-129, 0, {3}, jet::int8); },
              "randint: low -129 is out of bounds for int8");
  check_error([&] { g.randint(0, 3, {3}, jet::bool_); },
              "randint: high 3 is out of bounds for bool");
  check_error([&] { g.randint(std::numeric_limits<std::uint64_t>::max(), 0, {3}, jet::uint64); },
              "randint: low >= high (low 18446744073709551615, high 0)");
  check_error([&] { g.randint(0, std::numeric_limits<std::uint64_t>::max(), {3}, jet::int64); },
              "randint: high 18446744073709551615 is out of bounds for int64");
}

TEST_CASE("choice, permutation and shuffle check their population and probabilities",
          "[host][random]") {
  jet::random::generator g(1);
  check_error([&] { g.choice(0, {3}); },
              "choice: a must be greater than 0 unless no samples are taken");
  check_error([&] { g.choice(3, {4}, false); },
              "choice: cannot take a larger sample (4) than population (3) when replace is false");
  check_error(
      [&] {
        g.choice(3, {2}, true, {0.5, 0.5});
      },
      "choice: a and p must have same size (3 and 2)");
  check_error(
      [&] {
        g.choice(2, {2}, true, {-0.5, 1.5});
      },
      "choice: probabilities are not non-negative");
  check_error(
      [&] {
        g.choice(2, {2}, true, {0.5, 0.6});
      },
      "choice: probabilities do not sum to 1 (they sum to 1.1)");
  check_error(
      [&] {
        g.choice(3, {2}, false, {0.0, 1.0, 0.0});
      },
      "choice: fewer non-zero entries in p (1) than size (2)");
  check_error(
      [&] {
        g.choice(jet::placeholder({2, 3}), {2});
      },
      "choice: a must be 1-dimensional (got shape (2,3))");
  check_error([&] { g.choice(jet::placeholder({0}), {2}); },
              "choice: a cannot be empty unless no samples are taken");
  REQUIRE_THROWS_AS(g.permutation(jet::placeholder({})), jet::index_error);
  check_error([&] { g.permutation(jet::placeholder({})); },
              "permutation: x must be an integer or at least 1-dimensional");
  check_error([&] { g.shuffle(jet::placeholder({})); },
              "shuffle: x must be at least 1-dimensional");
}

TEST_CASE("empty requests give empty arrays of NumPy's dtype without drawing", "[host][random]") {
  jet::random::generator g(1);
  const jet::shape nothing{3, 0};
  const auto check_empty = [&](const jet::array& a, jet::dtype t) {
    CHECK(a.size() == 0);
    CHECK(a.dtype() == t);
    CHECK(jet::to_string(a.shape()) == "(3,0)");
  };
  check_empty(g.rand(nothing), jet::float64);
  check_empty(g.rand(nothing, jet::float16), jet::float16);
  check_empty(g.uniform(-1, 1, nothing, jet::float32), jet::float32);
  check_empty(g.randn(nothing, jet::bfloat16), jet::bfloat16);
  check_empty(g.normal(1, 2, nothing), jet::float64);
  check_empty(g.lognormal(0, 1, nothing, jet::float32), jet::float32);
  check_empty(g.exponential(1, nothing), jet::float64);
  check_empty(g.gamma(2, 1, nothing), jet::float64);
  check_empty(g.beta(2, 3, nothing, jet::float32), jet::float32);
  check_empty(g.poisson(3, nothing), jet::int64);
  check_empty(g.binomial(10, 0.5, nothing), jet::int64);
  check_empty(g.randint(0, 10, nothing), jet::int64);
  check_empty(g.randint(-5, 5, nothing, jet::int8), jet::int8);
  check_empty(g.choice(5, nothing), jet::int64);
  check_empty(g.choice(5, nothing, false, {0.2, 0.2, 0.2, 0.2, 0.2}), jet::int64);
  check_empty(g.choice(jet::placeholder({4}, jet::float32), nothing), jet::float32);
  CHECK(g.permutation(0).size() == 0);
  CHECK(g.permutation(-4).dtype() == jet::int64);
  CHECK(g.permutation(jet::placeholder({0, 3})).size() == 0);
}

TEST_CASE("every random kernel compiles with NVRTC", "[host][random]") {
  const std::vector<std::string> names = jet::random::detail::kernel_names();
  CHECK(names.size() == 13);
  for (const std::string& name : names) {
    INFO(name);
    const jet::detail::compiled_kernel k = jet::detail::compile(
        jet::random::detail::kernel_source(name), "sm_90", jet::codegen::fixed_kernel_extras());
    CHECK(k.name == name);
    CHECK(!k.image.empty());
  }
  REQUIRE_THROWS_AS(jet::random::detail::kernel_source("jet_random_gather_3"), jet::internal_error);
}

TEST_CASE("seeding the default generators needs no device", "[host][random]") {
  jet::random::seed(123);
  SUCCEED();
}

namespace {

// The distributions whose Philox draws are expressions, each drawing `size` of dtype t.
using fused_draw = jet::expr (*)(jet::random::generator&, const jet::shape&, jet::dtype);
const fused_draw fused_draws[] = {
    [](jet::random::generator& g, const jet::shape& s, jet::dtype t) { return g.rand(s, t); },
    [](jet::random::generator& g, const jet::shape& s, jet::dtype t) {
      return g.uniform(-2, 3, s, t);
    },
    [](jet::random::generator& g, const jet::shape& s, jet::dtype t) { return g.randn(s, t); },
    [](jet::random::generator& g, const jet::shape& s, jet::dtype t) {
      return g.normal(1, 2, s, t);
    },
    [](jet::random::generator& g, const jet::shape& s, jet::dtype t) {
      return g.lognormal(0, 0.5, s, t);
    },
    [](jet::random::generator& g, const jet::shape& s, jet::dtype t) {
      return g.exponential(2, s, t);
    },
};

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

int occurrences(const std::string& text, const std::string& part) {
  int n = 0;
  for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("Philox draws fuse into the kernel that reads them and read no memory",
          "[host][random]") {
  jet::random::generator g(7);
  for (jet::dtype t : {jet::float16, jet::bfloat16, jet::float32, jet::float64}) {
    for (std::size_t d = 0; d < std::size(fused_draws); ++d) {
      INFO(jet::name(t) << " distribution " << d);
      const jet::explanation x = jet::explain(fused_draws[d](g, {1003}, t) * 2 - 1);
      INFO(x.source);
      CHECK(has(x.source, "jet_draw_fill<"));
      CHECK(has(x.operands, "random draw (made in the kernel, no memory)"));
      CHECK(x.bytes == 1003 * jet::itemsize(t));  // the result's writes alone
      CHECK(x.binary_bytes > 0);
    }
  }
}

TEST_CASE("draws broadcast, reduce, scan and share a kernel, and each compiles", "[host][random]") {
  jet::random::generator g(8);
  for (jet::dtype t : {jet::float32, jet::float64}) {
    const jet::array rows = jet::placeholder({5, 7}, t), wide = jet::placeholder({5, 8}, t);
    const std::vector<jet::expr> cases{
        g.rand({7}, t) + rows,               // broadcast along rows: element by element
        g.randn({5, 1}, t) * wide,           // broadcast along the inner axis
        jet::mean(g.rand({1000}, t) < 0.5),  // a reduction's producer
        jet::cumsum(g.randn({100}, t)),      // a scan's
        jet::sum(g.rand({6, 9}, t) * rows(0, 0), 0)};
    for (std::size_t k = 0; k < cases.size(); ++k) {
      INFO(jet::name(t) << " case " << k);
      const jet::explanation x = jet::explain(cases[k]);
      INFO(x.source);
      CHECK(has(x.source, "jet_draw_at<"));
      CHECK(has(x.operands, "random draw"));
      CHECK(x.binary_bytes > 0);
    }
    const jet::expr u = g.rand({64, 64}, t);
    const jet::explanation both = jet::explain(std::vector<jet::expr>{u * 2, u + g.randn({64}, t)});
    CHECK(occurrences(both.operands, "random draw") == 2);  // u is read once
    CHECK(both.binary_bytes > 0);
  }
}

TEST_CASE("each draw starts at the generator's counter and advances it", "[host][random]") {
  jet::random::generator g(0x5eed, jet::random::algorithm::philox4x32_10, 100);
  const jet::expr first = g.rand({10});                 // float64: 2 a counter, 5 counters
  const jet::expr second = g.randn({9}, jet::float32);  // 4 a counter: 3 counters
  const jet::expr third = g.rand({1}, jet::float16);    // words: 1 counter
  const jet::expr fourth = g.uniform(0, 1, {0});        // nothing
  const jet::expr fifth = g.exponential(1, {2, 2});
  const std::pair<const jet::expr*, const char*> expected[] = {{&first, "from counter 100"},
                                                               {&second, "from counter 105"},
                                                               {&third, "from counter 108"},
                                                               {&fifth, "from counter 109"}};
  for (const auto& [e, text] : expected) {
    const jet::explanation x = jet::explain(*e + 0);
    INFO(x.operands);
    CHECK(has(x.operands, text));
    CHECK(has(x.operands, "key 0x5eed"));
  }
  CHECK(fourth.size() == 0);
  CHECK(g.offset() == 100);  // where it started
}
