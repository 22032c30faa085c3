// Joining and splitting on a GPU: concatenate (any axis, none, expressions fused into the write
// of their part), stack and its forms, append, and splits that see the right elements.
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

TEST_CASE("stack, vstack, hstack, dstack and column_stack", "[gpu][manipulation]") {
  const jet::array a = iota({3}), b = iota({3}, 3);
  CHECK(jet::stack({a, b}).shape() == jet::shape{2, 3});
  CHECK(jet::stack({a, b}, 1).to_vector<std::int64_t>() == i64{0, 3, 1, 4, 2, 5});
  CHECK(jet::stack({a, b}, -1).shape() == jet::shape{3, 2});
  CHECK(jet::vstack({a, b}).to_vector<std::int64_t>() == i64{0, 1, 2, 3, 4, 5});
  CHECK(jet::vstack({a, b}).shape() == jet::shape{2, 3});
  CHECK(jet::hstack({a, b}).shape() == jet::shape{6});
  CHECK(jet::hstack({iota({2, 1}), iota({2, 2})}).to_vector<std::int64_t>() == i64{0, 0, 1, 1, 2, 3});
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
