// Reductions on a GPU against host references in long double: every reduction over every dtype
// it takes, axis spec and input layout; sizes from 0 to 2^20 + 3 and past 2^31 elements; fused
// inputs, results written into views, member forms, dtype arguments, and var/std precision.
// NaN placement, ties, empty reductions and norms are in test_reduce_nan.cpp.
#include <cmath>
#include <cstdint>
#include <iterator>
#include <random>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "gpu/reduce_reference.hpp"

namespace {

using namespace jet_test;

const jet::shape table_shape{3, 5, 7};
const input_layout all_layouts[] = {input_layout::contiguous, input_layout::transposed,
                                    input_layout::sliced, input_layout::broadcast};

// Contiguous inputs take every axis spec; the other layouts a spread of them.
std::vector<axis_spec> axis_specs(input_layout l) {
  if (l == input_layout::contiguous)
    return {every_axis(),  along({0}),       along({1}),       along({-1}),
            along({0, 2}), along({1}, true), every_axis(true), along({-1, 0}, true)};
  return {every_axis(), along({1}), along({-1}, true), along({0, 2})};
}

template <yields Y, unsigned Kinds, class Ref>
void check_table(const reduction<Y, Kinds, Ref>& op) {
  for (jet::dtype t : all_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      if constexpr ((Kinds & kind_of<T>()) != 0) {
        std::uint32_t salt = 0;
        for (input_layout l : all_layouts) {
          for (const axis_spec& spec : axis_specs(l)) {
            if (!takes(op, spec)) continue;
            INFO(op.name << "(" << jet::name(t) << " " << jet::to_string(table_shape) << ", "
                         << spec.text() << "), " << name(l));
            guarded([&] {
              std::mt19937 rng = seeded(op.name, t, ++salt);
              check_case(op, reduction_input<T>(rng, table_shape, l, op.inputs), spec);
            });
          }
        }
      }
    });
  }
}

// Full, row and column reductions of n elements: one output, few long rows, many short ones.
struct sized_case {
  jet::shape shape;
  axis_spec spec;
};
std::vector<sized_case> sized_cases(std::int64_t n) {
  return {
      {{n}, every_axis()}, {{4, n}, along({1})}, {{n, 4}, along({0}, true)}, {{n, 3}, along({-1})}};
}

const std::int64_t sizes[] = {0, 1, 31, 33, 1023, (std::int64_t{1} << 20) + 3};
const jet::dtype sized_dtypes[] = {jet::bool_,   jet::int8,    jet::uint32,   jet::float16,
                                   jet::float32, jet::float64, jet::complex64};
// The largest size runs fewer dtypes: its host references are slow.
const jet::dtype largest_size_dtypes[] = {jet::int8, jet::float32};

template <yields Y, unsigned Kinds, class Ref>
void check_sizes(const reduction<Y, Kinds, Ref>& op) {
  for (std::int64_t n : sizes) {
    const bool largest = n == sizes[std::size(sizes) - 1];
    const std::span<const jet::dtype> dtypes =
        largest ? std::span<const jet::dtype>(largest_size_dtypes)
                : std::span<const jet::dtype>(sized_dtypes);
    for (jet::dtype t : dtypes) {
      visit_dtype(t, [&]<class T>(type_tag<T>) {
        if constexpr ((Kinds & kind_of<T>()) != 0) {
          std::uint32_t salt = 0;
          for (const sized_case& c : sized_cases(n)) {
            INFO(op.name << "(" << jet::name(t) << " " << jet::to_string(c.shape) << ", "
                         << c.spec.text() << ")");
            guarded([&] {
              std::mt19937 rng = seeded(op.name, t, ++salt);
              check_case(op, random_operand<T>(rng, c.shape, op.inputs), c.spec);
            });
          }
        }
      });
    }
  }
}

// The reference of reduction `f` over a float32 operand or host-computed values of shape s.
template <class R, class Ref>
std::vector<expected<wide_t<R>>> want(const std::vector<double>& values, const jet::shape& s,
                                      const axis_spec& spec, Ref f, double eps = FLT_EPSILON / 2) {
  return reduce_reference<R>(values, s, spec, f, eps);
}
template <class R, class T, class Ref>
std::vector<expected<wide_t<R>>> want(const operand<T>& x, const axis_spec& spec, Ref f,
                                      double eps = accumulation_eps<T>()) {
  return reduce_reference<R>(wide_values(x.values), x.device.shape(), spec, f, eps);
}

// float32 values around 1e4 with unit spread: a naive one-pass variance loses every digit.
host_values<float> offset_normal(std::mt19937& rng, std::int64_t n) {
  std::normal_distribution<double> normal(0.0, 1.0);
  host_values<float> out(n);
  for (std::int64_t i = 0; i < n; ++i) out[i] = static_cast<float>(1e4 + normal(rng));
  return out;
}

}  // namespace

TEST_CASE("sums, products, means and variances over every dtype, axis spec and layout",
          "[gpu][reduce]") {
  std::apply([](const auto&... op) { (check_table(op), ...); }, accumulating_reductions());
}

TEST_CASE("extremes and their indices over every dtype, axis spec and layout", "[gpu][reduce]") {
  std::apply([](const auto&... op) { (check_table(op), ...); }, extreme_reductions());
}

TEST_CASE("all, any and count_nonzero over every dtype, axis spec and layout", "[gpu][reduce]") {
  std::apply([](const auto&... op) { (check_table(op), ...); }, truth_reductions());
}

TEST_CASE("sums, products, means and variances of 0 to 2^20 + 3 elements", "[gpu][reduce][sizes]") {
  std::apply([](const auto&... op) { (check_sizes(op), ...); }, accumulating_reductions());
}

TEST_CASE("extremes and their indices of 0 to 2^20 + 3 elements", "[gpu][reduce][sizes]") {
  std::apply([](const auto&... op) { (check_sizes(op), ...); }, extreme_reductions());
}

TEST_CASE("all, any and count_nonzero of 0 to 2^20 + 3 elements", "[gpu][reduce][sizes]") {
  std::apply([](const auto&... op) { (check_sizes(op), ...); }, truth_reductions());
}

TEST_CASE("elementwise expressions fuse into reductions", "[gpu][reduce][fusion]") {
  std::mt19937 rng = seeded("fused reductions", jet::float32);
  const jet::shape s{4, 6, 5};
  const operand<float> a = random_operand<float>(rng, s);
  const operand<float> b = reduction_input<float>(rng, {6, 5}, input_layout::transposed);
  // The host rounds each elementwise result to float32, as the device does.
  auto fused = [&](auto f) {
    return reference<float>(
        s,
        [&](double x, double y) {
          return static_cast<double>(f(static_cast<float>(x), static_cast<float>(y)));
        },
        a, b);
  };
  const std::vector<double> product = fused([](float x, float y) { return x * y; });
  const std::vector<double> sine_sum = fused([](float x, float y) { return std::sin(x) + y; });
  const std::vector<double> distance = fused([](float x, float y) { return std::abs(x - y); });
  const std::vector<double> total = fused([](float x, float y) { return x + y; });

  check_reduced<float>(jet::sum(a.device * b.device, 1),
                       want<float>(product, s, along({1}), reduce_ref::sum));
  check_reduced<float>(jet::mean(jet::sin(a.device) + b.device),
                       want<float>(sine_sum, s, every_axis(), reduce_ref::mean));
  check_reduced<float>(jet::max(jet::abs(a.device - b.device), {0, 2}),
                       want<float>(distance, s, along({0, 2}), reduce_ref::max));
  check_reduced<std::int64_t>(jet::argmax(a.device + b.device, -1, true),
                              want<std::int64_t>(total, s, along({-1}, true), reduce_ref::argmax));
  check_reduced<float>(jet::var(a.device * b.device, 2, 1),
                       want<float>(product, s, along({2}), reduce_ref::var_ddof(1)));
  std::vector<double> greater;
  for (double v : distance) greater.push_back(v > 1.0 ? 1.0 : 0.0);
  check_reduced<std::int64_t>(
      jet::count_nonzero(jet::abs(a.device - b.device) > 1.0f, 0),
      want<std::int64_t>(greater, s, along({0}), reduce_ref::count_nonzero));
}

TEST_CASE("a reduction assigned into a view leaves the other elements alone",
          "[gpu][reduce][views]") {
  std::mt19937 rng = seeded("reduce into views", jet::float32);
  const operand<float> x = random_operand<float>(rng, {4, 4, 6});
  const std::vector<expected<double>> sums = want<float>(x, along({2}), reduce_ref::sum);
  const std::vector<expected<double>> maxima = want<float>(x, along({2}), reduce_ref::max);

  jet::array out = jet::full({5, 4}, -7.0f, jet::float32);
  out(jet::slice(1, jet::none)) = jet::sum(x.device, 2);
  std::vector<expected<double>> rows(4, expected<double>{-7.0});
  rows.insert(rows.end(), sums.begin(), sums.end());
  CHECK(reduce_mismatch<float>(out, rows).empty());

  jet::array wide = jet::full({4, 8}, -7.0f, jet::float32);
  wide(jet::slice(), jet::slice(jet::none, jet::none, -2)) = jet::max(x.device, -1);
  std::vector<expected<double>> strided;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      strided.push_back(j % 2 == 1 ? maxima[static_cast<std::size_t>(i * 4 + (7 - j) / 2)]
                                   : expected<double>{-7.0});
  CHECK(reduce_mismatch<float>(wide, strided).empty());

  jet::array cell = jet::full({2, 3}, -7.0f, jet::float32);
  cell(1, 2) = jet::sum(x.device);
  std::vector<expected<double>> one(5, expected<double>{-7.0});
  one.push_back(want<float>(x, every_axis(), reduce_ref::sum)[0]);
  CHECK(reduce_mismatch<float>(cell, one).empty());
}

TEST_CASE("member forms reduce as the free functions do", "[gpu][reduce][members]") {
  std::mt19937 rng = seeded("reduction members", jet::int16);
  const operand<std::int16_t> x = random_operand<std::int16_t>(rng, {3, 5, 7}, small_integers);
  const jet::array& a = x.device;
  const jet::expr e = a + std::int16_t{0};
  for (const jet::expr& source : {jet::expr(a), e}) {
    check_reduced<std::int64_t>(source.sum(1), want<std::int64_t>(x, along({1}), reduce_ref::sum));
    check_reduced<std::int64_t>(source.prod({0, 2}, true),
                                want<std::int64_t>(x, along({0, 2}, true), reduce_ref::prod));
    check_reduced<double>(source.mean(), want<double>(x, every_axis(), reduce_ref::mean));
    check_reduced<double>(source.var(-1, 1), want<double>(x, along({-1}), reduce_ref::var_ddof(1)));
    check_reduced<double>(source.std(0, 0, true),
                          want<double>(x, along({0}, true), reduce_ref::std_dev));
    check_reduced<std::int16_t>(source.min(2), want<std::int16_t>(x, along({2}), reduce_ref::min));
    check_reduced<std::int16_t>(source.max(), want<std::int16_t>(x, every_axis(), reduce_ref::max));
    check_reduced<std::int16_t>(source.ptp(1, true),
                                want<std::int16_t>(x, along({1}, true), reduce_ref::ptp));
    check_reduced<std::int64_t>(source.argmin(),
                                want<std::int64_t>(x, every_axis(), reduce_ref::argmin));
    check_reduced<std::int64_t>(source.argmax(-2),
                                want<std::int64_t>(x, along({-2}), reduce_ref::argmax));
    check_reduced<bool>(source.all(0), want<bool>(x, along({0}), reduce_ref::all));
    check_reduced<bool>(source.any({1, 2}), want<bool>(x, along({1, 2}), reduce_ref::any));
  }
  check_reduced<std::int64_t>(a.sum(1), want<std::int64_t>(x, along({1}), reduce_ref::sum));
  check_reduced<std::int16_t>(a.max(), want<std::int16_t>(x, every_axis(), reduce_ref::max));
  check_reduced<std::int64_t>(a.argmax(-1, true),
                              want<std::int64_t>(x, along({-1}, true), reduce_ref::argmax));
  check_reduced<double>(a.std(), want<double>(x, every_axis(), reduce_ref::std_dev));

  const jet::array full = jet::sum(a);  // a 0-d array
  CHECK(full.ndim() == 0);
  CHECK(full.size() == 1);
  CHECK(full.item<std::int64_t>() == want<std::int64_t>(x, every_axis(), reduce_ref::sum)[0].value);
  CHECK(full.to_vector<std::int64_t>().size() == 1);
  CHECK_THROWS_AS(jet::array(jet::argmax(a, {0, 1})), jet::error);
}

TEST_CASE("a dtype argument sets the accumulator and result dtype", "[gpu][reduce][dtype]") {
  std::mt19937 rng = seeded("reduction dtype argument", jet::int8);
  const operand<std::int8_t> small = random_operand<std::int8_t>(rng, {6, 37});
  const operand<std::int32_t> ints = random_operand<std::int32_t>(rng, {6, 37});
  const operand<std::int16_t> factors = random_operand<std::int16_t>(rng, {6, 37}, product_inputs);
  const operand<bool> flags = random_operand<bool>(rng, {6, 37});
  const operand<jet::float16_t> half = random_operand<jet::float16_t>(rng, {6, 37});
  constexpr double f32 = FLT_EPSILON / 2;

  check_reduced<std::int8_t>(jet::sum(small.device, 1, jet::int8),
                             want<std::int8_t>(small, along({1}), reduce_ref::sum));
  check_reduced<float>(jet::sum(small.device, {}, jet::float32),
                       want<float>(small, every_axis(), reduce_ref::sum, f32));
  check_reduced<std::int32_t>(jet::sum(flags.device, 0, jet::int32, true),
                              want<std::int32_t>(flags, along({0}, true), reduce_ref::sum));
  check_reduced<std::int16_t>(jet::prod(factors.device, 1, jet::int16),
                              want<std::int16_t>(factors, along({1}), reduce_ref::prod));
  check_reduced<float>(jet::mean(ints.device, 1, jet::float32),
                       want<float>(ints, along({1}), reduce_ref::mean, f32));
  check_reduced<float>(jet::nansum(half.device, {}, jet::float32),
                       want<float>(half, every_axis(), reduce_ref::nansum, f32));
  check_reduced<double>(jet::nanmean(half.device, 0, jet::float64),
                        want<double>(half, along({0}), reduce_ref::nanmean, f32));

  // float32 data summed in float64 keeps float64's precision.
  const std::int64_t n = (std::int64_t{1} << 20) + 3;
  const host_values<float> offset = offset_normal(rng, n);
  const std::vector<double> values(offset.data(), offset.data() + n);
  check_reduced<double>(jet::sum(upload(offset, {n}), {}, jet::float64),
                        want<double>(values, {n}, every_axis(), reduce_ref::sum, DBL_EPSILON / 2));
}

TEST_CASE("var and std take ddof 0 and 1 and match a float64 reference", "[gpu][reduce][var]") {
  const jet::dtype dtypes[] = {jet::int16, jet::float16, jet::float32, jet::float64,
                               jet::complex64};
  const axis_spec specs[] = {every_axis(), along({1}), along({0, 2}, true), along({-1})};
  for (jet::dtype t : dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      using R = spread_t<T>;
      std::mt19937 rng = seeded("var ddof", t);
      for (const jet::shape& s : {jet::shape{3, 5, 7}, jet::shape{3, 1, 5}}) {
        const operand<T> x = reduction_input<T>(rng, s, input_layout::sliced);
        for (const axis_spec& spec : specs) {
          for (int ddof : {0, 1}) {
            INFO("var/std(" << jet::name(t) << " " << jet::to_string(s) << ", " << spec.text()
                            << ", ddof " << ddof << ")");
            guarded([&] {
              check_reduced<R>(jet::var(x.device, spec.to_jet(), ddof, spec.keepdims),
                               want<R>(x, spec, reduce_ref::var_ddof(ddof)));
              check_reduced<R>(jet::std(x.device, spec.to_jet(), ddof, spec.keepdims),
                               want<R>(x, spec, reduce_ref::std_ddof(ddof)));
            });
          }
        }
      }
    });
  }
}

TEST_CASE("float32 var and std of 1e4 + randn are within 1e-5 of float64", "[gpu][reduce][var]") {
  std::mt19937 rng = seeded("var precision", jet::float32);
  struct precision_case {
    jet::shape shape;
    axis_spec spec;
  };
  const std::int64_t n = (std::int64_t{1} << 20) + 3;
  for (const precision_case& c :
       {precision_case{{n}, every_axis()}, precision_case{{64, 4099}, along({1})},
        precision_case{{4099, 64}, along({0})}}) {
    INFO(jet::to_string(c.shape) << ", " << c.spec.text());
    const host_values<float> h = offset_normal(rng, c.shape.product());
    const jet::array x = upload(h, c.shape);
    const std::vector<double> values(h.data(), h.data() + h.size());
    for (int ddof : {0, 1}) {
      const auto reference = want<double>(values, c.shape, c.spec, reduce_ref::var_ddof(ddof));
      const jet::array var = jet::var(x, c.spec.to_jet(), ddof);
      const jet::array dev = jet::std(x, c.spec.to_jet(), ddof);
      REQUIRE(var.dtype() == jet::float32);
      REQUIRE(dev.dtype() == jet::float32);
      const std::vector<float> got_var = var.to_vector<float>(), got_std = dev.to_vector<float>();
      REQUIRE(got_var.size() == reference.size());
      double worst_var = 0, worst_std = 0;
      for (std::size_t i = 0; i < reference.size(); ++i) {
        const double v = reference[i].value;
        worst_var = std::max(worst_var, std::abs(got_var[i] - v) / v);
        worst_std = std::max(worst_std, std::abs(got_std[i] - std::sqrt(v)) / std::sqrt(v));
      }
      INFO("ddof " << ddof << ": worst relative error var " << worst_var << ", std " << worst_std);
      CHECK(worst_var <= 1e-5);
      CHECK(worst_std <= 1e-5);
    }
  }
}

TEST_CASE("reductions over more than 2^31 elements are exact", "[gpu][reduce][large]") {
  SECTION("a broadcast view of a small array") {
    const std::int8_t row[] = {3, -1, 7, 0, 7, -5, 2};
    host_values<std::int8_t> h(7);
    for (std::int64_t j = 0; j < 7; ++j) h[j] = row[j];
    const std::int64_t m = ((std::int64_t{1} << 31) + 5) / 7 + 1;  // m * 7 > 2^31 + 5
    const jet::array big = upload(h, {1, 7}).broadcast_to({m, 7});
    CHECK(jet::sum(big).eval().item<std::int64_t>() == 13 * m);
    CHECK(jet::count_nonzero(big).eval().item<std::int64_t>() == 6 * m);
    CHECK(jet::max(big).eval().item<std::int8_t>() == 7);
    CHECK(jet::argmax(big).eval().item<std::int64_t>() == 2);
    CHECK(jet::argmin(big).eval().item<std::int64_t>() == 5);
    CHECK(jet::any(big == std::int8_t{-5}).eval().item<bool>());
    CHECK_FALSE(jet::all(big).eval().item<bool>());
    CHECK(std::abs(jet::mean(big).eval().item<double>() - 13.0 / 7) <= 1e-12);
    const std::vector<std::int64_t> columns = jet::sum(big, 0).eval().to_vector<std::int64_t>();
    for (std::size_t j = 0; j < 7; ++j) CHECK(columns[j] == row[j] * m);
    const jet::array ones = jet::ones({1}, jet::int8).broadcast_to({(std::int64_t{1} << 31) + 5});
    CHECK(jet::sum(ones).eval().item<std::int64_t>() == (std::int64_t{1} << 31) + 5);
  }
  SECTION("a materialized array with its extremes past 2^31") {
    const std::int64_t n = (std::int64_t{1} << 31) + 6;
    jet::array a = jet::zeros({n}, jet::int8);
    const std::int64_t late = (std::int64_t{1} << 31) + 1;
    a(late) = 9;
    a(n - 1) = 9;
    a(7) = -3;
    a(n - 2) = -3;
    CHECK(jet::sum(a).eval().item<std::int64_t>() == 12);
    CHECK(jet::argmax(a).eval().item<std::int64_t>() == late);
    CHECK(jet::argmin(a).eval().item<std::int64_t>() == 7);
    CHECK(jet::argmin(a(jet::slice(8, jet::none))).eval().item<std::int64_t>() == n - 2 - 8);
    CHECK(jet::count_nonzero(a).eval().item<std::int64_t>() == 4);
    CHECK(jet::max(a * std::int8_t{2}).eval().item<std::int8_t>() == 18);
    const std::vector<std::int64_t> halves =
        jet::sum(a.reshape({2, n / 2}), 1).eval().to_vector<std::int64_t>();
    CHECK(halves == std::vector<std::int64_t>{-3, 15});
  }
}
