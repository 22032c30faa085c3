// Padding, editing and index arithmetic on a GPU: NumPy's shapes, dtypes and errors for every
// row of data/editing.tsv (evaluated), NumPy's values for small cases, and each function against
// a host reference over dtypes and strided, reversed and empty inputs; indexes out of bounds
// raised at the next synchronization in NumPy's words.
#include <algorithm>
#include <complex>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gpu/samples.hpp"
#include "host/editing_table.hpp"

namespace {

using namespace jet_test;
using i64 = std::vector<std::int64_t>;
const domain exact{.integers = int_range{-100000, 100000}};  // held exactly by the references
constexpr layout layouts[] = {layout::contiguous, layout::reversed, layout::every_other_reversed,
                              layout::transposed_reversed};
constexpr jet::pad_mode pad_modes[] = {jet::pad_mode::constant, jet::pad_mode::edge,
                                       jet::pad_mode::reflect, jet::pad_mode::symmetric,
                                       jet::pad_mode::wrap};
constexpr jet::dtype some_dtypes[] = {jet::bool_,  jet::int8,      jet::uint16,    jet::int32,
                                      jet::int64,  jet::float16,   jet::float32,   jet::float64,
                                      jet::uint64, jet::complex64, jet::complex128};

jet::array iota(const jet::shape& s, std::int64_t start = 0) {
  return (jet::arange(s.product()) + start).reshape(s);
}

i64 ints(const jet::expr& e) { return jet::array(e).to_vector<std::int64_t>(); }

// A random 2-D operand of dtype t laid out as `l`, its elements as complex<double> in C order.
sample laid_out(std::mt19937& rng, jet::dtype t, const jet::shape& s, layout l) {
  sample out;
  visit_dtype(t, [&]<class T>(type_tag<T>) {
    operand<T> op = make_operand<T>(rng, s, l, exact);
    for (std::int64_t i = 0; i < op.values.size(); ++i)
      out.values.push_back(cdouble(widen(op.values[i])));
    out.device = op.device;
  });
  return out;
}

// The (rows, cols) result whose element (i, j) is the input's (of `cols_in` columns) at what
// `source(i, j)` gives, or `fill` where it gives nothing.
template <class Source>
std::vector<cdouble> read_2d(const std::vector<cdouble>& in, std::int64_t cols_in,
                             std::int64_t rows, std::int64_t cols, Source&& source,
                             cdouble fill = 0.0) {
  std::vector<cdouble> out;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      const std::optional<std::pair<std::int64_t, std::int64_t>> at = source(i, j);
      out.push_back(at ? in[static_cast<std::size_t>(at->first * cols_in + at->second)] : fill);
    }
  return out;
}

// Where position j (from the axis's first element) of an axis of n padded in `mode` reads,
// reflecting (or wrapping) again and again until it lands inside; nothing for constant's pads.
std::optional<std::int64_t> padded_from(std::int64_t j, std::int64_t n, jet::pad_mode mode) {
  while (j < 0 || j >= n) {
    switch (mode) {
      case jet::pad_mode::constant: return std::nullopt;
      case jet::pad_mode::edge: return j < 0 ? 0 : n - 1;
      case jet::pad_mode::wrap: j += j < 0 ? n : -n; break;
      case jet::pad_mode::symmetric: j = j < 0 ? -j - 1 : 2 * n - 1 - j; break;
      case jet::pad_mode::reflect:
        if (n == 1) return 0;
        j = j < 0 ? -j : 2 * (n - 1) - j;
        break;
    }
  }
  return j;
}

// The positions numpy.insert's result reads along an axis of n: a's (>= 0) or the k-th
// inserted slice's (-1 - k), with the slices at one index in their order before a's there.
i64 inserted_along(std::int64_t n, const i64& indices) {
  std::vector<std::pair<std::int64_t, std::int64_t>> at;  // (index, k)
  for (std::size_t k = 0; k < indices.size(); ++k)
    at.emplace_back(indices[k] < 0 ? indices[k] + n : indices[k], static_cast<std::int64_t>(k));
  std::stable_sort(at.begin(), at.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  i64 out;
  std::size_t next = 0;
  for (std::int64_t i = 0; i <= n; ++i) {
    for (; next < at.size() && at[next].first == i; ++next) out.push_back(-1 - at[next].second);
    if (i < n) out.push_back(i);
  }
  return out;
}

}  // namespace

TEST_CASE("editing functions give NumPy's shapes, dtypes and errors, and evaluate",
          "[gpu][editing]") {
  const auto rows = editing::function_rows();
  REQUIRE(rows.size() > 3000);
  for (const auto& row : rows) {
    std::string call;
    for (std::size_t k = 0; k + 1 < row.size(); ++k) call += row[k] + " ";
    INFO(call);
    const std::string want = row.back();
    CHECK(editing::outcome(row, editing::operands::zeros) == want);
    if (want.rfind("error: ", 0) == 0) continue;
    guarded([&] {
      for (const jet::expr& e : editing::calls().at(row[0])(row, editing::operands::zeros)) {
        const jet::array r = e;
        CHECK(jet::to_string(r.shape()) == jet::to_string(e.shape()));
      }
      jet::synchronize();  // the zeros are in bounds everywhere: no device error
    });
  }
}

TEST_CASE("pad fills as NumPy's modes do, also past the axis's length", "[gpu][editing]") {
  const jet::array a = iota({2, 3});
  CHECK(ints(jet::pad(iota({3}), {{7, 5}}, jet::pad_mode::reflect)) ==
        i64{1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2, 1});
  CHECK(ints(jet::pad(a, {{1, 2}, {4, 0}}, jet::pad_mode::symmetric)) ==
        i64{2, 2, 1, 0, 0, 1, 2, 2, 2, 1, 0, 0, 1, 2, 5, 5, 4, 3,
            3, 4, 5, 5, 5, 4, 3, 3, 4, 5, 2, 2, 1, 0, 0, 1, 2});
  CHECK(ints(jet::pad(a, {{3, 0}, {2, 5}}, jet::pad_mode::wrap)) ==
        i64{4, 5, 3, 4, 5, 3, 4, 5, 3, 4, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 4, 5, 3, 4, 5,
            3, 4, 5, 3, 4, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 4, 5, 3, 4, 5, 3, 4, 5, 3, 4});
  CHECK(ints(jet::pad(a, {{0, 1}, {1, 1}}, jet::pad_mode::edge)) ==
        i64{0, 0, 1, 2, 2, 3, 3, 4, 5, 5, 3, 3, 4, 5, 5});
  CHECK(ints(jet::pad(a, {{1, 0}, {0, 2}}, jet::pad_mode::constant, -7)) ==
        i64{-7, -7, -7, -7, -7, 0, 1, 2, -7, -7, 3, 4, 5, -7, -7});
  CHECK(ints(jet::pad(a.T(), {{1, 1}, {2, 3}}, jet::pad_mode::reflect)) ==
        i64{1, 4, 1, 4, 1, 4, 1, 0, 3, 0, 3, 0, 3, 0, 1, 4, 1, 4,
            1, 4, 1, 2, 5, 2, 5, 2, 5, 2, 1, 4, 1, 4, 1, 4, 1});
  // The constant is cast to a's dtype; an empty axis pads with it alone; a 0-d a is itself.
  CHECK(ints(jet::pad(iota({3}).astype(jet::uint8), 1, jet::pad_mode::constant, -1)) ==
        i64{255, 0, 1, 2, 255});
  CHECK(jet::array(jet::pad(jet::ones({3}, jet::int32), 1, jet::pad_mode::constant, 7.9))
            .to_vector<std::int32_t>() == std::vector<std::int32_t>{7, 1, 1, 1, 7});
  CHECK(ints(jet::pad(iota({0, 2}), {{1, 0}, {0, 1}}, jet::pad_mode::constant, 4)) == i64{4, 4, 4});
  CHECK(ints(jet::pad(jet::full({}, 5, jet::int64), 3)) == i64{5});
  // A pad fuses into what reads it.
  CHECK(ints(jet::pad(a, 1, jet::pad_mode::edge) * 10 + 1)[7] == 11);
  for (jet::dtype t : some_dtypes)
    for (layout l : layouts)
      for (jet::pad_mode mode : pad_modes) {
        INFO(jet::name(t) << ", " << name(l) << ", mode " << static_cast<int>(mode));
        std::mt19937 rng = seeded("pad", t, static_cast<std::uint32_t>(mode));
        const sample x = laid_out(rng, t, {3, 2}, l);  // pads wider than both axes
        const std::int64_t top = 4, bottom = 7, left = 5, right = 2;
        const std::vector<cdouble> want = read_2d(
            x.values, 2, 3 + top + bottom, 2 + left + right,
            [&](std::int64_t i,
                std::int64_t j) -> std::optional<std::pair<std::int64_t, std::int64_t>> {
              const auto r = padded_from(i - top, 3, mode), c = padded_from(j - left, 2, mode);
              if (!r || !c) return std::nullopt;
              return std::pair(*r, *c);
            },
            3.0);
        check_expression_any(jet::pad(x.device, {{top, bottom}, {left, right}}, mode, 3), want);
      }
}

TEST_CASE("resize repeats a's elements in C order", "[gpu][editing]") {
  const jet::array a = iota({2, 3});
  CHECK(ints(jet::resize(iota({5}), {2, 4})) == i64{0, 1, 2, 3, 4, 0, 1, 2});
  CHECK(ints(jet::resize(a.T(), {7})) == i64{0, 3, 1, 4, 2, 5, 0});
  CHECK(ints(jet::resize(a(jet::slice(), jet::slice(jet::none, jet::none, -1)), {3, 3})) ==
        i64{2, 1, 0, 5, 4, 3, 2, 1, 0});
  CHECK(ints(jet::resize(jet::zeros({0}, jet::int8), {2, 3})) == i64(6, 0));
  CHECK(jet::resize(jet::zeros({0}, jet::int8), {2, 3}).dtype() == jet::int8);
  CHECK(ints(jet::resize(a, {})) == i64{0});
  for (jet::dtype t : some_dtypes)
    for (layout l : layouts) {
      INFO(jet::name(t) << ", " << name(l));
      std::mt19937 rng = seeded("resize", t);
      const sample x = laid_out(rng, t, {3, 5}, l);
      std::vector<cdouble> want;
      for (std::size_t k = 0; k < 4 * 11; ++k) want.push_back(x.values[k % x.values.size()]);
      check_expression_any(jet::resize(x.device, {4, 11}), want);
    }
}

TEST_CASE("delete_ removes the slices NumPy's does", "[gpu][editing]") {
  const jet::array a = iota({2, 3});
  CHECK(ints(jet::delete_(a, 1, 1)) == i64{0, 2, 3, 5});
  CHECK(ints(jet::delete_(iota({10}), jet::slice(jet::none, jet::none, -3))) ==
        i64{1, 2, 4, 5, 7, 8});
  CHECK(ints(jet::delete_(a.T(), {0, -1})) == i64{3, 1, 4, 2});  // the flattened view, in C order
  CHECK(ints(jet::delete_(iota({3, 4}), {0, 0, 2}, 1)) == i64{1, 3, 5, 7, 9, 11});
  CHECK(ints(jet::delete_(a, jet::slice(1, jet::none), 0)) == i64{0, 1, 2});
  CHECK(jet::delete_(a, jet::slice(0, 2), 0).shape() == jet::shape{0, 3});
  CHECK(ints(jet::delete_(a, std::vector<std::int64_t>{}, 1)) == i64{0, 1, 2, 3, 4, 5});
  // A mask as long as the axis, on the host or the device; indices as a device array.
  CHECK(ints(jet::delete_(a, std::vector<bool>{true, false, true}, 1)) == i64{1, 4});
  CHECK(ints(jet::delete_(iota({6}), iota({6}) % 3 == 0)) == i64{1, 2, 4, 5});
  CHECK(ints(jet::delete_(a, jet::asarray<std::int32_t>({2, -3}), 1)) == i64{1, 4});
  CHECK(ints(jet::delete_(a, jet::asarray<std::int64_t>({1}, {}), 0)) == i64{0, 1, 2});
  CHECK_THROWS_WITH(jet::delete_(a, jet::asarray<bool>({true, false}), 1),
                    "boolean array argument obj to delete must be one dimensional and match the "
                    "axis length of 3");
  CHECK_THROWS_WITH(jet::delete_(a, jet::asarray<double>({1.0}), 1),
                    "arrays used as indices must be of integer (or boolean) type");
  for (jet::dtype t : some_dtypes)
    for (layout l : layouts) {
      INFO(jet::name(t) << ", " << name(l));
      std::mt19937 rng = seeded("delete", t);
      const sample x = laid_out(rng, t, {5, 4}, l);
      // Rows 1 and 3 go (as -4 and 3), and columns 0 and 2 (the slice ::2).
      check_expression_any(jet::delete_(x.device, {-4, 3, 3}, 0),
                           read_2d(x.values, 4, 3, 4, [](std::int64_t i, std::int64_t j) {
                             return std::optional(std::pair(i == 0 ? 0 : 2 * i, j));
                           }));
      check_expression_any(jet::delete_(x.device, jet::slice(jet::none, jet::none, 2), 1),
                           read_2d(x.values, 4, 5, 2, [](std::int64_t i, std::int64_t j) {
                             return std::optional(std::pair(i, 2 * j + 1));
                           }));
    }
}

TEST_CASE("insert puts the values where NumPy's does, cast to a's dtype", "[gpu][editing]") {
  const jet::array a = iota({2, 3});
  CHECK(ints(jet::insert(iota({10}), {2, 2, 1}, jet::asarray<std::int64_t>({7, 8, 9}))) ==
        i64{0, 9, 1, 7, 8, 2, 3, 4, 5, 6, 7, 8, 9});
  // A scalar index makes the values' first axis the inserted one: [10, 20] is a column.
  CHECK(ints(jet::insert(a, 1, jet::asarray<std::int64_t>({10, 20}), 1)) ==
        i64{0, 10, 1, 2, 3, 20, 4, 5});
  CHECK(ints(jet::insert(a, {1}, jet::asarray<std::int64_t>({10, 20}, {2, 1}), 1)) ==
        i64{0, 10, 1, 2, 3, 20, 4, 5});
  CHECK(ints(jet::insert(a, 3, jet::asarray<std::int64_t>({10, 11, 20, 21}, {2, 2}), 1)) ==
        i64{0, 1, 2, 10, 20, 3, 4, 5, 11, 21});
  CHECK(ints(jet::insert(a, {0, 3, 3}, 9, 1)) == i64{9, 0, 1, 2, 9, 9, 9, 3, 4, 5, 9, 9});
  CHECK(ints(jet::insert(a, 1, 5.9)) == i64{0, 5, 1, 2, 3, 4, 5});
  CHECK(ints(jet::insert(a.T(), -1, 100, 0)) == i64{0, 3, 1, 4, 100, 100, 2, 5});
  CHECK(ints(jet::insert(iota({10}), {-12, 3}, jet::asarray<std::int64_t>({7, 8}))) ==
        i64{0, 1, 2, 3, 8, 4, 5, 6, 7, 8, 7, 9});  // NumPy's count from the end, twice
  CHECK(ints(jet::insert(jet::zeros({0}, jet::int64), 0, jet::asarray<std::int64_t>({1, 2}))) ==
        i64{1, 2});
  CHECK(ints(jet::insert(jet::zeros({2, 0}, jet::int64), {0, 0},
                         jet::asarray<std::int64_t>({1, 2, 3, 4}, {2, 2}), 1)) == i64{1, 2, 3, 4});
  CHECK(ints(jet::insert(jet::zeros({0}, jet::int64), 0, 6)) == i64{6});
  CHECK(jet::insert(a.astype(jet::int8), 0, 1.5).dtype() == jet::int8);
  // A slice inserts before each position it names; a mask (NumPy 2) where it holds.
  CHECK(ints(jet::insert(a, jet::slice(1, 3), jet::asarray<std::int64_t>({7, 8}), 1)) ==
        i64{0, 7, 1, 8, 2, 3, 7, 4, 8, 5});
  CHECK(ints(jet::insert(iota({4}), jet::slice(jet::none, jet::none, -2), 9)) ==
        i64{0, 9, 1, 2, 9, 3});
  CHECK(ints(jet::insert(iota({4}), std::vector<bool>{false, true, false, true}, 9)) ==
        i64{0, 9, 1, 2, 9, 3});
  CHECK(ints(jet::insert(iota({4}), iota({4}) == 2, 9)) == i64{0, 1, 9, 2, 3});
  CHECK(ints(jet::insert(iota({4}), jet::asarray<std::int64_t>({4, 0}), 9)) ==
        i64{9, 0, 1, 2, 3, 9});
  // A 0-d index moves the values' first axis, as a scalar index does.
  CHECK(ints(jet::insert(a, jet::asarray<std::int64_t>({1}, {}),
                         jet::asarray<std::int64_t>({10, 20}), 1)) ==
        i64{0, 10, 1, 2, 3, 20, 4, 5});
  // One position past the end is the end; the error of one beyond it spells the mask.
  CHECK(ints(jet::insert(iota({4}), std::vector<bool>{false, false, false, false, true}, 9)) ==
        i64{0, 1, 2, 3, 9});
  CHECK_THROWS_WITH(
      jet::insert(iota({4}), std::vector<bool>{false, false, false, false, false, true}, 9),
      "index [False False False False False  True] is out of bounds for axis 0 with size 4");
  CHECK_THROWS_WITH(jet::insert(a, jet::asarray<std::int64_t>({1, 2}, {1, 2}), 9),
                    "index array argument obj to insert must be one dimensional or scalar");
  for (jet::dtype t : some_dtypes)
    for (layout l : layouts) {
      INFO(jet::name(t) << ", " << name(l));
      std::mt19937 rng = seeded("insert", t);
      const sample x = laid_out(rng, t, {4, 3}, l), v = laid_out(rng, t, {4, 4}, l);
      // Four columns, two of them at one index, in their order.
      const i64 along = inserted_along(3, {3, 0, -1, 3});
      std::vector<cdouble> columns;
      for (std::int64_t i = 0; i < 4; ++i)
        for (std::int64_t p : along)
          columns.push_back(p >= 0 ? x.values[static_cast<std::size_t>(i * 3 + p)]
                                   : v.values[static_cast<std::size_t>(i * 4 - 1 - p)]);
      check_expression_any(jet::insert(x.device, {3, 0, -1, 3}, v.device, 1), columns);
      // Two rows before row 2, from a scalar index (the values' first axis is axis 0).
      std::vector<cdouble> rows;
      for (std::int64_t i = 0; i < 6; ++i)
        for (std::int64_t j = 0; j < 3; ++j)
          rows.push_back(i >= 2 && i < 4
                             ? v.values[static_cast<std::size_t>((i - 2) * 4 + j)]
                             : x.values[static_cast<std::size_t>((i < 2 ? i : i - 2) * 3 + j)]);
      check_expression_any(
          jet::insert(x.device, 2, v.device(jet::slice(0, 2), jet::slice(0, 3)), 0), rows);
      // A 1-D values at a scalar index along axis 1 is one column.
      std::vector<cdouble> column;
      for (std::int64_t i = 0; i < 4; ++i)
        for (std::int64_t j = 0; j < 4; ++j)
          column.push_back(j == 1   ? v.values[static_cast<std::size_t>(i)]
                           : j == 0 ? x.values[static_cast<std::size_t>(i * 3)]
                                    : x.values[static_cast<std::size_t>(i * 3 + j - 1)]);
      check_expression_any(jet::insert(x.device, 1, v.device(0), 1), column);
    }
}

TEST_CASE("ediff1d is the flattened difference with parts joined at the ends", "[gpu][editing]") {
  CHECK(ints(jet::ediff1d(jet::asarray<std::int64_t>({1, 4, 9, 16}, {2, 2}))) == i64{3, 5, 7});
  const jet::array b = jet::asarray<std::int8_t>({1, 4, 9});
  const jet::array r =
      jet::ediff1d(b, jet::asarray<std::int64_t>({7, 8}), jet::asarray<std::int64_t>({-99}));
  CHECK(r.dtype() == jet::int8);
  CHECK(r.to_vector<std::int8_t>() == std::vector<std::int8_t>{-99, 3, 5, 7, 8});
  CHECK(
      jet::array(jet::ediff1d(jet::asarray<std::uint8_t>({1, 200, 3}))).to_vector<std::uint8_t>() ==
      std::vector<std::uint8_t>{199, 59});
  CHECK(ints(jet::ediff1d(jet::full({}, 5, jet::int64), std::nullopt, 2)) == i64{2});
  CHECK_THROWS_AS(jet::ediff1d(jet::ones({3}, jet::bool_)), jet::dtype_error);
  for (jet::dtype t : {jet::int8, jet::uint16, jet::int64, jet::float16, jet::float32, jet::float64,
                       jet::complex64}) {
    for (layout l : layouts) {
      INFO(jet::name(t) << ", " << name(l));
      std::mt19937 rng = seeded("ediff1d", t);
      visit_dtype(t, [&]<class T>(type_tag<T>) {
        const operand<T> x = make_operand<T>(rng, {4, 3}, l, small_integers);
        auto wide = [](auto v) -> wide_t<T> {
          if constexpr (is_integer_v<T>)
            return static_cast<T>(v);  // unsigned differences wrap, as the device's
          else
            return wide_t<T>(v);
        };
        std::vector<wide_t<T>> want{wide(0), wide(1), wide(2)};
        for (std::int64_t i = 1; i < x.values.size(); ++i)
          want.push_back(wide(widen(x.values[i]) - widen(x.values[i - 1])));
        want.push_back(wide(2));
        check_close<T>(jet::ediff1d(x.device, jet::full({}, 2, t),
                                    jet::asarray<std::int64_t>({0, 1, 2}).astype(t)),
                       want);
      });
    }
  }
}

TEST_CASE("unravel_index and ravel_multi_index give NumPy's coordinates and flat indexes",
          "[gpu][editing]") {
  const jet::array flat = jet::asarray<std::int64_t>({22, 41, 37});
  std::vector<jet::expr> rc = jet::unravel_index(flat, {7, 6});
  CHECK(ints(rc[0]) == i64{3, 6, 6});
  CHECK(ints(rc[1]) == i64{4, 5, 1});
  rc = jet::unravel_index(flat, {7, 6}, jet::index_order::F);
  CHECK(ints(rc[0]) == i64{1, 6, 2});
  CHECK(ints(rc[1]) == i64{3, 5, 5});
  const std::vector<jet::expr> three =
      jet::unravel_index(jet::asarray<std::uint8_t>({0, 23, 17}), {2, 3, 4}, jet::index_order::F);
  CHECK(ints(three[0]) == i64{0, 1, 1});
  CHECK(ints(three[1]) == i64{0, 2, 2});
  CHECK(ints(three[2]) == i64{0, 3, 2});
  CHECK(ints(jet::unravel_index(jet::asarray<std::int32_t>({5, 1}, {1, 2}), {2, 3})[1]) ==
        i64{2, 1});
  const jet::array i = jet::asarray<std::int64_t>({3, 6, -1}),
                   j = jet::asarray<std::int64_t>({4, 5, 9});
  CHECK(ints(jet::ravel_multi_index(
            {jet::asarray<std::int64_t>({3, 6, 6}), jet::asarray<std::int32_t>({4, 5, 1})},
            {7, 6})) == i64{22, 41, 37});
  CHECK(ints(jet::ravel_multi_index(
            {jet::asarray<std::int64_t>({3, 6, 6}), jet::asarray<std::int64_t>({4, 5, 1})}, {7, 6},
            jet::index_mode::raise, jet::index_order::F)) == i64{31, 41, 13});
  CHECK(ints(jet::ravel_multi_index({i, jet::asarray<std::int64_t>({4, 5, 1})}, {7, 6},
                                    jet::index_mode::wrap)) == i64{22, 41, 37});
  CHECK(ints(jet::ravel_multi_index({i, j}, {7, 6}, jet::index_mode::clip)) == i64{22, 41, 5});
  CHECK(ints(jet::ravel_multi_index({i, j}, {7, 6},
                                    std::vector{jet::index_mode::clip, jet::index_mode::wrap})) ==
        i64{22, 41, 3});
  CHECK(ints(jet::ravel_multi_index(
            {jet::asarray<std::int64_t>({3, 2}), jet::asarray<std::int64_t>({1, 2}, {2, 1})},
            {7, 6})) == i64{19, 13, 20, 14});
  CHECK(ints(jet::ravel_multi_index(
            {jet::asarray<std::int64_t>({1, 0, 2}), jet::asarray<std::int64_t>({2, 3, 0}), 1},
            {3, 4, 2})) == i64{13, 7, 17});
  // Each other's inverse, over random flat indexes and a strided view of them.
  std::mt19937 rng = seeded("unravel", jet::int64);
  std::uniform_int_distribution<std::int64_t> pick(0, 5 * 7 * 3 - 1);
  i64 values(200);
  for (std::int64_t& v : values) v = pick(rng);
  const jet::array many = jet::asarray(values, {20, 10})(jet::slice(jet::none, jet::none, -2));
  for (jet::index_order order : {jet::index_order::C, jet::index_order::F}) {
    const std::vector<jet::expr> c = jet::unravel_index(many, {5, 7, 3}, order);
    CHECK(ints(jet::ravel_multi_index(c, {5, 7, 3}, jet::index_mode::raise, order)) ==
          jet::array(many).to_vector<std::int64_t>());
  }
}

TEST_CASE("choose picks from the broadcast choices as NumPy's does", "[gpu][editing]") {
  const std::vector<jet::expr> c = {iota({4}), iota({4}) * 10, iota({4}) * 100};
  CHECK(ints(jet::choose(jet::asarray<std::int64_t>({0, 1, 2, 1}), c)) == i64{0, 10, 200, 30});
  const jet::array wide = jet::asarray<std::int64_t>({0, 1, -1, 4});
  CHECK(ints(jet::choose(wide, c, jet::index_mode::wrap)) == i64{0, 10, 200, 30});
  CHECK(ints(jet::choose(wide, c, jet::index_mode::clip)) == i64{0, 10, 2, 300});
  CHECK(ints(jet::choose(jet::asarray<std::int64_t>({1, 0}, {2, 1}),
                         {iota({3}), iota({3}) * 10})) == i64{0, 10, 20, 0, 1, 2});
  const jet::expr small =
      jet::choose(jet::asarray<std::int8_t>({1, 0}), {jet::arange(2).astype(jet::int8), 500});
  CHECK(small.dtype() == jet::int8);
  CHECK(ints(small) == i64{-12, 1});
  const jet::expr f = jet::choose(jet::asarray(std::vector<bool>{true, false, true}),
                                  {jet::asarray<float>({1.5f, 2.5f, 3.5f}), -1});
  CHECK(f.dtype() == jet::float32);
  CHECK(jet::array(f).to_vector<float>() == std::vector<float>{-1, 2.5f, -1});
  CHECK(ints(jet::choose(jet::full({3}, 0, jet::int64), {7})) == i64{7, 7, 7});
  // One expression with what reads it, over every dtype of the choices.
  for (jet::dtype t : some_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("choose", t);
    const sample x = laid_out(rng, t, {3, 4}, layout::transposed_reversed),
                 y = laid_out(rng, t, {1, 4}, layout::contiguous),
                 z = laid_out(rng, t, {3, 1}, layout::reversed);
    std::uniform_int_distribution<std::int64_t> pick(-5, 5);
    i64 k(12);
    for (std::int64_t& v : k) v = pick(rng);
    for (jet::index_mode mode : {jet::index_mode::wrap, jet::index_mode::clip}) {
      std::vector<cdouble> want;
      for (std::int64_t i = 0; i < 3; ++i)
        for (std::int64_t j = 0; j < 4; ++j) {
          const std::int64_t raw = k[static_cast<std::size_t>(i * 4 + j)];
          const std::int64_t which = mode == jet::index_mode::wrap
                                         ? ((raw % 3) + 3) % 3
                                         : std::clamp<std::int64_t>(raw, 0, 2);
          want.push_back(which == 0   ? x.values[static_cast<std::size_t>(i * 4 + j)]
                         : which == 1 ? y.values[static_cast<std::size_t>(j)]
                                      : z.values[static_cast<std::size_t>(i)]);
        }
      check_expression_any(jet::choose(jet::asarray(k, {3, 4}).astype(jet::int16),
                                       {x.device, y.device, z.device}, mode),
                           want);
    }
  }
}

TEST_CASE("indexes out of bounds raise NumPy's errors at the next synchronization",
          "[gpu][editing]") {
  const std::vector<jet::expr> c = {iota({4}), iota({4}) * 10};
  jet::array r = jet::choose(jet::asarray<std::int64_t>({0, 1, 2, 1}), c);
  CHECK_THROWS_WITH(jet::synchronize(), "invalid entry in choice array");
  r = jet::choose(jet::asarray<std::int32_t>({0, -1, 1, 1}), c);  // no index from the end
  CHECK_THROWS_AS(jet::synchronize(), jet::value_error);
  r = jet::ravel_multi_index(
      {jet::asarray<std::int64_t>({3, 7}), jet::asarray<std::int64_t>({4, 5})}, {7, 6});
  CHECK_THROWS_WITH(jet::synchronize(), "invalid entry in coordinates array");
  r = jet::ravel_multi_index(
      {jet::asarray<std::int64_t>({3, 6}), jet::asarray<std::int64_t>({-1, 5})}, {7, 6});
  CHECK_THROWS_WITH(jet::synchronize(), "invalid entry in coordinates array");
  CHECK_THROWS_WITH(ints(jet::unravel_index(jet::asarray<std::int64_t>({1, 12}), {10})[0]),
                    "index 12 is out of bounds for array with size 10");
  CHECK_THROWS_WITH(ints(jet::unravel_index(jet::asarray<std::int16_t>({-1}), {2, 5})[1]),
                    "index -1 is out of bounds for array with size 10");
  CHECK_THROWS_WITH(ints(jet::unravel_index(jet::asarray<std::int64_t>({0}), {2, 0})[0]),
                    "index 0 is out of bounds for array with size 0");
  // The next evaluation is right again, and take's errors keep their words.
  CHECK(ints(jet::choose(jet::asarray<std::int64_t>({1, 0}), {iota({2}), iota({2}) * 10})) ==
        i64{0, 1});
  r = jet::take(iota({10}), jet::asarray<std::int64_t>({12}));
  CHECK_THROWS_WITH(jet::synchronize(), "index 12 is out of bounds for axis 0 with size 10");
}
