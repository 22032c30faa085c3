// The random kernels' device code (src/random/device_algorithms.hpp) compiled for the CPU: Philox
// against Random123's known answers, exact integer ranges, and every sampler against its
// exact distribution (10^6 draws, 2.5 10^5 for the costlier continuous ones in a Debug build).
// The GPU runs the same source through NVRTC.
#include <math.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <string>
#include <vector>

#include "support/catch.hpp"
#include "support/statistics.hpp"

#define JET_RNG_FN inline
#define JET_RNG_OUTLINED inline
#include "codegen/render/philox.h"
#include "src/random/device_algorithms.hpp"

namespace {

using namespace jet_test;

constexpr int draws = 1000000;
constexpr int continuous_draws = 250000;
constexpr double min_p_value = 1e-4;

// Element i of a launch keyed by these words, as a kernel would make it.
jet_rng_stream stream_for(std::uint64_t i, unsigned int salt = 0) {
  const unsigned int key[4] = {0x12345678u + salt, 0x9abcdef0u, 0x0badf00du + salt, 0};
  return jet_rng_start(key, i);
}

template <class F>
std::vector<double> sample_reals(F&& draw, unsigned int salt, int count = continuous_draws) {
  std::vector<double> x(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    jet_rng_stream s = stream_for(static_cast<std::uint64_t>(i), salt);
    x[static_cast<std::size_t>(i)] = draw(s);
  }
  return x;
}

template <class F>
std::vector<std::int64_t> sample_counts(F&& draw, unsigned int salt) {
  std::vector<std::int64_t> k(draws);
  for (int i = 0; i < draws; ++i) {
    jet_rng_stream s = stream_for(static_cast<std::uint64_t>(i), salt);
    k[static_cast<std::size_t>(i)] = draw(s);
  }
  return k;
}

void check_fit(const fit& f, const std::string& what) {
  INFO(what << ": " << f.describe());
  CHECK(f.p_value >= min_p_value);
}

double log_binomial_pmf(std::int64_t n, double p, std::int64_t k) {
  const double nd = static_cast<double>(n), kd = static_cast<double>(k);
  return std::lgamma(nd + 1) - std::lgamma(kd + 1) - std::lgamma(nd - kd + 1) + kd * std::log(p) +
         (nd - kd) * std::log1p(-p);
}

}  // namespace

TEST_CASE("Philox4x32-10 gives Random123's known answers", "[host][random]") {
  struct known {
    unsigned int counter[4];
    unsigned int key[2];
    unsigned int out[4];
  };
  const known answers[] = {
      {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}},
      {{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu},
       {0xffffffffu, 0xffffffffu},
       {0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}},
      {{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u},
       {0xa4093822u, 0x299f31d0u},
       {0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}},
  };
  for (const known& k : answers) {
    const jet_philox_block b = jet_philox(k.counter, k.key[0], k.key[1]);
    for (int i = 0; i < 4; ++i) CHECK(b.v[i] == k.out[i]);
  }
}

TEST_CASE("an element's stream walks Philox blocks, and elements and launches differ",
          "[host][random]") {
  jet_rng_stream s = stream_for(5);
  const unsigned int key[4] = {0x12345678u, 0x9abcdef0u, 0x0badf00du, 0};
  for (unsigned int block = 0; block < 3; ++block) {
    const unsigned int counter[4] = {5, 0, block, key[2]};
    const jet_philox_block b = jet_philox(counter, key[0], key[1]);
    for (int i = 0; i < 4; ++i) CHECK(jet_rng_next32(s) == b.v[i]);
  }
  jet_rng_stream far = stream_for(std::uint64_t{1} << 40), other = stream_for(5, 1);
  jet_rng_stream same = stream_for(5);
  const unsigned int first = jet_rng_next32(same);
  CHECK(jet_rng_next32(far) != first);
  CHECK(jet_rng_next32(other) != first);
}

TEST_CASE("uniform doubles lie in 0 <= u < 1 and 0 < u <= 1 and are uniform", "[host][random]") {
  const std::vector<double> u = sample_reals(jet_rng_uniform, 0, draws);
  CHECK(std::count_if(u.begin(), u.end(), [](double v) { return !(v >= 0 && v < 1); }) == 0);
  check_fit(kolmogorov_smirnov(u, [](double x) { return x; }), "uniform");
  const std::vector<double> positive = sample_reals(jet_rng_uniform_positive, 1);
  CHECK(std::count_if(positive.begin(), positive.end(),
                      [](double v) { return !(v > 0 && v <= 1); }) == 0);
  check_fit(kolmogorov_smirnov(sample_reals(jet_rng_normal, 2), normal_cdf), "normal");
}

TEST_CASE("mulhi64 is the high half of the 128-bit product", "[host][random]") {
  __extension__ using u128 = unsigned __int128;
  jet_rng_stream s = stream_for(0);
  const std::uint64_t edges[] = {0, 1, 0xffffffffull, 0x100000000ull, ~0ull, ~0ull - 1, 1ull << 63};
  for (std::uint64_t a : edges)
    for (std::uint64_t b : edges)
      CHECK(jet_rng_mulhi64(a, b) == static_cast<std::uint64_t>((u128{a} * b) >> 64));
  for (int i = 0; i < 100000; ++i) {
    const std::uint64_t a = jet_rng_next64(s), b = jet_rng_next64(s);
    REQUIRE(jet_rng_mulhi64(a, b) == static_cast<std::uint64_t>((u128{a} * b) >> 64));
  }
}

TEST_CASE("below draws every value of a range equally often, at any width", "[host][random]") {
  const std::vector<std::int64_t> six = sample_counts(
      [](jet_rng_stream& s) { return static_cast<std::int64_t>(jet_rng_below(s, 6)); }, 0);
  check_fit(chi_square(
                six, [](std::int64_t) { return 1.0 / 6; }, 0, 5),
            "range 6");
  // A range just above 2^63: without rejection, multiply-high would favour the low half twice
  // over; binned by the top bits, the exact method is uniform.
  const std::uint64_t range = (1ull << 63) + (1ull << 61);
  std::int64_t outside = 0;
  const std::vector<std::int64_t> bins = sample_counts(
      [&](jet_rng_stream& s) {
        const std::uint64_t v = jet_rng_below(s, range);
        outside += v >= range;
        return static_cast<std::int64_t>(v / (range / 10));
      },
      1);
  CHECK(outside == 0);
  check_fit(chi_square(
                bins, [](std::int64_t) { return 0.1; }, 0, 9),
            "range 2^63 + 2^61, ten bins");
  jet_rng_stream a = stream_for(3), b = stream_for(3);
  CHECK(jet_rng_below(a, 0) == jet_rng_next64(b));  // range 0 is 2^64: the word itself
}

TEST_CASE("gamma variates follow Gamma(shape, 1)", "[host][random]") {
  for (double shape : {0.05, 0.3, 1.0, 2.5, 37.0, 1e4}) {
    const std::vector<double> x =
        sample_reals([&](jet_rng_stream& s) { return jet_rng_gamma(s, shape); }, 3);
    check_fit(kolmogorov_smirnov(x, [&](double v) { return regularized_gamma_p(shape, v); }),
              "gamma shape " + std::to_string(shape));
    const moments m = moments_of(x);
    CHECK(std::abs(m.mean - shape) <= 5 * m.mean_error);
    CHECK(std::abs(m.variance - shape) <= 5 * m.variance_error);
  }
}

TEST_CASE("single-precision gamma variates follow Gamma(shape, 1)", "[host][random]") {
  // Below a shape of about 0.3, a share of float32 variates falls under float's smallest
  // values (1.3% at 0.05): those are checked finite and non-negative, not against the CDF.
  for (double shape : {0.3, 1.0, 2.5, 37.0, 1e4}) {
    const std::vector<double> x = sample_reals(
        [&](jet_rng_stream& s) { return jet_rng_gamma_f(s, static_cast<float>(shape)); }, 5);
    check_fit(kolmogorov_smirnov(x, [&](double v) { return regularized_gamma_p(shape, v); }),
              "float gamma shape " + std::to_string(shape));
    const moments m = moments_of(x);
    CHECK(std::abs(m.mean - shape) <= 5 * m.mean_error);
    CHECK(std::abs(m.variance - shape) <= 5 * m.variance_error);
  }
  const std::vector<double> tiny =
      sample_reals([&](jet_rng_stream& s) { return jet_rng_gamma_f(s, 0.05f); }, 6);
  CHECK(std::all_of(tiny.begin(), tiny.end(), [](double v) { return v >= 0 && std::isfinite(v); }));
}

TEST_CASE("beta variates follow Beta(a, b), small parameters included", "[host][random]") {
  const double cases[][2] = {{0.5, 0.5}, {2, 5}, {1, 1}, {0.1, 0.3}, {40, 3}};
  for (const auto& c : cases) {
    const double a = c[0], b = c[1];
    const std::vector<double> x =
        sample_reals([&](jet_rng_stream& s) { return jet_rng_beta(s, a, b); }, 4);
    CHECK(std::count_if(x.begin(), x.end(), [](double v) { return !(v >= 0 && v <= 1); }) == 0);
    check_fit(kolmogorov_smirnov(x, [&](double v) { return regularized_beta(a, b, v); }),
              "beta " + std::to_string(a) + ", " + std::to_string(b));
  }
}

TEST_CASE("poisson counts follow Poisson(lam) on both sides of the method switch",
          "[host][random]") {
  for (double lam : {0.3, 4.0, 9.99, 10.0, 27.5, 1000.0, 123456.0}) {
    const std::vector<std::int64_t> k =
        sample_counts([&](jet_rng_stream& s) { return jet_rng_poisson(s, lam); }, 5);
    const auto spread = static_cast<std::int64_t>(12 * std::sqrt(lam) + 20);
    const auto centre = static_cast<std::int64_t>(lam);
    check_fit(chi_square(
                  k,
                  [&](std::int64_t v) {
                    const double vd = static_cast<double>(v);
                    return std::exp(vd * std::log(lam) - lam - std::lgamma(vd + 1));
                  },
                  std::max<std::int64_t>(0, centre - spread), centre + spread),
              "poisson " + std::to_string(lam));
  }
}

TEST_CASE("binomial counts follow Binomial(n, p) by inversion and by BTRD", "[host][random]") {
  struct trial {
    std::int64_t n;
    double p;
  };
  // Inversion (n min(p, q) < 10), BTRD, p > 1/2 by symmetry, the switch point, large n.
  const trial cases[] = {{15, 0.2},    {50, 0.9},      {20, 0.5}, {100, 0.3},
                         {1000, 0.02}, {1000000, 0.4}, {77, 0.77}};
  for (const trial& t : cases) {
    const std::vector<std::int64_t> k =
        sample_counts([&](jet_rng_stream& s) { return jet_rng_binomial(s, t.n, t.p); }, 6);
    CHECK(std::count_if(k.begin(), k.end(), [&](std::int64_t v) { return v < 0 || v > t.n; }) == 0);
    check_fit(
        chi_square(
            k, [&](std::int64_t v) { return std::exp(log_binomial_pmf(t.n, t.p, v)); }, 0, t.n),
        "binomial " + std::to_string(t.n) + ", " + std::to_string(t.p));
  }
  jet_rng_stream s = stream_for(0);
  CHECK(jet_rng_binomial(s, 0, 0.5) == 0);
  CHECK(jet_rng_binomial(s, 12, 0.0) == 0);
  CHECK(jet_rng_binomial(s, 12, 1.0) == 12);
}

TEST_CASE("Stirling's error term: the table formula meets the series", "[host][random]") {
  CHECK(std::abs(jet_rng_stirling_error(0) - (1 - 0.5 * std::log(2 * std::numbers::pi))) <= 1e-15);
  for (double k : {10.0, 11.0, 30.0, 1000.0}) {
    const double direct = std::lgamma(k + 1) - (k + 0.5) * std::log(k + 1) + (k + 1) -
                          0.5 * std::log(2 * std::numbers::pi);
    CHECK(std::abs(jet_rng_stirling_error(k) - direct) <= 1e-8 * direct);
  }
}

TEST_CASE("the reference CDFs match closed forms", "[host][random]") {
  for (double x : {0.01, 0.3, 1.0, 2.5, 10.0, 40.0}) {
    CHECK(std::abs(regularized_gamma_p(1, x) - (1 - std::exp(-x))) <= 1e-13);
    CHECK(std::abs(regularized_gamma_p(0.5, x) - (std::erf(std::sqrt(x)))) <= 1e-13);
  }
  for (double x : {0.001, 0.2, 0.5, 0.77, 0.999}) {
    CHECK(std::abs(regularized_beta(1, 1, x) - (x)) <= 1e-13);
    CHECK(std::abs(regularized_beta(3, 1, x) - (x * x * x)) <= 1e-13);
    CHECK(std::abs(regularized_beta(1, 4, x) - (1 - std::pow(1 - x, 4))) <= 1e-13);
    CHECK(std::abs(regularized_beta(0.5, 0.5, x) -
                   (2 / std::numbers::pi * std::asin(std::sqrt(x)))) <= 1e-12);
  }
  CHECK(std::abs(kolmogorov_tail(1.36) - (0.0494)) <= 5e-4);
}
