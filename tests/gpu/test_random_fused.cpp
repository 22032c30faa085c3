// Random draws fused into the kernels that read them (Philox4x32-10): each element equals the
// materialized draw's, over every distribution and dtype, broadcast into larger results,
// written through strided and reversed views, inside reductions and scans, and as several
// results of one kernel; a fused draw advances the generator as a materialized one does; and
// fused draws pass the moment and Kolmogorov-Smirnov tests at 2^24 samples.
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpu/random_support.hpp"

namespace {

using namespace jet_test;
using draw_fn = jet::expr (*)(jet::random::generator&, const jet::shape&, jet::dtype);

const std::pair<const char*, draw_fn> fused_draws[] = {
    {"rand",
     [](jet::random::generator& g, const jet::shape& s, jet::dtype t) { return g.rand(s, t); }},
    {"uniform", [](jet::random::generator& g, const jet::shape& s,
                   jet::dtype t) { return g.uniform(-2, 3, s, t); }},
    {"randn",
     [](jet::random::generator& g, const jet::shape& s, jet::dtype t) { return g.randn(s, t); }},
    {"normal", [](jet::random::generator& g, const jet::shape& s,
                  jet::dtype t) { return g.normal(1, 2, s, t); }},
    {"lognormal", [](jet::random::generator& g, const jet::shape& s,
                     jet::dtype t) { return g.lognormal(0, 0.5, s, t); }},
    {"exponential", [](jet::random::generator& g, const jet::shape& s,
                       jet::dtype t) { return g.exponential(2, s, t); }},
};
constexpr jet::dtype float_dtypes[] = {jet::float16, jet::bfloat16, jet::float32, jet::float64};

// Every element as a double (exact for each floating dtype).
std::vector<double> values(const jet::expr& e) {
  return jet::array(e.astype(jet::float64)).to_vector<double>();
}

}  // namespace

TEST_CASE("a fused draw equals the materialized one, element for element", "[gpu][random]") {
  const jet::shape shapes[] = {{1}, {7}, {1000003}, {3, 5, 7}, {0}};
  for (jet::dtype t : float_dtypes) {
    for (const auto& [name, draw] : fused_draws) {
      for (const jet::shape& s : shapes) {
        INFO(name << " " << jet::name(t) << " " << jet::to_string(s));
        jet::random::generator a(11), b(11);
        const jet::array stored = draw(a, s, t);
        CHECK(values(draw(b, s, t) * 3) == values(stored * 3));
        CHECK(values(draw(b, s, t)) == values(draw(a, s, t)));  // the next draws agree too
      }
    }
  }
}

TEST_CASE("a fused draw broadcasts, and writes through strided and reversed views",
          "[gpu][random]") {
  for (jet::dtype t : float_dtypes) {
    for (const auto& [name, draw] : fused_draws) {
      INFO(name << " " << jet::name(t));
      const std::int64_t n = 1001;
      jet::random::generator a(12), b(12), c(12), d(12);
      const std::vector<double> stored = values(draw(a, {n}, t));
      // Along rows and, as a column, along the inner axis.
      const std::vector<double> rows = values(draw(b, {n}, t) + jet::zeros({3, n}, t));
      for (std::int64_t r = 0; r < 3; ++r)
        CHECK(std::vector<double>(rows.begin() + r * n, rows.begin() + (r + 1) * n) == stored);
      const std::vector<double> columns = values(draw(c, {n, 1}, t) + jet::zeros({n, 4}, t));
      for (std::int64_t i = 0; i < n; ++i)
        CHECK(columns[static_cast<std::size_t>(4 * i + 3)] == stored[static_cast<std::size_t>(i)]);
      jet::array out = jet::zeros({2 * n}, t);
      out(jet::slice(0, jet::none, 2)) = draw(d, {n}, t);
      out(jet::slice(2 * n - 1, jet::none, -2)) = draw(d, {n}, t);
      const std::vector<double> both = values(out), again = values(draw(a, {n}, t));
      for (std::int64_t i = 0; i < n; ++i) {
        CHECK(both[static_cast<std::size_t>(2 * i)] == stored[static_cast<std::size_t>(i)]);
        CHECK(both[static_cast<std::size_t>(2 * n - 1 - 2 * i)] ==
              again[static_cast<std::size_t>(i)]);
      }
    }
  }
}

TEST_CASE("fused draws inside reductions, scans and several results", "[gpu][random]") {
  for (jet::dtype t : {jet::float32, jet::float64}) {
    for (const auto& [name, draw] : fused_draws) {
      INFO(name << " " << jet::name(t));
      const std::int64_t n = (1 << 20) + 3;
      jet::random::generator a(13), b(13);
      const jet::array x = draw(a, {n}, t), y = draw(a, {64, 1000}, t), z = draw(a, {5000}, t);
      const jet::expr xf = draw(b, {n}, t), yf = draw(b, {64, 1000}, t), zf = draw(b, {5000}, t);
      CHECK(values(jet::max(xf)) == values(jet::max(x)));
      CHECK(values(jet::min(yf, 1)) == values(jet::min(y, 1)));
      CHECK(values(jet::count_nonzero(yf < 1, 0)) == values(jet::count_nonzero(y < 1, 0)));
      CHECK(values(jet::cumsum(zf)) == values(jet::cumsum(z)));
      const auto [doubled, shifted] = jet::evaluate(xf * 2, xf + 1);
      CHECK(values(doubled) == values(x * 2));
      CHECK(values(shifted) == values(x + 1));
    }
  }
}

TEST_CASE("a fused draw advances the generator as a materialized one does", "[gpu][random]") {
  for (jet::random::algorithm kind :
       {jet::random::algorithm::philox4x32_10, jet::random::algorithm::xorwow}) {
    for (jet::dtype t : float_dtypes) {
      INFO(jet::random::name(kind) << " " << jet::name(t));
      jet::random::generator lazy(14, kind), eager(14, kind);
      const jet::expr unused = lazy.randn({1001}, t);  // never evaluated
      const jet::array used = eager.randn({1001}, t);
      CHECK(values(lazy.rand({77}, t)) == values(eager.rand({77}, t)));
      CHECK(values(lazy.gamma(2.5, 1, {10})) == values(eager.gamma(2.5, 1, {10})));
      CHECK(unused.size() == used.size());
    }
  }
}

TEST_CASE("fused draws pass the moment and Kolmogorov-Smirnov tests at 2^24 samples",
          "[gpu][random]") {
  const std::int64_t n = std::int64_t{1} << 24;
  for (jet::dtype t : {jet::float32, jet::float64}) {
    jet::random::generator g(15);
    const std::string name(jet::name(t));
    check_continuous(
        g.rand({n}, t) * 1, 0.5, 1.0 / 12, [](double x) { return std::clamp(x, 0.0, 1.0); },
        name + " rand");
    check_continuous(g.randn({n}, t) * 1, 0, 1, normal_cdf, name + " randn");
    check_continuous(
        g.exponential(1, {n}, t) * 1, 1, 1,
        [](double x) { return x <= 0 ? 0.0 : 1 - std::exp(-x); }, name + " exponential");
  }
}

TEST_CASE("Monte Carlo pi in one kernel is the materialized draws' count", "[gpu][random]") {
  const std::int64_t n = std::int64_t{1} << 24;
  jet::random::generator a(16), b(16);
  const jet::expr x = a.rand({n}), y = a.rand({n});
  const double fused = jet::array(jet::mean(x * x + y * y < 1)).item<double>();
  const jet::array u = b.rand({n}), v = b.rand({n});
  CHECK(fused == jet::array(jet::mean(u * u + v * v < 1)).item<double>());
  const double p = M_PI / 4;
  CHECK(std::abs(fused - p) <= 5 * std::sqrt(p * (1 - p) / static_cast<double>(n)));
}
