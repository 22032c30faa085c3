// Each distribution of jet::random at 10^7 draws with a fixed seed: mean and variance within
// five standard errors, and Kolmogorov-Smirnov (continuous) or chi-square (discrete) against
// the exact distribution. 16-bit floats are the rounded float32 (or float64) draws of the
// same seed, and rand's 16-bit draws are exactly uniform on their grid.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "gpu/random_support.hpp"

namespace {

using namespace jet_test;

double log_factorial(double k) { return std::lgamma(k + 1); }

double poisson_pmf(double lam, std::int64_t k) {
  const auto kd = static_cast<double>(k);
  return std::exp(kd * std::log(lam) - lam - log_factorial(kd));
}

double binomial_pmf(std::int64_t n, double p, std::int64_t k) {
  const auto nd = static_cast<double>(n), kd = static_cast<double>(k);
  return std::exp(log_factorial(nd) - log_factorial(kd) - log_factorial(nd - kd) +
                  kd * std::log(p) + (nd - kd) * std::log1p(-p));
}

std::string with_dtype(const std::string& what, jet::dtype t) {
  return what + " " + std::string(jet::name(t));
}

}  // namespace

TEST_CASE("rand and random are uniform from 0 up to 1 and never 1", "[gpu][random]") {
  for (jet::dtype t : {jet::float64, jet::float32}) {
    jet::random::generator g(101);
    const jet::array u = g.rand({many / 1000, 1000}, t);
    CHECK(u.dtype() == t);
    CHECK(jet::to_string(u.shape()) == "(10000,1000)");
    CHECK(jet::array(jet::min(u)).item<double>() >= 0.0);
    CHECK(jet::array(jet::max(u)).item<double>() < 1.0);
    check_continuous(
        u, 0.5, 1.0 / 12, [](double x) { return std::clamp(x, 0.0, 1.0); }, with_dtype("rand", t));
  }
  jet::random::generator g(102);
  const jet::array r = g.random({1000}, jet::float32);
  CHECK(r.dtype() == jet::float32);
}

TEST_CASE("16-bit rand is exactly uniform on the grid k / 2^bits", "[gpu][random]") {
  for (jet::dtype t : {jet::float16, jet::bfloat16}) {
    const int bits = t == jet::float16 ? 11 : 8;
    const double cells = std::ldexp(1.0, bits);
    jet::random::generator g(103);
    const std::vector<double> u = doubles(g.rand({many}, t));
    std::vector<std::int64_t> k;
    std::int64_t off_grid = 0;
    for (double v : u) {
      const double scaled = v * cells;
      off_grid += !(scaled >= 0 && scaled < cells && scaled == std::floor(scaled));
      k.push_back(static_cast<std::int64_t>(scaled));
    }
    INFO(jet::name(t));
    CHECK(off_grid == 0);
    check_p_value(
        chi_square(
            k, [&](std::int64_t) { return 1 / cells; }, 0, static_cast<std::int64_t>(cells) - 1),
        with_dtype("rand grid", t));
  }
}

TEST_CASE("uniform(low, high) is uniform from low up to high", "[gpu][random]") {
  for (jet::dtype t : {jet::float64, jet::float32}) {
    jet::random::generator g(104);
    const jet::array x = g.uniform(-2.0, 5.0, {many}, t);
    CHECK(jet::array(jet::min(x)).item<double>() >= -2.0);
    check_continuous(
        x, 1.5, 49.0 / 12, [](double v) { return std::clamp((v + 2.0) / 7.0, 0.0, 1.0); },
        with_dtype("uniform(-2, 5)", t));
  }
}

TEST_CASE("randn, standard_normal and normal follow their normal distributions", "[gpu][random]") {
  for (jet::dtype t : {jet::float64, jet::float32}) {
    jet::random::generator g(105);
    check_continuous(g.randn({many}, t), 0, 1, normal_cdf, with_dtype("randn", t));
    check_continuous(
        g.normal(3.0, 2.0, {many}, t), 3, 4, [](double x) { return normal_cdf((x - 3) / 2); },
        with_dtype("normal(3, 2)", t));
  }
  jet::random::generator a(106), b(106);
  check_same_values(a.standard_normal({999}), b.randn({999}), "standard_normal is randn");
  jet::random::generator c(107);
  const std::vector<double> fixed = doubles(c.normal(-4.5, 0.0, {1001}));
  CHECK(std::count(fixed.begin(), fixed.end(), -4.5) == 1001);
}

TEST_CASE("lognormal and exponential follow their distributions", "[gpu][random]") {
  const double mu = 0.5, sigma = 0.75;
  const double mean = std::exp(mu + sigma * sigma / 2);
  const double variance = (std::exp(sigma * sigma) - 1) * std::exp(2 * mu + sigma * sigma);
  for (jet::dtype t : {jet::float64, jet::float32}) {
    jet::random::generator g(108);
    check_continuous(
        g.lognormal(mu, sigma, {many}, t), mean, variance,
        [&](double x) { return x <= 0 ? 0.0 : normal_cdf((std::log(x) - mu) / sigma); },
        with_dtype("lognormal(0.5, 0.75)", t));
    const jet::array e = g.exponential(2.5, {many}, t);
    CHECK(jet::array(jet::min(e)).item<double>() >= 0.0);
    CHECK(jet::array(jet::all(jet::isfinite(e))).item<bool>());
    check_continuous(
        e, 2.5, 6.25, [](double x) { return x <= 0 ? 0.0 : -std::expm1(-x / 2.5); },
        with_dtype("exponential(2.5)", t));
  }
}

TEST_CASE("gamma follows Gamma(shape, scale) for shapes below and above 1", "[gpu][random]") {
  for (double shape : {0.3, 1.0, 3.7, 250.0}) {
    jet::random::generator g(109);
    const double scale = 2.0;
    check_continuous(
        g.gamma(shape, scale, {many}), shape * scale, shape * scale * scale,
        [&](double x) { return regularized_gamma_p(shape, x / scale); },
        "gamma(" + std::to_string(shape) + ", 2)");
  }
  // float32 results come from the single-precision sampler (16-bit ones are its values rounded:
  // "16-bit floats are the rounded draws of the same seed").
  for (double shape : {0.3, 2.5, 250.0}) {
    jet::random::generator g(112);
    const jet::array x = g.gamma(shape, 2.0, {many}, jet::float32);
    CHECK(x.dtype() == jet::float32);
    check_continuous(
        x, shape * 2, shape * 4, [&](double v) { return regularized_gamma_p(shape, v / 2); },
        "gamma(" + std::to_string(shape) + ", 2) float32");
  }
  jet::random::generator g(110);
  const std::vector<double> zeros = doubles(g.gamma(0.0, 3.0, {5}));
  CHECK(std::count(zeros.begin(), zeros.end(), 0.0) == 5);
}

TEST_CASE("beta follows Beta(a, b), small parameters included", "[gpu][random]") {
  // Small b is kept at 0.3: doubles near 1 are 1.1e-16 apart, and Beta(0.2, 0.1) puts 1.7% of
  // its mass that close to 1, where every draw rounds to 1.0 and no exact CDF can match
  // (Kolmogorov-Smirnov saw exactly that 0.017). Near 0 doubles are dense: a stays small.
  const double cases[][2] = {{0.5, 0.5}, {2.0, 5.0}, {0.1, 0.3}};
  for (const auto& c : cases) {
    const double a = c[0], b = c[1];
    jet::random::generator g(111);
    const jet::array x = g.beta(a, b, {many});
    CHECK(jet::array(jet::min(x)).item<double>() >= 0.0);
    CHECK(jet::array(jet::max(x)).item<double>() <= 1.0);
    check_continuous(
        x, a / (a + b), a * b / ((a + b) * (a + b) * (a + b + 1)),
        [&](double v) { return regularized_beta(a, b, v); },
        "beta(" + std::to_string(a) + ", " + std::to_string(b) + ")");
  }
}

TEST_CASE("16-bit floats are the rounded draws of the same seed", "[gpu][random]") {
  for (jet::dtype t : {jet::float16, jet::bfloat16}) {
    const jet::shape s{1001, 3};  // odd, so normal draws one extra value and hides it
    const auto both = [&](auto draw) {
      jet::random::generator narrow(112), wide(112);
      return std::pair(draw(narrow, t), draw(wide, jet::float32));
    };
    const auto same = [&](auto draw, const std::string& what) {
      const auto [narrow, wide] = both(draw);
      CHECK(narrow.dtype() == t);
      check_same_values(narrow, wide, with_dtype(what, t));
    };
    same([&](jet::random::generator& g, jet::dtype d) { return g.randn(s, d); }, "randn");
    same([&](jet::random::generator& g, jet::dtype d) { return g.normal(1, 3, s, d); }, "normal");
    same([&](jet::random::generator& g, jet::dtype d) { return g.lognormal(0, 1, s, d); },
         "lognormal");
    same([&](jet::random::generator& g, jet::dtype d) { return g.uniform(-1, 4, s, d); },
         "uniform");
    same([&](jet::random::generator& g, jet::dtype d) { return g.exponential(0.5, s, d); },
         "exponential");
    // gamma computes in float32 for them, beta in float64.
    jet::random::generator a(113), b(113), c(114), d(114);
    check_same_values(a.gamma(2.5, 1.0, s, t), b.gamma(2.5, 1.0, s, jet::float32),
                      with_dtype("gamma", t));
    check_same_values(c.beta(2.0, 3.0, s, t), d.beta(2.0, 3.0, s), with_dtype("beta", t));
  }
}

TEST_CASE("poisson follows Poisson(lam) for small and large means", "[gpu][random]") {
  for (double lam : {0.7, 6.0, 10.0, 73.5, 1e4}) {
    jet::random::generator g(116);
    const jet::array k = g.poisson(lam, {many});
    CHECK(k.dtype() == jet::int64);
    const auto spread = static_cast<std::int64_t>(12 * std::sqrt(lam) + 20);
    const auto centre = static_cast<std::int64_t>(lam);
    check_discrete(
        k, lam, lam, [&](std::int64_t v) { return poisson_pmf(lam, v); },
        std::max<std::int64_t>(0, centre - spread), centre + spread,
        "poisson(" + std::to_string(lam) + ")");
  }
  jet::random::generator g(117);
  CHECK(integers(g.poisson(0.0, {4})) == std::vector<std::int64_t>(4, 0));
}

TEST_CASE("binomial follows Binomial(n, p) by inversion and by BTRD", "[gpu][random]") {
  struct trial {
    std::int64_t n;
    double p;
  };
  const trial cases[] = {{10, 0.3}, {60, 0.5}, {1000, 0.02}, {500000, 0.73}, {7, 0.999}};
  for (const trial& t : cases) {
    jet::random::generator g(118);
    const jet::array k = g.binomial(t.n, t.p, {many});
    CHECK(k.dtype() == jet::int64);
    const double mean = static_cast<double>(t.n) * t.p;
    const double spread = 12 * std::sqrt(mean * (1 - t.p)) + 20;
    check_discrete(
        k, mean, mean * (1 - t.p), [&](std::int64_t v) { return binomial_pmf(t.n, t.p, v); },
        std::max<std::int64_t>(0, static_cast<std::int64_t>(mean - spread)),
        std::min<std::int64_t>(t.n, static_cast<std::int64_t>(mean + spread)),
        "binomial(" + std::to_string(t.n) + ", " + std::to_string(t.p) + ")");
  }
  jet::random::generator g(119);
  CHECK(integers(g.binomial(9, 1.0, {3})) == std::vector<std::int64_t>(3, 9));
  CHECK(integers(g.binomial(9, 0.0, {3})) == std::vector<std::int64_t>(3, 0));
  CHECK(integers(g.binomial(0, 0.5, {3})) == std::vector<std::int64_t>(3, 0));
}

TEST_CASE("randint is uniform on NumPy's half-open range", "[gpu][random]") {
  struct range_case {
    std::int64_t low, high;
    jet::dtype t;
  };
  const range_case cases[] = {{0, 10, jet::int64},       {-5, 7, jet::int8},
                              {0, 256, jet::uint8},      {-32768, 32768, jet::int16},
                              {3, 13, jet::uint64},      {0, 2, jet::bool_},
                              {-1000, 1000, jet::int32}, {0, 65536, jet::uint16}};
  for (const range_case& c : cases) {
    jet::random::generator g(120);
    const jet::array k = g.randint(c.low, c.high, {many}, c.t);
    CHECK(k.dtype() == c.t);
    const auto width = static_cast<double>(c.high - c.low);
    check_discrete(
        k, (static_cast<double>(c.low) + static_cast<double>(c.high) - 1) / 2,
        (width * width - 1) / 12, [&](std::int64_t) { return 1 / width; }, c.low, c.high - 1,
        "randint(" + std::to_string(c.low) + ", " + std::to_string(c.high) + ") " +
            std::string(jet::name(c.t)));
  }
  jet::random::generator g(121), h(121);
  check_same_values(g.integers(0, 50, {100}, jet::int32), h.randint(0, 50, {100}, jet::int32),
                    "integers is randint");
}
