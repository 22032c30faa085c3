// jet::evaluate(e1, e2, ...) and jet::assign: several results from one kernel equal, bit for
// bit, the results of evaluating each expression alone, over dtypes, broadcast and strided
// operands, views as outputs and outputs that overlap the inputs or each other; reductions
// sharing a pass equal each reduction alone (within a variance's last bits).
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
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

// The dtypes whose results may differ in the last bits (a variance's merges depend on how the
// work was cut): within `tolerance` (of the result's magnitude plus one), else bit for bit.
double tolerance(jet::dtype t) {
  switch (t) {
    case jet::float16:
    case jet::bfloat16: return 1e-2;
    case jet::float32:
    case jet::complex64: return 1e-5;
    case jet::float64:
    case jet::complex128: return 1e-12;
    default: return 0;
  }
}

// Whole numbers in [-4, 4] as dtype t: sums of them are exact in every floating dtype's
// accumulator, so that sums in another order are bit for bit the same.
jet::array small_integers(std::mt19937& rng, jet::dtype t, const jet::shape& s) {
  const jet::array wide = jet_test::random_sample(rng, jet::int16, s).device;
  return jet::array(jet::remainder(wide, 9) - 4).astype(t);
}

// Elements of `got` within `tol` of `want`'s (of their magnitude plus one), or both NaN.
void check_near(const jet::array& got, const jet::array& want, double tol) {
  using c = std::complex<double>;
  const std::vector<c> a = got.astype(jet::complex128).to_vector<c>();
  const std::vector<c> b = want.astype(jet::complex128).to_vector<c>();
  for (std::size_t i = 0; i < a.size(); ++i) {
    const bool same = a[i] == b[i] || (std::isnan(a[i].real()) && std::isnan(b[i].real()));
    INFO(i << ": " << a[i] << " and " << b[i]);
    CHECK((same || std::abs(a[i] - b[i]) <= tol * (std::abs(b[i]) + 1)));
  }
}

// Each result of evaluate(list) against the expression evaluated alone, bit for bit; with
// `tolerant`, floating results within tolerance(dtype).
void check_together(bool tolerant, const std::vector<jet::expr>& list) {
  const std::vector<jet::array> together = jet::evaluate(list);
  REQUIRE(together.size() == list.size());
  for (std::size_t k = 0; k < list.size(); ++k) {
    INFO("result " << k);
    const jet::array alone = list[k].eval();
    CHECK(together[k].dtype() == alone.dtype());
    CHECK(together[k].shape() == alone.shape());
    const double tol = tolerant ? tolerance(alone.dtype()) : 0;
    if (tol == 0)
      CHECK(bytes_of(together[k]) == bytes_of(alone));
    else
      check_near(together[k], alone, tol);
  }
}
void check_together(const std::vector<jet::expr>& list) { check_together(false, list); }

// The layouts of the reduction passes tested: a whole vector, rows, columns, two axes of three.
struct pass_layout {
  jet::shape shape;
  jet::axes axis;
};
const pass_layout pass_layouts[] = {
    {{1000003}, {}}, {{64, 1000}, 1}, {{1000, 7}, 0}, {{3, 5, 7}, {0, 2}}};

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
  const black_scholes::call_and_put both = black_scholes::prices(s, x, t, r, v);
  const jet::expr call = both.call, put = both.put;
  // The call built apart shares no node with the put: their equal parts are found all the same.
  const jet::expr call_apart = black_scholes::call(s, x, t, r, v);
  check_together({call, put});
  check_together({call_apart, put});
  // What the two formulas share is computed once: three exponentials, one logarithm.
  for (const jet::expr& first : {call, call_apart}) {
    const std::string source = jet::explain(std::vector<jet::expr>{first, put}).source;
    auto count = [&](const std::string& what) {
      std::size_t n = 0;
      for (std::size_t at = source.find(what); at != std::string::npos;
           at = source.find(what, at + 1))
        ++n;
      return n;
    };
    CHECK(count("exp(") == 3);
    CHECK(count("log(") == 1);
  }
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

TEST_CASE("reductions of the same axes from one pass equal each alone", "[gpu][together]") {
  std::mt19937 rng(20261207);
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    for (const pass_layout& l : pass_layouts) {
      INFO(jet::name(t) << " " << jet::to_string(l.shape));
      const jet::array x = small_integers(rng, t, l.shape), y = small_integers(rng, t, l.shape);
      check_together(true, {jet::sum(x, l.axis), jet::sum(x * y, l.axis), jet::max(x, l.axis),
                            jet::min(y, l.axis), jet::mean(x, l.axis), jet::var(x, l.axis),
                            jet::nansum(y, l.axis), jet::all(x, l.axis), jet::any(y, l.axis),
                            jet::count_nonzero(x, l.axis), jet::argmax(x)});
      check_together(true, {jet::sum(x, l.axis, true), jet::nanmax(y, l.axis, true),
                            jet::nanmean(x, l.axis, true), jet::std(x, l.axis, 1, true)});
    }
    // A reversed, strided operand, and reductions of other axes beside them.
    const jet::array m = small_integers(rng, t, {3, 5, 7});
    const jet::array view =
        m(jet::slice(jet::none, jet::none, -1), jet::slice(), jet::slice(1, 7, 2));
    check_together(
        true, {jet::sum(view, 1), jet::max(view, 1), jet::sum(view, 0), jet::mean(view * 2, 1)});
  }
}

TEST_CASE("a pass stores the expressions of the shape it reduces, each equal to it alone",
          "[gpu][together]") {
  std::mt19937 rng(20261208);
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    for (const pass_layout& l : pass_layouts) {
      INFO(jet::name(t) << " " << jet::to_string(l.shape));
      const jet::array x = small_integers(rng, t, l.shape), w = small_integers(rng, t, l.shape);
      const jet::expr y = x * w + x;
      check_together(true, {y, jet::sum(y, l.axis), y == x, jet::mean(x, l.axis), x * 2});
    }
    // Into views: a target one element past an aligned start (the rows' vectors do not apply),
    // a reversed one, and a target of another dtype.
    const std::int64_t n = 100003;
    const jet::array x = small_integers(rng, t, {n}), w = small_integers(rng, t, {n});
    const jet::expr y = x * w;
    jet::array shifted = jet::zeros({n + 1}, t), reversed = jet::zeros({n}, t);
    jet::array wide = jet::zeros({n}, jet::complex128), total = jet::zeros({}, t);
    jet::assign({{shifted(jet::slice(1, jet::none)), y},
                 {total, jet::sum(y)},
                 {reversed(jet::slice(jet::none, jet::none, -1)), y + 1},
                 {wide, y}});
    const jet::array alone = y.eval();
    CHECK(bytes_of(shifted(jet::slice(1, jet::none)).copy()) == bytes_of(alone));
    CHECK(bytes_of(reversed(jet::slice(jet::none, jet::none, -1)).copy()) ==
          bytes_of((y + 1).eval().astype(t)));  // bool + 1 is int64, cast as the target is
    CHECK(bytes_of(wide) == bytes_of(alone.astype(jet::complex128)));
    check_near(total, jet::sum(y).eval().astype(t), tolerance(t));  // cast as the target is
  }
  // One kernel computes a result and its sum: each launch looks its kernel up in the cache once.
  const jet::array big = small_integers(rng, jet::float32, {1 << 20});
  const jet::expr f = big * 2 + 1;
  const auto lookups = [] {
    const jet::cache::statistics s = jet::cache::stats();
    return s.memory_hits + s.disk_hits + s.compiles;
  };
  jet::evaluate(f, jet::sum(f));
  const std::uint64_t before = lookups();
  const auto [values, sum] = jet::evaluate(f, jet::sum(f));
  CHECK(lookups() == before + 1);
  CHECK(bytes_of(values) == bytes_of(f.eval()));
}
