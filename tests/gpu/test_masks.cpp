// Boolean masks on a GPU: nonzero and the functions built on it (argwhere, flatnonzero,
// one-argument where, compress, extract, and the fixed-size forms), reading x(mask) for every
// dtype, masks over some of the axes and mixed with other index items, and writing through a
// mask as one kernel or, with one value per selected element, as a scatter.
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpu/samples.hpp"

namespace {

using namespace jet_test;
const jet::slice all;

// Values from {-1, 0, 1}: a third of them zero (false).
const domain sparse{.lo = -1, .hi = 1, .integral = true, .integers = int_range{-1, 1}};
// Values the complex<double> references hold exactly.
const domain exact{.integers = int_range{-100000, 100000}};

// The C-order positions of the nonzero values.
std::vector<std::int64_t> nonzero_positions(const std::vector<cdouble>& values) {
  std::vector<std::int64_t> out;
  for (std::size_t k = 0; k < values.size(); ++k)
    if (values[k] != 0.0) out.push_back(static_cast<std::int64_t>(k));
  return out;
}

// A bool mask of shape `s` from host values, with `every`-th element true (0: none; 1: all).
jet::array mask_of(const jet::shape& s, std::vector<bool>& host, std::int64_t every,
                   std::mt19937& rng) {
  host.clear();
  std::uniform_int_distribution<std::int64_t> pick(0, every > 0 ? every - 1 : 0);
  for (std::int64_t k = 0; k < s.product(); ++k) host.push_back(every > 0 && pick(rng) == 0);
  return jet::asarray(host, s);
}

std::vector<cdouble> selected(const std::vector<cdouble>& values, const std::vector<bool>& mask,
                              std::int64_t row = 1) {
  std::vector<cdouble> out;
  for (std::size_t k = 0; k < values.size(); ++k)
    if (mask[k / static_cast<std::size_t>(row)]) out.push_back(values[k]);
  return out;
}

}  // namespace

TEST_CASE("nonzero, argwhere, flatnonzero and where(condition) for every dtype", "[gpu][masks]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("nonzero", t);
    const sample x = random_sample(rng, t, {3, 5, 7}, sparse);
    const std::vector<std::int64_t> flat = nonzero_positions(x.values);
    CHECK(jet::flatnonzero(x.device).to_vector<std::int64_t>() == flat);
    const std::vector<jet::array> rows = jet::nonzero(x.device);
    REQUIRE(rows.size() == 3);
    std::vector<std::int64_t> a, b, c, pairs;
    for (std::int64_t f : flat) {
      a.push_back(f / 35), b.push_back(f / 7 % 5), c.push_back(f % 7);
      for (std::int64_t v : {f / 35, f / 7 % 5, f % 7}) pairs.push_back(v);
    }
    CHECK(rows[0].to_vector<std::int64_t>() == a);
    CHECK(rows[1].to_vector<std::int64_t>() == b);
    CHECK(rows[2].to_vector<std::int64_t>() == c);
    CHECK(jet::where(x.device)[2].to_vector<std::int64_t>() == c);
    const jet::array w = jet::argwhere(x.device);
    CHECK(w.shape() == jet::shape{static_cast<std::int64_t>(flat.size()), 3});
    CHECK(w.to_vector<std::int64_t>() == pairs);
    // Through a reversed, strided view and of an expression.
    const sample view = reversed_strided_view(x);
    CHECK(jet::flatnonzero(view.device).to_vector<std::int64_t>() ==
          nonzero_positions(view.values));
  }
  std::mt19937 rng = seeded("nonzero expression", jet::float32);
  const sample x = random_sample(rng, jet::float32, {1001});
  std::vector<std::int64_t> positive;
  for (std::size_t k = 0; k < x.values.size(); ++k)
    if (x.values[k].real() > 0) positive.push_back(static_cast<std::int64_t>(k));
  CHECK(jet::nonzero(x.device > 0)[0].to_vector<std::int64_t>() == positive);
  // A broadcast view: every row the same.
  const jet::array row = jet::asarray<std::int32_t>({0, 3, 0, 1});
  CHECK(jet::flatnonzero(row.broadcast_to({3, 4})).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{1, 3, 5, 7, 9, 11});
}

TEST_CASE("nonzero of empty, all-false and all-true arrays, and of 0-d ones", "[gpu][masks]") {
  const jet::array none = jet::zeros({4, 6}, jet::bool_), every = jet::ones({4, 6}, jet::bool_);
  CHECK(jet::nonzero(none)[0].size() == 0);
  CHECK(jet::argwhere(none).shape() == jet::shape{0, 2});
  CHECK(jet::flatnonzero(every).to_vector<std::int64_t>() ==
        jet::arange(24).to_vector<std::int64_t>());
  CHECK(jet::nonzero(every)[1].to_vector<std::int64_t>() ==
        (jet::arange(24) % 6).eval().to_vector<std::int64_t>());
  const std::vector<jet::array> empty = jet::nonzero(jet::zeros({0, 3}));
  CHECK(empty.size() == 2);
  CHECK(empty[1].shape() == jet::shape{0});
  CHECK(jet::flatnonzero(jet::zeros({5, 0})).size() == 0);
  CHECK_THROWS_AS(jet::nonzero(jet::full({}, 1.0)), jet::value_error);
  CHECK(jet::argwhere(jet::full({}, 1.0)).shape() == jet::shape{1, 0});
  CHECK(jet::argwhere(jet::full({}, 0.0)).shape() == jet::shape{0, 0});
}

TEST_CASE("x(mask) reads the selected elements of every dtype", "[gpu][masks]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("mask read", t);
    const sample x = random_sample(rng, t, {6, 7, 3}, exact);
    std::vector<bool> m;
    for (std::int64_t every : {0, 1, 2, 5}) {
      INFO("every " << every);
      // A mask over every axis: a compaction.
      const jet::array full_mask = mask_of({6, 7, 3}, m, every, rng);
      check_expression_any(x.device(full_mask), selected(x.values, m));
      CHECK(jet::extract(full_mask, x.device).shape() ==
            jet::shape{static_cast<std::int64_t>(selected(x.values, m).size())});
      // Over the first two axes: rows of 3.
      const jet::array rows = mask_of({6, 7}, m, every, rng);
      check_expression_any(x.device(rows), selected(x.values, m, 3));
    }
  }
}

TEST_CASE("masks over some axes, through views, and mixed with other items", "[gpu][masks]") {
  std::mt19937 rng = seeded("mask items", jet::float64);
  const sample x = random_sample(rng, jet::float64, {4, 5, 6});
  auto at = [&](int a, int b, int c) {
    return x.values[static_cast<std::size_t>((a * 5 + b) * 6 + c)];
  };
  std::vector<bool> m;
  const jet::array cols = mask_of({6}, m, 2, rng);
  // x[:, :, mask] and x[..., mask]: (4, 5, count).
  std::vector<cdouble> want;
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < 6; ++c)
        if (m[c]) want.push_back(at(a, b, c));
  check_expression_any(x.device(all, all, cols), want);
  check_expression_any(x.device(jet::ellipsis, cols), want);
  // x[1, mask(5, 6)]: an integer and a mask, adjacent: (count,).
  std::vector<bool> m2;
  const jet::array plane = mask_of({5, 6}, m2, 3, rng);
  want.clear();
  for (int b = 0; b < 5; ++b)
    for (int c = 0; c < 6; ++c)
      if (m2[b * 6 + c]) want.push_back(at(1, b, c));
  check_expression_any(x.device(1, plane), want);
  // x[mask(4), :, [0, 5, 2]] with the mask's count 3 broadcast against three positions.
  const jet::array rows = jet::asarray(std::vector<bool>{true, false, true, true});
  want.clear();
  const int picked[] = {0, 2, 3}, cols3[] = {0, 5, 2};
  for (int p = 0; p < 3; ++p)
    for (int b = 0; b < 5; ++b) want.push_back(at(picked[p], b, cols3[p]));
  check_expression_any(x.device(rows, all, jet::asarray<std::int64_t>({0, 5, 2})), want);
  // A reversed, strided source.
  const jet::array view = x.device(jet::slice(jet::none, jet::none, -1), 2);
  const jet::array vm = mask_of({4, 6}, m, 2, rng);
  want.clear();
  for (int a = 3; a >= 0; --a)
    for (int c = 0; c < 6; ++c)
      if (m[(3 - a) * 6 + c]) want.push_back(at(a, 2, c));
  check_expression_any(view(vm), want);
  // 0-d masks: x[True] adds an axis of 1, x[False] one of 0.
  CHECK(jet::array(x.device(jet::full({}, true))).shape() == jet::shape{1, 4, 5, 6});
  CHECK(jet::array(x.device(jet::full({}, false))).shape() == jet::shape{0, 4, 5, 6});
  // A read fuses into the expression that uses it, after the compaction.
  const jet::array wide = mask_of({4, 5, 6}, m, 2, rng);
  want = selected(x.values, m);
  for (cdouble& w : want) w = std::sin(w) * 2.0;
  check_expression_any(jet::sin(x.device(wide)) * 2, want);
}

TEST_CASE("writing through a mask: one kernel unless each element has its own value",
          "[gpu][masks]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("mask write", t);
    const sample x = random_sample(rng, t, {5, 8}, sparse);
    const sample row = random_sample(rng, t, {8}, sparse);
    std::vector<bool> m;
    const jet::array mask = mask_of({5, 8}, m, 2, rng);
    // x[mask] = 1: one kernel.
    jet::array y = x.device.copy();
    const std::uint64_t before = kernels_run();
    y(mask) = 1;
    CHECK(kernels_run() == before + 1);
    std::vector<cdouble> want = x.values;
    for (std::size_t k = 0; k < m.size(); ++k)
      if (m[k]) want[k] = 1.0;
    check_any(y, want);
    // x[rows] = row: the row broadcast into every selected row.
    std::vector<bool> r;
    const jet::array rows = mask_of({5}, r, 2, rng);
    jet::array z = x.device.copy();
    z(rows) = row.device;
    want = x.values;
    for (std::size_t k = 0; k < want.size(); ++k)
      if (r[k / 8]) want[k] = row.values[k % 8];
    check_any(z, want);
    // x[mask] = values, one per selected element: a scatter after the count.
    const std::vector<cdouble> picked = selected(x.values, m);
    jet::array u = jet::zeros_like(x.device);
    u(mask) = x.device(mask);
    want.assign(want.size(), 0.0);
    for (std::size_t k = 0; k < m.size(); ++k)
      if (m[k]) want[k] = x.values[k];
    check_any(u, want);
    if (t == jet::bool_) continue;
    // x[mask] += 1 and x[rows] *= row.
    jet::array v = x.device.copy();
    v(mask) += 1;
    v(rows) *= row.device;
    want = x.values;
    for (std::size_t k = 0; k < want.size(); ++k) {
      if (m[k]) want[k] = stored(t, want[k] + 1.0);
      if (r[k / 8]) want[k] = stored(t, want[k] * row.values[k % 8]);
    }
    check_any(v, want);
  }
}

TEST_CASE("masks from expressions, and values that read what they overwrite", "[gpu][masks]") {
  jet::array x = jet::arange(-5, 7).astype(jet::float32).reshape({3, 4});
  x(x < 0) = 0;  // a mask computed from x, written into x
  CHECK(x.to_vector<float>() == std::vector<float>{0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 5, 6});
  // Every selected row gets row 0 as it was before any row is written.
  jet::array y = jet::arange(12).astype(jet::int32).reshape({3, 4});
  y(jet::asarray(std::vector<bool>{false, true, true})) = y(0) + 100;
  CHECK(y.to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{0, 1, 2, 3, 100, 101, 102, 103, 100, 101, 102, 103});
  // A (count, 1) value broadcast along the rest: a scatter.
  jet::array z = jet::zeros({3, 2}, jet::int64);
  z(jet::asarray(std::vector<bool>{true, false, true})) =
      jet::asarray<std::int64_t>({7, 9}, {2, 1});
  CHECK(z.to_vector<std::int64_t>() == std::vector<std::int64_t>{7, 7, 0, 0, 9, 9});
  // Casting and NumPy's same_kind rule for +=, as any assignment.
  jet::array i = jet::arange(6).astype(jet::int16);
  i(i > 2) = 2.75;
  CHECK(i.to_vector<std::int16_t>() == std::vector<std::int16_t>{0, 1, 2, 2, 2, 2});
  CHECK_THROWS_AS(i(i > 0) += 1.5, jet::dtype_error);
  // All-false and all-true masks.
  jet::array a = jet::arange(5).astype(jet::float64);
  a(jet::zeros({5}, jet::bool_)) = -1;
  CHECK(a.to_vector<double>() == std::vector<double>{0, 1, 2, 3, 4});
  a(jet::ones({5}, jet::bool_)) -= 1;
  CHECK(a.to_vector<double>() == std::vector<double>{-1, 0, 1, 2, 3});
  CHECK(jet::array(a(jet::zeros({5}, jet::bool_))).shape() == jet::shape{0});
}

TEST_CASE("compress, extract, and the fixed-size forms that do not wait", "[gpu][masks]") {
  const jet::array a = jet::arange(12).reshape({3, 4});
  const jet::array c = jet::asarray(std::vector<bool>{false, true, true});
  CHECK(jet::compress(c, a, 0).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(
      jet::compress(jet::asarray(std::vector<bool>{true, false}), a, 1).to_vector<std::int64_t>() ==
      std::vector<std::int64_t>{0, 4, 8});
  CHECK(jet::compress(c, a).to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 2});
  CHECK(jet::extract(a % 3 == 0, a).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{0, 3, 6, 9});
  // Condition and array of different sizes: positions of the condition in the flat array.
  CHECK(jet::extract(jet::asarray<std::int32_t>({0, 2, 0, 1}), a).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{1, 3});
  // Fixed sizes: fill past the count, drop past the size; the count is a device 0-d array.
  const jet::array m = jet::asarray<std::int32_t>({0, 5, 0, 0, 3, 1, 0, 2}, {2, 4});
  const jet::sized_nonzero big = jet::nonzero(m, 6, -1);
  CHECK(big.count.shape() == jet::shape{});
  CHECK(big.count.item<std::int64_t>() == 4);
  CHECK(big.indices[0].to_vector<std::int64_t>() == std::vector<std::int64_t>{0, 1, 1, 1, -1, -1});
  CHECK(big.indices[1].to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 0, 1, 3, -1, -1});
  const jet::sized_nonzero small = jet::nonzero(m.ravel(), 2);
  CHECK(small.count.item<std::int64_t>() == 4);
  CHECK(small.indices[0].to_vector<std::int64_t>() == std::vector<std::int64_t>{1, 4});
  const jet::sized_extract e = jet::extract(m > 0, m * 10, 3, 7);
  CHECK(e.values.to_vector<std::int32_t>() == std::vector<std::int32_t>{50, 30, 10});
  CHECK(e.count.item<std::int64_t>() == 4);
  const jet::sized_extract f = jet::extract(m > 4, m.astype(jet::complex128), 3, 7);
  CHECK(f.values.to_vector<std::complex<double>>() ==
        std::vector<std::complex<double>>{5.0, 7.0, 7.0});
  CHECK(jet::nonzero(jet::zeros({0}), 3).indices[0].to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{0, 0, 0});
  CHECK_THROWS_AS(jet::nonzero(m, -1), jet::value_error);
  CHECK_THROWS_AS(jet::extract(m.ravel()(jet::slice(0, 3)) > 0, m, 3), jet::value_error);
}

TEST_CASE("a mask's shape must match the axes it covers, as NumPy says", "[gpu][masks]") {
  const jet::array x = jet::zeros({3, 4});
  CHECK_THROWS_WITH(x(jet::ones({4}, jet::bool_)),
                    "boolean index did not match indexed array along axis 0; size of axis is 3 "
                    "but size of corresponding boolean axis is 4");
  CHECK_THROWS_WITH(x(all, jet::ones({3}, jet::bool_)) = 1,
                    "boolean index did not match indexed array along axis 1; size of axis is 4 "
                    "but size of corresponding boolean axis is 3");
  CHECK_THROWS_AS(x(jet::ones({3, 4, 1}, jet::bool_)), jet::index_error);
  CHECK_THROWS_AS(x(jet::ones({3}, jet::bool_)) = jet::ones({5}), jet::shape_error);
}
