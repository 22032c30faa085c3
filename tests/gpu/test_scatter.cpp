// Writing through positions on a GPU: NumPy's ufunc.at (add_at, subtract_at, maximum_at,
// minimum_at) for every dtype, with every position equal and at random, through index lists,
// masks and slices; put with its modes; putmask.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "gpu/samples.hpp"

namespace {

using namespace jet_test;

// Small integral values: every sum of a few of them is exact in every dtype.
const domain small{.lo = -3, .hi = 3, .integral = true, .integers = int_range{-3, 3}};

// NumPy's order for maximum and minimum: complex values by real part, then imaginary.
bool less(cdouble a, cdouble b) {
  return a.real() < b.real() || (a.real() == b.real() && a.imag() < b.imag());
}

std::vector<std::int64_t> random_bins(std::mt19937& rng, std::int64_t count, std::int64_t bins) {
  std::uniform_int_distribution<std::int64_t> pick(-bins, bins - 1);
  std::vector<std::int64_t> out;
  for (std::int64_t k = 0; k < count; ++k) out.push_back(pick(rng));
  return out;
}

std::size_t bin(std::int64_t i, std::int64_t bins) {
  return static_cast<std::size_t>(i < 0 ? i + bins : i);
}

}  // namespace

TEST_CASE("add_at adds once for every time a position appears, every dtype", "[gpu][scatter]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    // Every one of 3000 positions the same: the worst contention.
    jet::array a = jet::zeros({8}, t);
    jet::add_at(a, jet::zeros({3000}, jet::int64), jet::ones({1}, t));
    std::vector<cdouble> want(8, 0.0);
    for (int k = 0; k < 3000; ++k) want[0] = stored(t, want[0] + 1.0);
    check_any(a, want);
    // Random positions and values, negative positions wrapping.
    std::mt19937 rng = seeded("add_at", t);
    const sample start = random_sample(rng, t, {37}, small);
    const sample v = random_sample(rng, t, {500}, small);
    const std::vector<std::int64_t> idx = random_bins(rng, 500, 37);
    jet::array b = start.device.copy();
    jet::add_at(b, jet::asarray(idx).astype(jet::int32), v.device);
    std::vector<cdouble> sums(37, 0.0);
    for (std::size_t k = 0; k < idx.size(); ++k) sums[bin(idx[k], 37)] += v.values[k];
    want = start.values;
    for (std::size_t k = 0; k < 37; ++k)
      want[k] = t == jet::bool_ ? cdouble(want[k] != 0.0 || sums[k] != 0.0)
                                : stored(t, want[k] + sums[k]);
    check_any(b, want);
  }
}

TEST_CASE("maximum_at and minimum_at keep the largest and smallest, every dtype",
          "[gpu][scatter]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("maximum_at", t);
    const sample start = random_sample(rng, t, {29}, small);
    const sample v = random_sample(rng, t, {400}, small);
    const std::vector<std::int64_t> idx = random_bins(rng, 400, 29);
    jet::array hi = start.device.copy(), lo = start.device.copy();
    const jet::array positions = jet::asarray(idx);
    jet::maximum_at(hi, positions, v.device);
    jet::minimum_at(lo, positions, v.device);
    std::vector<cdouble> want_hi = start.values, want_lo = start.values;
    for (std::size_t k = 0; k < idx.size(); ++k) {
      cdouble& h = want_hi[bin(idx[k], 29)];
      cdouble& l = want_lo[bin(idx[k], 29)];
      if (less(h, v.values[k])) h = v.values[k];
      if (less(v.values[k], l)) l = v.values[k];
    }
    check_any(hi, want_hi);
    check_any(lo, want_lo);
  }
  // NaN wins, as in NumPy's maximum.
  jet::array f = jet::zeros({2}, jet::float32);
  jet::maximum_at(f, jet::asarray<std::int64_t>({0, 0, 1}),
                  jet::asarray<float>({1.0f, std::nanf(""), 2.0f}));
  const std::vector<float> got = f.to_vector<float>();
  CHECK(std::isnan(got[0]));
  CHECK(got[1] == 2.0f);
}

TEST_CASE("ufunc.at through index lists, masks and slices, with broadcast values",
          "[gpu][scatter]") {
  // a[[0, 2, 0], :] += [1, 2, 3] row by row, unbuffered: row 0 twice.
  jet::array a = jet::zeros({4, 3}, jet::int32);
  jet::add_at(a, jet::asarray<std::int64_t>({0, 2, 0}), jet::asarray<std::int32_t>({1, 2, 3}));
  CHECK(a.to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{2, 4, 6, 0, 0, 0, 1, 2, 3, 0, 0, 0});
  // Two index arrays: elements (1, 1) three times and (3, 0) once.
  jet::subtract_at(
      a, {jet::asarray<std::int64_t>({1, 1, 3, 1}), jet::asarray<std::int64_t>({1, 1, 0, 1})}, 2);
  CHECK(a.to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{2, 4, 6, 0, -6, 0, 1, 2, 3, -2, 0, 0});
  // A mask, and a slice (a view: no position repeats).
  jet::add_at(a, a > 2, 100);
  CHECK(a.to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{2, 104, 106, 0, -6, 0, 1, 2, 103, -2, 0, 0});
  jet::minimum_at(a, jet::slice(0, 2), 1);
  CHECK(a.to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{1, 1, 1, 0, -6, 0, 1, 2, 103, -2, 0, 0});
  // Into a strided view; values read the array itself first.
  jet::array w = jet::arange(10).astype(jet::float64);
  jet::add_at(w(jet::slice(jet::none, jet::none, 2)), jet::asarray<std::int64_t>({4, 4}),
              w(jet::slice(0, 2)));
  CHECK(w.to_vector<double>() == std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7, 9, 9});
  // Positions out of bounds raise at the next synchronization; the others are added.
  jet::array e = jet::zeros({3});
  jet::add_at(e, jet::asarray<std::int64_t>({1, 3}), 1.0);
  CHECK_THROWS_WITH(jet::synchronize(), "index 3 is out of bounds for axis 0 with size 3");
  CHECK(e.to_vector<double>() == std::vector<double>{0, 1, 0});
}

TEST_CASE("put with its modes and repeated values, and putmask", "[gpu][scatter]") {
  jet::array a = jet::arange(6).reshape({2, 3});
  jet::put(a, jet::asarray<std::int64_t>({0, 4, -1}), jet::asarray<std::int64_t>({10, 20}));
  CHECK(a.to_vector<std::int64_t>() == std::vector<std::int64_t>{10, 1, 2, 3, 20, 10});
  jet::put(a, jet::asarray<std::int64_t>({7, -8}), -1, jet::index_mode::wrap);
  CHECK(a.to_vector<std::int64_t>() == std::vector<std::int64_t>{10, -1, 2, 3, -1, 10});
  jet::put(a, jet::asarray<std::int64_t>({99, -99}), 5, jet::index_mode::clip);
  CHECK(a.to_vector<std::int64_t>() == std::vector<std::int64_t>{5, -1, 2, 3, -1, 5});
  jet::put(a, jet::asarray<std::int64_t>({6}), 0);
  CHECK_THROWS_WITH(jet::synchronize(), "index 6 is out of bounds for axis 0 with size 6");
  // Flat positions of a transposed view are its own C order.
  jet::array b = jet::zeros({2, 3}, jet::float32);
  jet::put(b.T(), jet::asarray<std::int64_t>({1, 2}), 7.5f);
  CHECK(b.to_vector<float>() == std::vector<float>{0, 7.5f, 0, 7.5f, 0, 0});
  // putmask: the n-th element gets values[n % len(values)].
  jet::array c = jet::arange(6).astype(jet::float64);
  jet::putmask(c, c > 2, jet::asarray<double>({10, 20}));
  CHECK(c.to_vector<double>() == std::vector<double>{0, 1, 2, 20, 10, 20});
  jet::putmask(c, c < 2, -1);
  CHECK(c.to_vector<double>() == std::vector<double>{-1, -1, 2, 20, 10, 20});
}
