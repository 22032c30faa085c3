// jet::evaluate(e1, e2, ...) and jet::assign: several results from one kernel equal, bit for
// bit, the results of evaluating each expression alone, over dtypes, broadcast and strided
// operands, views as outputs and outputs that overlap the inputs or each other.
#include <cstddef>
#include <random>
#include <string>
#include <vector>

#include "examples/black_scholes.hpp"
#include "gpu/samples.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

std::vector<unsigned char> bytes_of(const jet::array& a) {
  std::vector<unsigned char> out(static_cast<std::size_t>(a.nbytes()));
  a.to_host(out.data(), a.dtype());
  return out;
}

// Each result of evaluate(list) against the expression evaluated alone, bit for bit.
void check_together(const std::vector<jet::expr>& list) {
  const std::vector<jet::array> together = jet::evaluate(list);
  REQUIRE(together.size() == list.size());
  for (std::size_t k = 0; k < list.size(); ++k) {
    INFO("result " << k);
    const jet::array alone = list[k].eval();
    CHECK(together[k].dtype() == alone.dtype());
    CHECK(together[k].shape() == alone.shape());
    CHECK(bytes_of(together[k]) == bytes_of(alone));
  }
}

}  // namespace

TEST_CASE("evaluate of several expressions equals each alone, over dtypes and layouts",
          "[gpu][together]") {
  std::mt19937 rng(20261206);
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    INFO(jet::name(t));
    for (const jet::shape& s : {jet::shape{1}, jet::shape{7}, jet::shape{1000003},
                                jet::shape{3, 5, 7}, jet::shape{0, 4}}) {
      INFO(jet::to_string(s));
      const jet::array a = jet_test::random_sample(rng, t, s).device;
      const jet::array b = jet_test::random_sample(rng, t, s).device;
      const jet::expr shared = a * b;
      check_together({shared + a, jet::expr(shared).astype(jet::float64), a == b, b});
    }
    // Broadcast and strided (transposed, reversed) operands.
    const jet::array m = jet_test::random_sample(rng, t, {3, 5, 7}).device;
    const jet::array row = jet_test::random_sample(rng, t, {7}).device;
    const jet::array view = m(jet::slice(jet::none, jet::none, -1), jet::slice(), jet::slice());
    check_together({view + row, m.transpose(2, 1, 0).transpose(2, 1, 0) * row, view * m + view});
  }
}

TEST_CASE("Black-Scholes call and put from one kernel", "[gpu][together]") {
  const std::int64_t n = 100003;
  const jet::array s = black_scholes::uniform(n, 5.0, 30.0, 1);
  const jet::array x = black_scholes::uniform(n, 1.0, 100.0, 2);
  const jet::array t = black_scholes::uniform(n, 0.25, 10.0, 3);
  const double r = 0.02, v = 0.3;
  const jet::expr call = black_scholes::call(s, x, t, r, v),
                  put = black_scholes::put(s, x, t, r, v);
  check_together({call, put});
  // What the two formulas share is computed once: three exponentials, one logarithm.
  const std::string source = jet::explain(std::vector<jet::expr>{call, put}).source;
  auto count = [&](const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = source.find(what); at != std::string::npos;
         at = source.find(what, at + 1))
      ++n;
    return n;
  };
  CHECK(count("exp(") == 3);
  CHECK(count("log(") == 1);
  auto [c, p] = jet::evaluate(call, put);
  // Put-call parity: C - P = S - X e^(-rT).
  CHECK(jet::allclose(c - p, s - x * jet::exp(-r * t), 1e-9, 1e-6));
  // Into existing arrays: the same values as the hand-written two-output kernel.
  jet::array call_out = jet::empty({n}), put_out = jet::empty({n});
  jet::assign({{call_out, call}, {put_out, put}});
  jet::array call_kernel = jet::empty({n}), put_kernel = jet::empty({n});
  black_scholes::kernel()(s, x, t, r, v, call_kernel, put_kernel);
  CHECK(jet::allclose(call_out, call_kernel, 1e-12, 1e-12));
  CHECK(jet::allclose(put_out, put_kernel, 1e-12, 1e-12));
}

TEST_CASE("evaluate with results of several shapes, reductions and many outputs",
          "[gpu][together]") {
  const jet::array x = jet::arange(12).astype(jet::float32).reshape(3, 4);
  const jet::array col = jet::arange(4).astype(jet::float32);
  // (3, 4) and (4,) results, reductions at the top and inside.
  auto [a, b, c, d] = jet::evaluate(x * 2, col + 1, jet::sum(x, 0), x - jet::mean(x));
  CHECK(a.to_vector<float>() == (x * 2).eval().to_vector<float>());
  CHECK(b.to_vector<float>() == std::vector<float>{1, 2, 3, 4});
  CHECK(c.to_vector<float>() == std::vector<float>{12, 15, 18, 21});
  CHECK(d.to_vector<float>() == (x - 5.5f).eval().to_vector<float>());
  // More outputs than one kernel writes.
  std::vector<jet::expr> many;
  for (int k = 0; k < 40; ++k) many.push_back(x * static_cast<float>(k) + col);
  check_together(many);
}

TEST_CASE("assign writes several views, as a tuple assignment does", "[gpu][together]") {
  jet::array a = jet::arange(10).astype(jet::float64);
  jet::array b = jet::arange(10, 20).astype(jet::float64);
  // Each value from the arrays as they were before the writes.
  jet::assign({{a, b * 2}, {b, a + 1}});
  CHECK(a.to_vector<double>() == (jet::arange(10, 20) * 2.0).eval().to_vector<double>());
  CHECK(b.to_vector<double>() == (jet::arange(10) + 1.0).eval().to_vector<double>());
  // The same across a reduction and a result of another shape, which run as kernels of their own.
  jet::array total = jet::zeros({}, jet::float64);
  jet::assign({{total, jet::sum(b)}, {b, b + total}});
  CHECK(total.item<double>() == 55.0);
  CHECK(b.to_vector<double>() == (jet::arange(10) + 1.0).eval().to_vector<double>());
  // Views as targets, a broadcast value, a cast to the target's dtype.
  jet::array m = jet::zeros({4, 6}, jet::int32);
  jet::array v = jet::zeros({4}, jet::float32);
  const jet::array row = jet::arange(3).astype(jet::float64);
  jet::assign({{m(jet::slice(), jet::slice(0, 6, 2)), row * 1.5},
               {m(jet::slice(), jet::slice(1, 6, 2)), -row},
               {v, jet::arange(4) / 2}});
  CHECK(m.to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 0,  1, -1, 3, -2, 0, 0,
                                                                 1, -1, 3, -2, 0, 0,  1, -1,
                                                                 3, -2, 0, 0,  1, -1, 3, -2});
  CHECK(v.to_vector<float>() == std::vector<float>{0, 0.5f, 1, 1.5f});
  // A shifted read of a target stages: values first, then the writes.
  jet::array s = jet::arange(6).astype(jet::float32);
  jet::array t = jet::zeros({5}, jet::float32);
  jet::assign(
      {{s(jet::slice(1, jet::none)), s(jet::slice(0, -1))}, {t, s(jet::slice(1, jet::none))}});
  CHECK(s.to_vector<float>() == std::vector<float>{0, 0, 1, 2, 3, 4});
  CHECK(t.to_vector<float>() == std::vector<float>{1, 2, 3, 4, 5});
  // Targets that overlap each other: the later one's values are left.
  jet::array o = jet::zeros({4}, jet::int64);
  jet::assign({{o, jet::full({4}, 1, jet::int64)},
               {o(jet::slice(2, jet::none)), jet::full({2}, 2, jet::int64)}});
  CHECK(o.to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 1, 2, 2});
  // Shapes that do not broadcast to the target raise NumPy's error.
  CHECK_THROWS_AS(jet::assign({{a, jet::arange(3)}}), jet::shape_error);
}
