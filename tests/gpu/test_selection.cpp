// Selections on a GPU: partition, argpartition and topk for every dtype, along each axis and
// flattened, with ties, signed zeros, infinities and NaN, against a host stable sort in NumPy's
// order: the element at kth is the sorted one, those before it no greater, those after no
// smaller, the whole a permutation; topk's values are the sorted ends and its positions hold
// them.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gpu/sort_reference.hpp"

namespace {

using namespace jet_test;

// Whether two values are equal in NumPy's order (NaN classes equal each other).
bool same(cdouble a, cdouble b, bool complex) {
  return !numpy_less(a, b, complex) && !numpy_less(b, a, complex);
}

// What is wrong with `line` (values along one line) as `sorted` partitioned at kth.
std::string partition_mismatch(const std::vector<cdouble>& line, std::vector<cdouble> sorted,
                               std::int64_t kth, bool complex) {
  const auto less = [&](cdouble a, cdouble b) { return numpy_less(a, b, complex); };
  const cdouble pivot = sorted[kth];
  if (!same(line[kth], pivot, complex)) return "the element at kth is not the sorted one";
  for (std::int64_t j = 0; j < static_cast<std::int64_t>(line.size()); ++j)
    if ((j < kth && less(pivot, line[j])) || (j > kth && less(line[j], pivot)))
      return "element " + std::to_string(j) + " is on the wrong side of kth";
  std::vector<cdouble> got = line;
  std::stable_sort(got.begin(), got.end(), less);
  for (std::size_t j = 0; j < got.size(); ++j)
    if (!same(got[j], sorted[j], complex)) return "not a permutation of the input";
  return {};
}

// Checks partition and argpartition of `x` (holding `values`) at kth along `axis`.
void check_partition(const jet::expr& x, const std::vector<cdouble>& values, std::int64_t kth,
                     std::optional<int> axis) {
  INFO("kth " << kth << ", axis " << (axis ? std::to_string(*axis) : "none"));
  const bool complex = jet::is_complex(x.dtype());
  std::optional<int> ref_axis;
  if (axis) ref_axis = jet::normalize_axis(*axis, x.ndim());
  const jet::shape s = x.shape();
  const std::vector<cdouble> sorted =
      reordered(values, s, ref_axis, reference_argsort(values, s, ref_axis, complex));
  const jet::array got = jet::partition(x, kth, axis);
  const jet::array got_positions = jet::argpartition(x, kth, axis);
  CHECK(got.dtype() == x.dtype());
  CHECK(got_positions.dtype() == jet::int64);
  const std::vector<cdouble> g = complex_values(got);
  const std::vector<std::int64_t> p = positions(got_positions);
  for (const auto& line : lines_of(s, ref_axis)) {
    const std::int64_t k = kth < 0 ? kth + static_cast<std::int64_t>(line.size()) : kth;
    std::vector<cdouble> want, by_value, by_position;
    for (std::size_t j = 0; j < line.size(); ++j) {
      const std::int64_t at = ref_axis ? line[j] : static_cast<std::int64_t>(j);
      want.push_back(sorted[at]);
      by_value.push_back(g[at]);
      by_position.push_back(values[line[static_cast<std::size_t>(p[at])]]);
    }
    std::string m = partition_mismatch(by_value, want, k, complex);
    INFO("partition: " << m);
    CHECK(m.empty());
    m = partition_mismatch(by_position, want, k, complex);
    INFO("argpartition: " << m);
    CHECK(m.empty());
  }
}

// Checks topk of `x` along `axis`: the sorted ends, and positions that hold them, each once.
void check_topk(const jet::expr& x, const std::vector<cdouble>& values, std::int64_t k, int axis,
                bool largest) {
  INFO("topk " << k << " along " << axis << (largest ? ", largest" : ", smallest"));
  const bool complex = jet::is_complex(x.dtype());
  const int d = jet::normalize_axis(axis, x.ndim());
  const jet::shape s = x.shape();
  const std::vector<cdouble> sorted =
      reordered(values, s, d, reference_argsort(values, s, d, complex));
  const jet::topk_result r = jet::topk(x, k, axis, largest);
  jet::shape want_shape = s;
  want_shape[d] = k;
  CHECK(r.values.shape() == want_shape);
  CHECK(r.indices.dtype() == jet::int64);
  const std::vector<cdouble> got = complex_values(r.values);
  const std::vector<std::int64_t> at = positions(r.indices);
  const auto got_lines = lines_of(want_shape, d);
  const auto lines = lines_of(s, d);
  for (std::size_t l = 0; l < lines.size(); ++l) {
    const auto& line = lines[l];
    std::set<std::int64_t> seen;
    for (std::int64_t j = 0; j < k; ++j) {
      const std::int64_t from = largest ? static_cast<std::int64_t>(line.size()) - 1 - j : j;
      const std::int64_t slot = got_lines[l][static_cast<std::size_t>(j)];
      INFO("line " << l << ", element " << j);
      CHECK(same(got[slot], sorted[line[static_cast<std::size_t>(from)]], complex));
      CHECK(same(values[line[static_cast<std::size_t>(at[slot])]], got[slot], complex));
      seen.insert(at[slot]);
    }
    CHECK(static_cast<std::int64_t>(seen.size()) == k);
  }
}

}  // namespace

TEST_CASE("partition and argpartition of every dtype along each axis and flattened",
          "[gpu][sorting][selection]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("partition", t);
    const sample x = random_sample(rng, t, {3, 5, 7}, ties);
    for (std::int64_t kth : {0, 2, -1}) {
      check_partition(x.device, x.values, kth, 2);
      check_partition(x.device, x.values, kth, 0);
      check_partition(x.device, x.values, kth, std::nullopt);
    }
    const sample view = reversed_strided_view(x);
    check_partition(view.device, view.values, 1, 1);
    // A fused producer, against its values as the GPU computes them.
    const jet::expr magnitude = jet::abs(x.device);
    check_partition(magnitude, complex_values(magnitude.eval()), 4, -1);
  }
}

TEST_CASE("partition of long rows, many rows, and several kth", "[gpu][sorting][selection]") {
  for (jet::dtype t : {jet::float32, jet::int64, jet::float16, jet::uint8, jet::float64}) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("partition sizes", t);
    const sample x = random_sample(rng, t, {(1 << 20) + 3}, ties);
    check_partition(x.device, x.values, 12345, 0);
    const sample rows = random_sample(rng, t, {300, 37}, ties);
    check_partition(rows.device, rows.values, 20, 1);
    check_partition(rows.device, rows.values, 100, 0);
  }
  const jet::array a = jet::asarray(std::vector<double>{5, 1, 4, 2, 3});
  CHECK(jet::partition(a, std::vector<std::int64_t>{1, 3}).to_vector<double>() ==
        std::vector<double>{1, 2, 3, 4, 5});
  CHECK_THROWS_WITH(jet::partition(a, 5), "kth(=5) out of bounds (5)");
  CHECK(jet::partition(jet::zeros({0}), 0).size() == 0);
}

TEST_CASE("topk of every dtype, rows and one long row, largest and smallest",
          "[gpu][sorting][selection]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("topk", t);
    const sample x = random_sample(rng, t, {4, 6, 9}, ties);
    for (bool largest : {true, false}) {
      check_topk(x.device, x.values, 3, -1, largest);
      check_topk(x.device, x.values, 9, 2, largest);
      check_topk(x.device, x.values, 1, 0, largest);
      check_topk(x.device, x.values, 0, 1, largest);
    }
    const sample row = random_sample(rng, t, {1000}, ties);
    check_topk(row.device, row.values, 100, 0, true);
    check_topk(row.device, row.values, 17, 0, false);
  }
  std::mt19937 rng = seeded("topk long", jet::float32);
  const sample x = random_sample(rng, jet::float32, {(1 << 21) + 7});
  check_topk(x.device, x.values, 100, 0, true);
  CHECK_THROWS_WITH(jet::topk(x.device, (1 << 21) + 8), "k(=2097160) out of bounds (2097159)");
}
