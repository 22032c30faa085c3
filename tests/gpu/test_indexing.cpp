// Advanced indexing on a GPU: gathers through integer arrays (every dtype, NumPy's placement of
// the broadcast axes, strided and broadcast sources, fused into expressions and reductions),
// scatters and NumPy's buffered compound assignment, take and take_along_axis with their
// modes, and out-of-bounds positions raised at the next synchronization.
#include <complex>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gpu/samples.hpp"

namespace {

using namespace jet_test;
const jet::slice all;

// Host positions in [-n, n), and their device array of dtype `t`.
struct positions {
  std::vector<std::int64_t> values;
  jet::array device;
  std::int64_t operator[](std::size_t k) const { return values[k]; }
};

positions random_positions(std::mt19937& rng, const jet::shape& s, std::int64_t n,
                           jet::dtype t = jet::int64) {
  const bool is_signed =
      t != jet::uint8 && t != jet::uint16 && t != jet::uint32 && t != jet::uint64;
  std::uniform_int_distribution<std::int64_t> pick(is_signed ? -n : 0, n - 1);
  positions p;
  for (std::int64_t k = 0; k < s.product(); ++k) p.values.push_back(pick(rng));
  p.device = jet::asarray(p.values, s).astype(t);
  return p;
}

// Values the complex<double> references hold exactly (int64 elements past 2^53 they do not).
const domain exact{.integers = int_range{-100000, 100000}};

std::int64_t wrap(std::int64_t i, std::int64_t n) { return i < 0 ? i + n : i; }

// x of shape (4, 5, 6) and its values in C order.
constexpr std::int64_t n0 = 4, n1 = 5, n2 = 6;
cdouble at(const sample& x, std::int64_t a, std::int64_t b, std::int64_t c) {
  return x.values[static_cast<std::size_t>((wrap(a, n0) * n1 + wrap(b, n1)) * n2 + wrap(c, n2))];
}

}  // namespace

TEST_CASE("integer-array indexing gathers what NumPy's advanced indexing does", "[gpu][indexing]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("gather", t);
    const sample x = random_sample(rng, t, {n0, n1, n2}, exact);
    const positions i = random_positions(rng, {3}, n0, jet::int32);
    const positions j = random_positions(rng, {3}, n2, jet::int16);
    const positions k = random_positions(rng, {2, 1}, n1, jet::uint8);
    const positions m = random_positions(rng, {2, 3}, n1);
    std::vector<cdouble> want;
    // x[i]: (3, 5, 6)
    for (int p = 0; p < 3; ++p)
      for (int b = 0; b < n1; ++b)
        for (int c = 0; c < n2; ++c) want.push_back(at(x, i[p], b, c));
    check_expression_any(x.device(i.device), want);
    // x[:, m]: (4, 2, 3, 6)
    want.clear();
    for (int a = 0; a < n0; ++a)
      for (int p = 0; p < 6; ++p)
        for (int c = 0; c < n2; ++c) want.push_back(at(x, a, m[p], c));
    check_expression_any(x.device(all, m.device), want);
    // x[i, :, j], separated: (3, 5)
    want.clear();
    for (int p = 0; p < 3; ++p)
      for (int b = 0; b < n1; ++b) want.push_back(at(x, i[p], b, j[p]));
    check_expression_any(x.device(i.device, all, j.device), want);
    // x[-1, :, j], separated by the slice: (3, 5)
    want.clear();
    for (int p = 0; p < 3; ++p)
      for (int b = 0; b < n1; ++b) want.push_back(at(x, -1, b, j[p]));
    check_expression_any(x.device(-1, all, j.device), want);
    // x[:, k, j], adjacent, broadcast together: (4, 2, 3)
    want.clear();
    for (int a = 0; a < n0; ++a)
      for (int p = 0; p < 2; ++p)
        for (int q = 0; q < 3; ++q) want.push_back(at(x, a, k[p], j[q]));
    check_expression_any(x.device(all, k.device, j.device), want);
  }
}

TEST_CASE("gathers read strided, reversed and broadcast sources", "[gpu][indexing]") {
  std::mt19937 rng = seeded("gather views", jet::float64);
  const sample x = random_sample(rng, jet::float64, {n0, n1, n2});
  const positions i = random_positions(rng, {7}, n1);
  // x[::-1, i, ::2]: (4, 7, 3)
  std::vector<cdouble> want;
  for (int a = 0; a < n0; ++a)
    for (int p = 0; p < 7; ++p)
      for (int c = 0; c < n2; c += 2) want.push_back(at(x, n0 - 1 - a, i[p], c));
  const jet::slice reversed(jet::none, jet::none, -1), every2(jet::none, jet::none, 2);
  check_expression_any(x.device(reversed, i.device, every2), want);
  // The transpose's axis 0 is x's axis 2.
  want.clear();
  for (int p = 0; p < 7; ++p)
    for (int b = 0; b < n1; ++b)
      for (int a = 0; a < n0; ++a) want.push_back(at(x, a, b, wrap(i[p], n1) % n2));
  const jet::array im = jet::asarray(i.values).astype(jet::int64) % n1 % n2;
  check_expression_any(x.device.T()(im), want);
  // A broadcast source: every row is x[0, 0].
  const jet::array row = x.device(0, 0).broadcast_to({9, n2});
  const positions r = random_positions(rng, {4}, 9);
  want.clear();
  for (int p = 0; p < 4; ++p)
    for (int c = 0; c < n2; ++c) want.push_back(at(x, 0, 0, c));
  check_expression_any(row(r.device), want);
  // Empty index arrays and empty sources give empty results.
  CHECK(jet::array(x.device(jet::asarray(std::vector<std::int64_t>{}))).shape() ==
        jet::shape{0, n1, n2});
  CHECK(jet::array(x.device(jet::slice(0, 0), i.device)).shape() == jet::shape{0, 7, n2});
}

TEST_CASE("a gather fuses into the expression and the reduction that read it", "[gpu][indexing]") {
  std::mt19937 rng = seeded("fused gather", jet::float32);
  const sample x = random_sample(rng, jet::float32, {n0, n1, n2});
  const positions i = random_positions(rng, {10}, n0);
  const sample y = random_sample(rng, jet::float32, {n1, n2});
  std::vector<cdouble> want;
  for (int p = 0; p < 10; ++p)
    for (int b = 0; b < n1; ++b)
      for (int c = 0; c < n2; ++c)
        want.push_back(std::sin(at(x, i[p], b, c).real()) * 2 + y.values[b * n2 + c]);
  const jet::expr e = jet::sin(x.device(i.device)) * 2 + y.device;
  jet::array warm = e;  // the kernel is built once
  const std::uint64_t before = kernels_run();
  jet::array got = e;
  CHECK(kernels_run() == before + 1);  // one kernel: the gather did not run by itself
  check_any(got, want);
  // sum over the gathered rows' last axis, in one reduction kernel.
  want.clear();
  for (int p = 0; p < 10; ++p)
    for (int b = 0; b < n1; ++b) {
      double s = 0;
      for (int c = 0; c < n2; ++c) s += at(x, i[p], b, c).real();
      want.push_back(s);
    }
  const jet::expr total = jet::sum(x.device(i.device), 2);
  jet::array warm_total = total;
  const std::uint64_t before_sum = kernels_run();
  jet::array got_total = total;
  CHECK(kernels_run() == before_sum + 1);
  check_any(got_total, want, 8.0);
}

TEST_CASE("assignment through index arrays writes each position, buffered as NumPy",
          "[gpu][indexing]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("scatter", t);
    const sample x = random_sample(rng, t, {n0, n1, n2}, exact);
    const sample v = random_sample(rng, t, {2, n2}, exact);
    // x[:, [3, -1]] = v: every a, columns 3 and 4 of axis 1.
    jet::array target = x.device.copy();
    target(all, jet::asarray<std::int64_t>({3, -1})) = v.device;
    std::vector<cdouble> want = x.values;
    for (int a = 0; a < n0; ++a)
      for (int p = 0; p < 2; ++p)
        for (int c = 0; c < n2; ++c)
          want[static_cast<std::size_t>((a * n1 + (p == 0 ? 3 : 4)) * n2 + c)] =
              v.values[static_cast<std::size_t>(p * n2 + c)];
    check_any(target, want);
    if (t == jet::bool_) continue;
    // x[i, 1, j] += 1 with i, j repeating positions: each position is added to once.
    jet::array counted = x.device.copy();
    const jet::array i = jet::asarray<std::int64_t>({0, 0, 2, 0, -2});
    const jet::array j = jet::asarray<std::int64_t>({5, 5, 1, 5, 1});
    counted(i, 1, j) += 1;
    want = x.values;
    for (const auto& [a, c] : {std::pair{0, 5}, std::pair{2, 1}}) {
      cdouble& w = want[static_cast<std::size_t>((a * n1 + 1) * n2 + c)];
      visit_dtype(t, [&]<class T>(type_tag<T>) {
        if constexpr (is_complex_v<T>)
          w += 1.0;
        else if constexpr (is_integer_v<T>)
          w = cdouble(static_cast<double>(static_cast<T>(static_cast<T>(w.real()) + 1)));
        else
          w = cdouble(widen(narrow<T>(w.real() + 1)));
      });
    }
    check_any(counted, want);
  }
}

TEST_CASE("scatters cast, broadcast and read what they overwrite first", "[gpu][indexing]") {
  jet::array x = jet::arange(10).astype(jet::int32);
  x(jet::asarray<std::int64_t>({1, 3, 5})) = 2.75;  // a float scalar into int32, as NumPy
  CHECK(x.to_vector<std::int32_t>() == std::vector<std::int32_t>{0, 2, 2, 2, 4, 2, 6, 7, 8, 9});
  // The values read x at the positions written: all are read before any is written.
  jet::array y = jet::arange(6).astype(jet::float64);
  const jet::array p = jet::asarray<std::int64_t>({1, 2, 3, 4});
  y(p) = y(p - 1) * 10;
  CHECK(y.to_vector<double>() == std::vector<double>{0, 0, 10, 20, 30, 5});
  // Indices that live in the array written are read first too.
  jet::array z = jet::asarray<std::int64_t>({2, 0, 1, 3});
  z(z) = jet::asarray<std::int64_t>({7, 8, 9, 6});
  CHECK(z.to_vector<std::int64_t>() == std::vector<std::int64_t>{8, 9, 7, 6});
  // Into a view of a larger array; a broadcast view refuses.
  jet::array m = jet::zeros({3, 4}, jet::float32);
  m(jet::slice(), jet::slice(1, 3))(jet::asarray<std::int64_t>({0, 2})) = 1.0f;
  CHECK(m.to_vector<float>() == std::vector<float>{0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0});
  CHECK_THROWS_AS(m(0).broadcast_to({2, 4})(jet::asarray<std::int64_t>({0})) = 1.0f,
                  jet::value_error);
  CHECK_THROWS_AS(m(jet::asarray<std::int64_t>({0, 1})) = jet::ones({3, 4}), jet::shape_error);
  CHECK_THROWS_AS(x(p) += 1.5, jet::dtype_error);  // same_kind, as x += 1.5
}

TEST_CASE("positions out of bounds raise NumPy's IndexError at the next synchronization",
          "[gpu][indexing]") {
  const jet::array x = jet::arange(10).astype(jet::float32);
  jet::array r = x(jet::asarray<std::int64_t>({1, 12, 3}));
  CHECK_THROWS_WITH(r.to_vector<float>(), ("index 12 is out of bounds for axis 0 with size 10"));
  jet::array m = jet::zeros({3, 4});
  jet::array s = m(jet::slice(), jet::asarray<std::int32_t>({0, -5}));
  CHECK_THROWS_WITH(jet::synchronize(), ("index -5 is out of bounds for axis 1 with size 4"));
  m(jet::asarray<std::int64_t>({3, 1})) = 1.0;  // a scatter checks too, and skips the bad one
  CHECK_THROWS_AS(jet::synchronize(), jet::index_error);
  CHECK(jet::sum(m).item<double>() == 4.0);
  // The next evaluation is right again.
  CHECK(jet::array(x(jet::asarray<std::int64_t>({-1, 0}))).to_vector<float>() ==
        std::vector<float>{9, 0});
}

TEST_CASE("take, take_along_axis and put_along_axis", "[gpu][indexing]") {
  const jet::array a = jet::arange(12).reshape({3, 4});
  const jet::array i = jet::asarray<std::int64_t>({-1, 5, 2});
  CHECK(
      jet::array(jet::take(a, jet::asarray<std::int64_t>({0, -1, 5}))).to_vector<std::int64_t>() ==
      std::vector<std::int64_t>{0, 11, 5});
  CHECK(jet::array(jet::take(a, i, 1, jet::index_mode::wrap)).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{3, 1, 2, 7, 5, 6, 11, 9, 10});
  CHECK(jet::array(jet::take(a, i, 1, jet::index_mode::clip)).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{0, 3, 2, 4, 7, 6, 8, 11, 10});
  CHECK(jet::array(jet::take(a, i, 1)).shape() == jet::shape{3, 3});
  CHECK_THROWS_AS(jet::synchronize(), jet::index_error);  // 5 is past axis 1's 4
  // The largest of each row, by argmax along axis 1 kept as (3, 1).
  const jet::array idx = jet::argmax(a * -1, 1).reshape({3, 1});
  CHECK(jet::array(jet::take_along_axis(a, idx, 1)).to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{0, 4, 8});
  jet::array b = a.copy();
  jet::put_along_axis(b, jet::asarray<std::int64_t>({1, 0, 3}, {3, 1}), -1, 1);
  CHECK(b.to_vector<std::int64_t>() ==
        std::vector<std::int64_t>{0, -1, 2, 3, -1, 5, 6, 7, 8, 9, 10, -1});
}
