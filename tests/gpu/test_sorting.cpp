// Sorting on a GPU: sort, argsort, lexsort and sort_complex for every dtype, along every axis
// and flattened, over strided, reversed and broadcast views and fused expressions, against a
// host stable sort in NumPy's order (NaN last, complex by real then imaginary part with
// NumPy's NaN classes); ties, -0.0, inf and NaN payloads; sizes 0, 1, 2 and 2^20 + 3; many
// short rows (one segmented sort) and a few long ones.
#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <numeric>
#include <random>
#include <vector>

#include "gpu/sort_reference.hpp"

namespace {

using namespace jet_test;

// Checks sort and argsort of `x` (holding `values`, of shape `s`) along `axis`.
void check_sorts(const jet::expr& x, const std::vector<cdouble>& values, std::optional<int> axis) {
  INFO("axis " << (axis ? std::to_string(*axis) : "none"));
  const bool complex = jet::is_complex(x.dtype());
  std::optional<int> reference_axis;
  if (axis) reference_axis = jet::normalize_axis(*axis, x.ndim());
  const std::vector<std::int64_t> order =
      reference_argsort(values, x.shape(), reference_axis, complex);
  const jet::array got_order = jet::argsort(x, axis);
  CHECK(got_order.dtype() == jet::int64);
  CHECK(got_order.shape() == (axis ? x.shape() : jet::shape{x.size()}));
  CHECK(positions(got_order) == order);
  const jet::array sorted = jet::sort(x, axis);
  CHECK(sorted.dtype() == x.dtype());
  CHECK(sorted.shape() == got_order.shape());
  check_any(sorted, reordered(values, x.shape(), reference_axis, order));
}

}  // namespace

TEST_CASE("sort and argsort of every dtype along each axis and flattened", "[gpu][sorting]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("sort", t);
    const sample x = random_sample(rng, t, {3, 5, 7}, ties);
    for (std::optional<int> axis : {std::optional<int>(0), std::optional<int>(1),
                                    std::optional<int>(2), std::optional<int>()})
      check_sorts(x.device, x.values, axis);
    CHECK(positions(jet::argsort(x.device, -2)) == positions(jet::argsort(x.device, 1)));
    // Through a reversed, strided view, and a broadcast one.
    const sample view = reversed_strided_view(x);
    check_sorts(view.device, view.values, 0);
    check_sorts(view.device, view.values, 2);
    const jet::array row = x.device(1, 2);
    const std::vector<cdouble> row_values(x.values.begin() + 49, x.values.begin() + 56);
    std::vector<cdouble> broadcast;
    for (int r = 0; r < 4; ++r)
      broadcast.insert(broadcast.end(), row_values.begin(), row_values.end());
    check_sorts(row.broadcast_to({4, 7}), broadcast, 1);
    check_sorts(row.broadcast_to({4, 7}), broadcast, 0);
  }
}

TEST_CASE("sorts of sizes 0, 1, 2 and 2^20 + 3, of many short rows and of few long ones",
          "[gpu][sorting]") {
  for (jet::dtype t : {jet::float32, jet::int64, jet::float16, jet::uint8, jet::complex64}) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("sort sizes", t);
    for (const jet::shape& s :
         {jet::shape{0}, jet::shape{1}, jet::shape{2}, jet::shape{3, 0}, jet::shape{(1 << 20) + 3},
          jet::shape{300, 37}, jet::shape{3, 70001}}) {
      INFO(jet::to_string(s));
      const sample x = random_sample(rng, t, s, t == jet::complex64 ? domain{} : ties);
      check_sorts(x.device, x.values, -1);
      if (s.size() == 2) check_sorts(x.device, x.values, std::nullopt);
    }
  }
}

TEST_CASE("a sort reads its expression in the kernel writing its keys", "[gpu][sorting]") {
  std::mt19937 rng = seeded("sort expression", jet::float32);
  const sample x = random_sample(rng, jet::float32, {64, 33});
  const jet::expr e = jet::abs(x.device) * 2.0f - 1.0f;
  const jet::array materialized = e;
  const std::uint64_t before = kernels_run();
  const jet::array fused = jet::sort(e, 0);
  const std::uint64_t fused_kernels = kernels_run() - before;
  const std::uint64_t plain_before = kernels_run();
  const jet::array plain = jet::sort(materialized, 0);
  CHECK(fused_kernels == kernels_run() - plain_before);  // the keys' kernel and the result's
  CHECK(fused.to_vector<float>() == plain.to_vector<float>());
  CHECK(positions(jet::argsort(e)) == positions(jet::argsort(materialized)));
}

TEST_CASE("sorted order of signed zeros, infinities and NaN payloads", "[gpu][sorting]") {
  // -nan (sign bit set) and NaNs of two payloads, -0.0 and 0.0 in both orders.
  const std::vector<std::uint32_t> bits = {0x7fc00000u, 0x80000000u, 0x3f800000u, 0xffc00000u,
                                           0x00000000u, 0xff800000u, 0x7fffffffu, 0x80000000u,
                                           0x7f800000u, 0xbf800000u};
  std::vector<float> values;
  for (std::uint32_t b : bits) values.push_back(std::bit_cast<float>(b));
  const jet::array x = jet::asarray(values);
  // Stable: 0.0 and -0.0 tie, as do the NaNs.
  CHECK(positions(jet::argsort(x)) == std::vector<std::int64_t>{5, 9, 1, 4, 7, 2, 8, 0, 3, 6});
  const std::vector<float> sorted = jet::sort(x).to_vector<float>();
  // One row keeps the order of equal zeros; the rows of an n-d array put -0.0 first.
  const std::vector<float> want = {-INFINITY, -1.0f, -0.0f, 0.0f, -0.0f, 1.0f, INFINITY};
  for (std::size_t k = 0; k < want.size(); ++k) {
    CHECK(sorted[k] == want[k]);
    CHECK(std::signbit(sorted[k]) == std::signbit(want[k]));
  }
  for (std::size_t k = want.size(); k < sorted.size(); ++k) CHECK(std::isnan(sorted[k]));
  const std::vector<float> rows = jet::sort(jet::stack({x, x}), 1).to_vector<float>();
  const std::vector<float> row_want = {-INFINITY, -1.0f, -0.0f, -0.0f, 0.0f, 1.0f, INFINITY};
  for (int r = 0; r < 2; ++r)
    for (std::size_t k = 0; k < row_want.size(); ++k) {
      CHECK(rows[r * 10 + k] == row_want[k]);
      CHECK(std::signbit(rows[r * 10 + k]) == std::signbit(row_want[k]));
    }
  // An expression's row, whose NaNs reach the sort without their sign.
  const std::vector<float> doubled = jet::sort(x * 2.0f).to_vector<float>();
  for (std::size_t k = want.size(); k < doubled.size(); ++k) CHECK(std::isnan(doubled[k]));
  // float64, float16 and bfloat16 the same way.
  for (jet::dtype t : {jet::float64, jet::float16, jet::bfloat16}) {
    INFO(jet::name(t));
    CHECK(positions(jet::argsort(x.astype(t))) ==
          std::vector<std::int64_t>{5, 9, 1, 4, 7, 2, 8, 0, 3, 6});
  }
}

TEST_CASE("argsort with int32 positions, and its errors", "[gpu][sorting]") {
  std::mt19937 rng = seeded("argsort int32", jet::float64);
  const sample x = random_sample(rng, jet::float64, {6, 40}, ties);
  const jet::array order = jet::argsort(x.device, 0, jet::int32);
  CHECK(order.dtype() == jet::int32);
  CHECK(positions(order) == reference_argsort(x.values, {6, 40}, 0, false));
  CHECK_THROWS_WITH(jet::argsort(x.device, 0, jet::float32),
                    "index_dtype must be int64 or int32, not float32");
  CHECK_THROWS_WITH(jet::sort(x.device, 2), "axis 2 is out of bounds for array of dimension 2");
  CHECK_THROWS_WITH(jet::sort(jet::array(jet::zeros({})), -1),
                    "axis -1 is out of bounds for array of dimension 0");
  // NumPy's argsort of a 0-d array is [0] along any axis; sort with no axis is 1-D.
  CHECK(jet::argsort(jet::array(jet::zeros({}))).shape() == jet::shape{1});
  CHECK(jet::sort(jet::array(jet::full({}, 2.5)), std::nullopt).to_vector<double>() ==
        std::vector<double>{2.5});
}

TEST_CASE("lexsort and sort_complex", "[gpu][sorting]") {
  std::mt19937 rng = seeded("lexsort", jet::int32);
  const jet::shape s{4, 50};
  const sample a = random_sample(rng, jet::int32, s, small_integers);
  const sample b = random_sample(rng, jet::float32, s, ties);
  const sample c = random_sample(rng, jet::int8, s, small_integers);
  for (int axis : {0, 1}) {
    INFO("axis " << axis);
    // The last key sorts first; ties fall to the one before, then to the first: a stable sort
    // by (c, b, a) in NumPy's order of each.
    std::vector<std::int64_t> want(a.values.size());
    const std::int64_t length = s[axis], stride = axis == 0 ? 50 : 1;
    for (std::int64_t row = 0; row < s.product() / length; ++row) {
      const std::int64_t base = axis == 0 ? row : row * 50;
      std::vector<std::int64_t> p(length);
      for (std::int64_t k = 0; k < length; ++k) p[k] = base + k * stride;
      std::stable_sort(p.begin(), p.end(), [&](std::int64_t i, std::int64_t j) {
        for (const sample* key : {&c, &b, &a}) {
          if (numpy_less(key->values[i], key->values[j], false)) return true;
          if (numpy_less(key->values[j], key->values[i], false)) return false;
        }
        return false;
      });
      for (std::int64_t k = 0; k < length; ++k) want[base + k * stride] = (p[k] - base) / stride;
    }
    CHECK(positions(jet::lexsort({a.device, b.device, c.device}, axis)) == want);
  }
  CHECK_THROWS_WITH(jet::lexsort({}), "need sequence of keys with len > 0 in lexsort");
  CHECK_THROWS_WITH(jet::lexsort({a.device, c.device(0)}), "all keys need to be the same shape");

  const jet::array i = jet::asarray(std::vector<std::int16_t>{3, -1, 2});
  const jet::array sorted = jet::sort_complex(i);
  CHECK(sorted.dtype() == jet::complex64);
  CHECK(sorted.to_vector<std::complex<float>>() ==
        std::vector<std::complex<float>>{{-1, 0}, {2, 0}, {3, 0}});
  CHECK(jet::sort_complex(i.astype(jet::float32)).dtype() == jet::complex128);
}

namespace {

// NumPy's searchsorted over `sorted` (in NumPy's order) for each of `values`.
std::vector<std::int64_t> reference_search(const std::vector<cdouble>& sorted,
                                           const std::vector<cdouble>& values, bool right,
                                           bool complex) {
  std::vector<std::int64_t> out;
  for (const cdouble& v : values) {
    std::int64_t k = 0;
    for (const cdouble& a : sorted)
      k += right ? !numpy_less(v, a, complex) : numpy_less(a, v, complex);
    out.push_back(k);
  }
  return out;
}

}  // namespace

TEST_CASE("searchsorted and digitize for every dtype", "[gpu][sorting]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    const bool complex = jet::is_complex(t);
    std::mt19937 rng = seeded("searchsorted", t);
    const sample a = random_sample(rng, t, {41}, ties);
    const jet::array sorted = jet::sort(a.device);
    std::vector<cdouble> sorted_values = a.values;
    std::stable_sort(sorted_values.begin(), sorted_values.end(),
                     [&](cdouble x, cdouble y) { return numpy_less(x, y, complex); });
    const sample v = random_sample(rng, t, {3, 9}, ties);
    for (bool right : {false, true}) {
      INFO("right " << right);
      const jet::expr found = jet::searchsorted(sorted, v.device, right ? "right" : "left");
      CHECK(found.dtype() == jet::int64);
      CHECK(found.shape() == jet::shape{3, 9});
      CHECK(positions(found.eval()) == reference_search(sorted_values, v.values, right, complex));
      // Through a sorter, and fused into a reduction.
      const jet::array order = jet::argsort(a.device);
      CHECK(positions(
                jet::searchsorted(a.device, v.device, right ? "right" : "left", order).eval()) ==
            reference_search(sorted_values, v.values, right, complex));
      std::int64_t total = 0;
      for (std::int64_t k : reference_search(sorted_values, v.values, right, complex)) total += k;
      CHECK(jet::sum(jet::searchsorted(sorted, v.device, right ? "right" : "left"))
                .item<std::int64_t>() == total);
    }
  }
  // Compared in the promoted dtype: an int8 array searched for floats.
  const jet::array small = jet::asarray(std::vector<std::int8_t>{1, 2, 3});
  CHECK(jet::searchsorted(small, 300.5).item<std::int64_t>() == 3);
  CHECK(jet::searchsorted(small, 2.5).item<std::int64_t>() == 2);
  CHECK(jet::searchsorted(jet::empty({0}), jet::asarray(std::vector<double>{1.0}))
            .eval()
            .to_vector<std::int64_t>() == std::vector<std::int64_t>{0});
  CHECK_THROWS_WITH(jet::searchsorted(small, 1, "middle"),
                    "search side must be 'left' or 'right' (got 'middle')");
  CHECK_THROWS_WITH(jet::searchsorted(jet::zeros({2, 2}), 1), "object too deep for desired array");
  CHECK_THROWS_WITH(jet::searchsorted(small, 1, "left", jet::asarray(std::vector<std::int64_t>{0})),
                    "sorter.size must equal a.size");

  const jet::array x = jet::asarray(std::vector<double>{0.2, 6.4, 3.0, 1.6, 10.0, -1.0});
  const jet::array bins = jet::asarray(std::vector<double>{0.0, 1.0, 2.5, 4.0, 10.0});
  CHECK(positions(jet::digitize(x, bins).eval()) == std::vector<std::int64_t>{1, 4, 3, 2, 5, 0});
  CHECK(positions(jet::digitize(x, bins, true).eval()) ==
        std::vector<std::int64_t>{1, 4, 3, 2, 4, 0});
  CHECK(positions(jet::digitize(x, jet::flip(bins)).eval()) ==
        std::vector<std::int64_t>{4, 1, 2, 3, 0, 5});
  CHECK_THROWS_WITH(jet::digitize(x, jet::asarray(std::vector<double>{1, 3, 2})),
                    "bins must be monotonically increasing or decreasing");
  CHECK_THROWS_WITH(jet::digitize(x.astype(jet::complex64), bins), "x may not be complex");
}

TEST_CASE("a sort past 2^31 elements", "[gpu][sorting][large]") {
  const std::int64_t n = (std::int64_t{1} << 31) + 5;
  const jet::array x = jet::astype((jet::arange(n) * 7919) % 251, jet::uint8);
  const jet::array s = jet::sort(x);
  CHECK(s.size() == n);
  CHECK(jet::all(s(jet::slice(1, jet::none)) >= s(jet::slice(0, n - 1))).item<bool>());
  CHECK(jet::count_nonzero(s == 7).item<std::int64_t>() ==
        jet::count_nonzero(x == 7).item<std::int64_t>());
  CHECK(s(0).item<std::uint8_t>() == 0);
  CHECK(s(n - 1).item<std::uint8_t>() == 250);
}
