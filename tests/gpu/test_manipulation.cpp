// Joining and splitting on a GPU: concatenate (any axis, none, expressions fused into the write
// of their part), stack and its forms, append, and splits that see the right elements.
#include <cmath>
#include <cstdint>
#include <vector>

#include "gpu/samples.hpp"

namespace {

using namespace jet_test;
using i64 = std::vector<std::int64_t>;
const domain exact{.integers = int_range{-100000, 100000}};  // held exactly by the references

jet::array iota(const jet::shape& s, std::int64_t start = 0) {
  return (jet::arange(s.product()) + start).reshape(s);
}

}  // namespace

TEST_CASE("concatenate joins along any axis, in the promoted dtype", "[gpu][manipulation]") {
  const jet::array a = iota({2, 2}), b = iota({2, 1}, 10);
  CHECK(jet::concatenate({a, b}, 1).to_vector<std::int64_t>() == i64{0, 1, 10, 2, 3, 11});
  CHECK(jet::concatenate({a, b.T()}).to_vector<std::int64_t>() == i64{0, 1, 2, 3, 10, 11});
  CHECK(jet::concatenate({a, b}, std::nullopt).to_vector<std::int64_t>() ==
        i64{0, 1, 2, 3, 10, 11});
  // Expressions are written by their own fused kernel; the dtype is the promoted one.
  const jet::array f = jet::concatenate({a * 2, b.astype(jet::float32) + 0.5f}, 1);
  CHECK(f.dtype() == jet::float64);
  CHECK(f.to_vector<double>() == std::vector<double>{0, 2, 10.5, 4, 6, 11.5});
  CHECK(jet::concatenate({a, b}, 1, jet::int8).dtype() == jet::int8);
  // Strided and reversed parts, and empty ones.
  const jet::array r = jet::concatenate({a(jet::slice(jet::none, jet::none, -1)), iota({0, 2})});
  CHECK(r.to_vector<std::int64_t>() == i64{2, 3, 0, 1});
  CHECK(jet::append(a, b, std::nullopt).to_vector<std::int64_t>() == i64{0, 1, 2, 3, 10, 11});
  CHECK(jet::append(a, iota({1, 2}, 7), 0).shape() == jet::shape{3, 2});
  // Every dtype, each part once.
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("concatenate", t);
    const sample x = random_sample(rng, t, {3, 5}, exact), y = random_sample(rng, t, {3, 2}, exact);
    std::vector<cdouble> want;
    for (int i = 0; i < 3; ++i) {
      for (int j = 0; j < 5; ++j) want.push_back(x.values[static_cast<std::size_t>(i * 5 + j)]);
      for (int j = 0; j < 2; ++j) want.push_back(y.values[static_cast<std::size_t>(i * 2 + j)]);
    }
    check_any(jet::concatenate({x.device, y.device}, -1), want);
  }
}

TEST_CASE("a join of a few expressions is one kernel", "[gpu][manipulation]") {
  std::mt19937 rng = seeded("fused join", jet::float64);
  const sample a = random_sample(rng, jet::float64, {3, 5}, exact);
  const sample b = random_sample(rng, jet::int32, {3, 2}, exact);
  const sample row = random_sample(rng, jet::float64, {5}, exact);
  auto at = [](const sample& s, std::int64_t i) { return s.values[static_cast<std::size_t>(i)]; };
  // Along the last axis: one part broadcast, the other cast to the promoted dtype.
  std::uint64_t before = kernels_run();
  const jet::array j = jet::concatenate({a.device * 2 + row.device, b.device + 1}, 1);
  CHECK(kernels_run() - before == 1);
  std::vector<cdouble> want;
  for (int i = 0; i < 3; ++i) {
    for (int c = 0; c < 5; ++c) want.push_back(at(a, i * 5 + c) * 2.0 + at(row, c));
    for (int c = 0; c < 2; ++c) want.push_back(at(b, i * 2 + c) + 1.0);
  }
  check_any(j, want);
  // Along the first axis: a 1-D row stacked, reversed rows, an empty part, a middle part.
  before = kernels_run();
  const jet::array v = jet::vstack({row.device * 3, a.device(jet::slice(jet::none, jet::none, -1)),
                                    jet::empty({0, 5}, jet::float64), a.device - 1});
  CHECK(kernels_run() - before == 1);
  want.clear();
  for (int c = 0; c < 5; ++c) want.push_back(at(row, c) * 3.0);
  for (int i = 2; i >= 0; --i)
    for (int c = 0; c < 5; ++c) want.push_back(at(a, i * 5 + c));
  for (int k = 0; k < 15; ++k) want.push_back(at(a, k) - 1.0);
  check_any(v, want);
  // Along a middle axis of three.
  const sample c = random_sample(rng, jet::float32, {2, 3, 4}, exact);
  const sample d = random_sample(rng, jet::float32, {2, 1, 4}, exact);
  before = kernels_run();
  const jet::array m = jet::concatenate({c.device, d.device * 2}, 1);
  CHECK(kernels_run() - before == 1);
  want.clear();
  for (int i = 0; i < 2; ++i) {
    for (int k = 0; k < 12; ++k) want.push_back(at(c, i * 12 + k));
    for (int k = 0; k < 4; ++k) want.push_back(at(d, i * 4 + k) * 2.0);
  }
  check_any(m, want);
  // More parts than one kernel joins, and a part with a reduction: a kernel each, same values.
  const jet::array x = row.device;
  before = kernels_run();
  const jet::array five = jet::concatenate({x, x * 2, x, x * 2, x});
  CHECK(kernels_run() - before == 5);
  want.clear();
  for (int k = 0; k < 25; ++k) want.push_back(at(row, k % 5) * ((k / 5) % 2 == 1 ? 2.0 : 1.0));
  check_any(five, want);
  // A part with a costly op, which the one kernel would compute at every element: a kernel
  // each.
  before = kernels_run();
  const jet::array costly = jet::concatenate({jet::exp(x), x * 2});
  CHECK(kernels_run() - before == 2);
  want.clear();
  for (int k = 0; k < 5; ++k) want.push_back(std::exp(at(row, k)));
  for (int k = 0; k < 5; ++k) want.push_back(at(row, k) * 2.0);
  check_any(costly, want);
  // A transposed part: a kernel each, the transposed one through tiles.
  before = kernels_run();
  const jet::array turned = jet::concatenate({a.device.T() * 2, a.device.T()}, 1);
  CHECK(kernels_run() - before == 2);
  want.clear();
  for (int i = 0; i < 5; ++i) {
    for (int k = 0; k < 3; ++k) want.push_back(at(a, k * 5 + i) * 2.0);
    for (int k = 0; k < 3; ++k) want.push_back(at(a, k * 5 + i));
  }
  check_any(turned, want);
  const jet::array reduced = jet::concatenate({a.device, jet::sum(a.device, 0, true)});
  want.assign(a.values.begin(), a.values.end());
  for (int k = 0; k < 5; ++k) want.push_back(at(a, k) + at(a, 5 + k) + at(a, 10 + k));
  check_any(reduced, want);
}

TEST_CASE("stack, vstack, hstack, dstack and column_stack", "[gpu][manipulation]") {
  const jet::array a = iota({3}), b = iota({3}, 3);
  CHECK(jet::stack({a, b}).shape() == jet::shape{2, 3});
  CHECK(jet::stack({a, b}, 1).to_vector<std::int64_t>() == i64{0, 3, 1, 4, 2, 5});
  CHECK(jet::stack({a, b}, -1).shape() == jet::shape{3, 2});
  CHECK(jet::vstack({a, b}).to_vector<std::int64_t>() == i64{0, 1, 2, 3, 4, 5});
  CHECK(jet::vstack({a, b}).shape() == jet::shape{2, 3});
  CHECK(jet::hstack({a, b}).shape() == jet::shape{6});
  CHECK(jet::hstack({iota({2, 1}), iota({2, 2})}).to_vector<std::int64_t>() ==
        i64{0, 0, 1, 1, 2, 3});
  const jet::array d = jet::dstack({a, b});
  CHECK(d.shape() == jet::shape{1, 3, 2});
  CHECK(d.to_vector<std::int64_t>() == i64{0, 3, 1, 4, 2, 5});
  const jet::array c = jet::column_stack({a, b * 10});
  CHECK(c.shape() == jet::shape{3, 2});
  CHECK(c.to_vector<std::int64_t>() == i64{0, 30, 1, 40, 2, 50});
  CHECK(jet::column_stack({iota({3, 2}), a}).shape() == jet::shape{3, 3});
}

TEST_CASE("splits see the elements NumPy's do", "[gpu][manipulation]") {
  const jet::array a = iota({4, 6});
  const std::vector<jet::array> rows = jet::array_split(a, 3);
  CHECK(rows[0].to_vector<std::int64_t>() == i64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
  CHECK(rows[2].to_vector<std::int64_t>() == i64{18, 19, 20, 21, 22, 23});
  const std::vector<jet::array> cols = jet::hsplit(a, std::vector<std::int64_t>{1, -2});
  CHECK(cols[1].to_vector<std::int64_t>() == i64{1, 2, 3, 7, 8, 9, 13, 14, 15, 19, 20, 21});
  CHECK(cols[2].shares_buffer_with(a));
  // A split written into writes the original.
  jet::array b = a.copy();
  jet::vsplit(b, 2)[1](jet::ellipsis) = jet::zeros({2, 6}, jet::int64);
  CHECK(jet::sum(b).item<std::int64_t>() == 66);
}

TEST_CASE("roll, tile, repeat and diff move elements as NumPy's do", "[gpu][manipulation]") {
  const jet::array a = iota({2, 3});
  CHECK(jet::array(jet::roll(a, 1)).to_vector<std::int64_t>() == i64{5, 0, 1, 2, 3, 4});
  CHECK(jet::array(jet::roll(a, -4, 1)).to_vector<std::int64_t>() == i64{1, 2, 0, 4, 5, 3});
  CHECK(jet::array(jet::roll(a.T(), 1)).to_vector<std::int64_t>() == i64{5, 0, 3, 1, 4, 2});
  CHECK(jet::array(jet::tile(a, {2})).to_vector<std::int64_t>() ==
        i64{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5});
  const jet::array t = jet::tile(iota({2}), {2, 1, 2});
  CHECK(t.shape() == jet::shape{2, 1, 4});
  CHECK(t.to_vector<std::int64_t>() == i64{0, 1, 0, 1, 0, 1, 0, 1});
  CHECK(jet::array(jet::repeat(a, 2)).to_vector<std::int64_t>() ==
        i64{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5});
  CHECK(jet::array(jet::repeat(a, {1, 0, 2}, 1)).to_vector<std::int64_t>() ==
        i64{0, 2, 2, 3, 5, 5});
  CHECK(jet::array(jet::repeat(a, 2, 0)).shape() == jet::shape{4, 3});
  const jet::array sq = jet::asarray<std::int64_t>({1, 4, 9, 16, 25});
  CHECK(jet::array(jet::diff(sq)).to_vector<std::int64_t>() == i64{3, 5, 7, 9});
  CHECK(jet::array(jet::diff(sq, 2)).to_vector<std::int64_t>() == i64{2, 2, 2});
  CHECK(jet::array(jet::diff(a, 1, 0)).to_vector<std::int64_t>() == i64{3, 3, 3});
  const jet::array flags = jet::asarray(std::vector<bool>{true, true, false});
  CHECK(jet::array(jet::diff(flags)).to_vector<bool>() == std::vector<bool>{false, true});
  // A roll fuses into what reads it.
  CHECK(jet::array(jet::roll(a, 1, 1) * 10 + a).to_vector<std::int64_t>() ==
        i64{20, 1, 12, 53, 34, 45});
}

TEST_CASE("triangles, diagonals, grids and copyto", "[gpu][manipulation]") {
  const jet::array m = iota({3, 3}, 1);
  CHECK(jet::array(jet::tril(m)).to_vector<std::int64_t>() == i64{1, 0, 0, 4, 5, 0, 7, 8, 9});
  CHECK(jet::array(jet::triu(m, 1)).to_vector<std::int64_t>() == i64{0, 2, 3, 0, 0, 6, 0, 0, 0});
  CHECK(jet::array(jet::tril(m, -1)).dtype() == jet::int64);
  CHECK(jet::tri(2, 3, 0, jet::int32).to_vector<std::int32_t>() ==
        std::vector<std::int32_t>{1, 0, 0, 1, 1, 0});
  CHECK(jet::diag(jet::asarray<std::int64_t>({1, 2}), 1).to_vector<std::int64_t>() ==
        i64{0, 1, 0, 0, 0, 2, 0, 0, 0});
  CHECK(jet::diag(m, -1).to_vector<std::int64_t>() == i64{4, 8});
  CHECK(jet::diagflat(iota({2, 1}, 5)).to_vector<std::int64_t>() == i64{5, 0, 0, 6});
  const std::vector<jet::array> xy = jet::meshgrid({iota({3}), iota({2}, 10)});
  CHECK(xy[0].shape() == jet::shape{2, 3});
  CHECK(xy[0].to_vector<std::int64_t>() == i64{0, 1, 2, 0, 1, 2});
  CHECK(xy[1].to_vector<std::int64_t>() == i64{10, 10, 10, 11, 11, 11});
  const std::vector<jet::array> ij =
      jet::meshgrid({iota({3}), iota({2}, 10)}, jet::mesh_indexing::ij);
  CHECK(ij[1].to_vector<std::int64_t>() == i64{10, 11, 10, 11, 10, 11});
  const jet::array g = jet::indices({2, 3});
  CHECK(g.shape() == jet::shape{2, 2, 3});
  CHECK(g.to_vector<std::int64_t>() == i64{0, 0, 0, 1, 1, 1, 0, 1, 2, 0, 1, 2});
  jet::array dst = jet::zeros({2, 3}, jet::float32);
  jet::copyto(dst, iota({3}));
  CHECK(dst.to_vector<float>() == std::vector<float>{0, 1, 2, 0, 1, 2});
  jet::copyto(dst, 7, iota({2, 3}) % 2 == 0);
  CHECK(dst.to_vector<float>() == std::vector<float>{7, 1, 7, 0, 7, 2});
  CHECK_THROWS_AS(jet::copyto(iota({2}), jet::ones({2})), jet::dtype_error);
  CHECK(jet::ascontiguousarray(m.T()).is_c_contiguous());
}
