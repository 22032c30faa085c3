// Views on a GPU: basic indexing, transposes, reshapes, squeezes and broadcasts never copy
// (same buffer, data pointer at the expected element) and see the right elements; copies,
// conversions, assignment into views, host transfers and item().
#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "gpu/comparison.hpp"

namespace {

using namespace jet_test;

const jet::shape base_shape{3, 4, 5};  // C strides (20, 5, 1)

// A view of the (3,4,5) base, and the layout it must have, worked out by hand.
struct view_case {
  std::string_view what;
  jet::shape shape, strides;
  std::int64_t offset;
  std::function<jet::array(const jet::array&)> make;
};

using A = const jet::array&;
const jet::slice all;
const jet::slice backwards(jet::none, jet::none, -1);
jet::slice every(std::int64_t step) { return jet::slice(jet::none, jet::none, step); }
jet::slice from(std::int64_t start, std::int64_t step = 1) {
  return jet::slice(start, jet::none, step);
}

// clang-format off
const view_case view_cases[] = {
    {"a[1]", {4, 5}, {5, 1}, 20, [](A a) { return a(1); }},
    {"a[-1, 2]", {5}, {1}, 50, [](A a) { return a(-1, 2); }},
    {"a[1, 2, 3]", {}, {}, 33, [](A a) { return a(1, 2, 3); }},
    {"a[1:3]", {2, 4, 5}, {20, 5, 1}, 20, [](A a) { return a(jet::slice(1, 3)); }},
    {"a[..., ::-1]", {3, 4, 5}, {20, 5, -1}, 4, [](A a) { return a(jet::ellipsis, backwards); }},
    {"a[::-2, 1, 1::2]", {2, 2}, {-40, 2}, 46, [](A a) { return a(every(-2), 1, from(1, 2)); }},
    {"a[-2:, ::3]", {2, 2, 5}, {20, 15, 1}, 20, [](A a) { return a(from(-2), every(3)); }},
    {"a[::-1, ::-1, ::-1]", {3, 4, 5}, {-20, -5, -1}, 59,
     [](A a) { return a(backwards, backwards, backwards); }},
    {"a[1:-1, -100:100, 4:1:-2]", {1, 4, 2}, {20, 5, -2}, 24,
     [](A a) { return a(jet::slice(1, -1), jet::slice(-100, 100), jet::slice(4, 1, -2)); }},
    {"a[10:20] (empty)", {0, 4, 5}, {20, 5, 1}, 0, [](A a) { return a(jet::slice(10, 20)); }},
    {"a[newaxis, ..., newaxis]", {1, 3, 4, 5, 1}, {0, 20, 5, 1, 0}, 0,
     [](A a) { return a(jet::newaxis, jet::ellipsis, jet::newaxis); }},
    {"a[..., 2]", {3, 4}, {20, 5}, 2, [](A a) { return a(jet::ellipsis, 2); }},
    {"a[1, newaxis, 1:3]", {1, 2, 5}, {0, 5, 1}, 25,
     [](A a) { return a(1, jet::newaxis, jet::slice(1, 3)); }},
    {"a.T", {5, 4, 3}, {1, 5, 20}, 0, [](A a) { return a.T(); }},
    {"a.transpose(1, 2, 0)", {4, 5, 3}, {5, 1, 20}, 0, [](A a) { return a.transpose({1, 2, 0}); }},
    {"a.transpose(-1, 0, 1)", {5, 3, 4}, {1, 20, 5}, 0,
     [](A a) { return a.transpose({-1, 0, 1}); }},
    {"a.swapaxes(0, 2)", {5, 4, 3}, {1, 5, 20}, 0, [](A a) { return a.swapaxes(0, 2); }},
    {"a.swapaxes(-1, 1)", {3, 5, 4}, {20, 1, 5}, 0, [](A a) { return a.swapaxes(-1, 1); }},
    {"a.reshape(12, 5)", {12, 5}, {5, 1}, 0, [](A a) { return a.reshape({12, 5}); }},
    {"a.reshape(-1)", {60}, {1}, 0, [](A a) { return a.reshape({-1}); }},
    {"a.reshape(3, 2, -1, 5)", {3, 2, 2, 5}, {20, 10, 5, 1}, 0,
     [](A a) { return a.reshape({3, 2, -1, 5}); }},
    {"a[:, :, ::2].reshape(12, 3)", {12, 3}, {5, 2}, 0,
     [](A a) { return a(all, all, every(2)).reshape({12, 3}); }},
    {"a[1].reshape(2, 10)", {2, 10}, {10, 1}, 20, [](A a) { return a(1).reshape({2, 10}); }},
    {"a.T.reshape(5, 2, 2, 3) (splits an axis)", {5, 2, 2, 3}, {1, 10, 5, 20}, 0,
     [](A a) { return a.T().reshape({5, 2, 2, 3}); }},
    {"a.expand_dims(0)", {1, 3, 4, 5}, {0, 20, 5, 1}, 0, [](A a) { return a.expand_dims(0); }},
    {"a.expand_dims(-1)", {3, 4, 5, 1}, {20, 5, 1, 0}, 0, [](A a) { return a.expand_dims(-1); }},
    {"a[newaxis, 1, newaxis].squeeze()", {4, 5}, {5, 1}, 20,
     [](A a) { return a(jet::newaxis, 1, jet::newaxis).squeeze(); }},
    {"a[:, 0:1].squeeze(1)", {3, 5}, {20, 1}, 0,
     [](A a) { return a(all, jet::slice(0, 1)).squeeze(1); }},
    {"a[2].broadcast_to(2, 4, 5)", {2, 4, 5}, {0, 5, 1}, 40,
     [](A a) { return a(2).broadcast_to({2, 4, 5}); }},
    {"a[:, 1, newaxis].broadcast_to(3, 6, 5)", {3, 6, 5}, {20, 0, 1}, 5,
     [](A a) { return a(all, 1, jet::newaxis).broadcast_to({3, 6, 5}); }},
    {"a[0].ravel()", {20}, {1}, 0, [](A a) { return a(0).ravel(); }},
    {"a[1].diagonal_view(1)", {4}, {6}, 21, [](A a) { return a(1).diagonal_view(1); }},
};
// clang-format on

// Strides agree on every axis of extent > 1 (the stride of a length-1 axis is never used).
bool same_strides(const jet::shape& s, const jet::shape& got, const jet::shape& want) {
  if (got.size() != s.size() || want.size() != s.size()) return false;
  for (int d = 0; d < s.size(); ++d)
    if (s[d] > 1 && got[d] != want[d]) return false;
  return true;
}

std::ptrdiff_t byte_distance(const jet::array& view, const jet::array& base) {
  return static_cast<const std::byte*>(view.data()) - static_cast<const std::byte*>(base.data());
}

// Element dtypes of three sizes, so that pointer arithmetic in bytes is tested too.
const jet::dtype view_dtypes[] = {jet::uint8, jet::float32, jet::complex128};

}  // namespace

TEST_CASE("views never copy and see the elements NumPy's views see", "[gpu][views]") {
  for (jet::dtype t : view_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      std::mt19937 rng = seeded("views", t);
      const host_values<T> host = random_values<T>(rng, base_shape.product());
      const jet::array a = upload(host, base_shape);
      for (const view_case& c : view_cases) {
        INFO(c.what << " of a " << jet::name(t) << " array");
        guarded([&] {
          const jet::array v = c.make(a);
          INFO("strides " << jet::to_string(v.strides()) << ", want " << jet::to_string(c.strides));
          CHECK(v.dtype() == t);
          CHECK(jet::to_string(v.shape()) == jet::to_string(c.shape));
          CHECK(same_strides(v.shape(), v.strides(), c.strides));
          CHECK(v.shares_buffer_with(a));
          CHECK(v.offset() == c.offset);
          CHECK(byte_distance(v, a) == c.offset * jet::itemsize(t));
          const host_values<T> want = gather(host, c.shape, c.strides, c.offset);
          std::vector<wide_t<T>> expected;
          for (std::int64_t i = 0; i < want.size(); ++i) expected.push_back(widen(want[i]));
          check_close<T>(v, expected);
          if constexpr (!std::is_same_v<T, bool>) {
            const std::vector<T> listed = v.template to_vector<T>();
            CHECK(static_cast<std::int64_t>(listed.size()) == v.size());
          }
        });
      }
    });
  }
}

TEST_CASE("reshape, ravel, flatten, copy and astype copy exactly when NumPy does", "[gpu][views]") {
  std::mt19937 rng = seeded("copies", jet::float32);
  const host_values<float> host = random_values<float>(rng, 60);
  const jet::array a = upload(host, base_shape);
  const jet::array s =
      a(all, all, jet::slice(jet::none, jet::none, 2));  // (3,4,3), strides (20,5,2)
  const struct {
    std::string_view what;
    jet::array result;
    jet::array source;
    jet::shape source_strides;
    std::int64_t source_offset;
    bool copied;
  } cases[] = {
      {"a.reshape(60)", a.reshape({60}), a, {20, 5, 1}, 0, false},
      {"a.ravel()", a.ravel(), a, {20, 5, 1}, 0, false},
      {"a.T.reshape(-1)", a.T().reshape({-1}), a.T(), {1, 5, 20}, 0, true},
      {"a.T.ravel()", a.T().ravel(), a.T(), {1, 5, 20}, 0, true},
      {"a[:, :, ::2].reshape(-1)", s.reshape({-1}), s, {20, 5, 2}, 0, true},
      {"a[:, :, ::2].reshape(3, 12)", s.reshape({3, 12}), s, {20, 5, 2}, 0, true},
      {"a.flatten()", a.flatten(), a, {20, 5, 1}, 0, true},
      {"a[::-1].copy()", a(backwards).copy(), a(backwards), {-20, 5, 1}, 40, true},
      {"a.copy()", a.copy(), a, {20, 5, 1}, 0, true},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    CHECK(c.result.shares_buffer_with(a) == !c.copied);
    if (c.copied) CHECK(c.result.is_c_contiguous());
    const host_values<float> want =
        gather(host, c.source.shape(), c.source_strides, c.source_offset);
    check_close<float>(c.result, std::vector<double>(want.data(), want.data() + want.size()));
  }
  SECTION("astype always copies, also to the same dtype") {
    const jet::array same = a.astype(jet::float32);
    CHECK(!same.shares_buffer_with(a));
    check_close<float>(same, std::vector<double>(host.data(), host.data() + 60));
    const jet::array wide = a.T().astype(jet::float64);
    CHECK(wide.dtype() == jet::float64);
    CHECK(wide.is_c_contiguous());
    const host_values<float> t = gather(host, {5, 4, 3}, {1, 5, 20}, 0);
    check_close<double>(wide, std::vector<double>(t.data(), t.data() + 60));
  }
}

TEST_CASE("bad indices, axes and shapes raise the errors NumPy raises", "[gpu][views]") {
  const jet::array a = jet::zeros(base_shape, jet::int32);
  REQUIRE_THROWS_AS(a(3), jet::index_error);
  REQUIRE_THROWS_WITH(a(3), "index 3 is out of bounds for axis 0 with size 3");
  REQUIRE_THROWS_WITH(a(0, -5), "index -5 is out of bounds for axis 1 with size 4");
  REQUIRE_THROWS_WITH(a(0, 0, 0, 0),
                      "too many indices for array: array is 3-dimensional, but 4 were indexed");
  REQUIRE_THROWS_AS(a(jet::ellipsis, 0, jet::ellipsis), jet::index_error);
  REQUIRE_THROWS_AS(a(jet::slice(0, 3, 0)), jet::value_error);
  REQUIRE_THROWS_AS(a.reshape({7, -1}), jet::value_error);
  REQUIRE_THROWS_WITH(a.reshape({7, -1}), "cannot reshape array of size 60 into shape (7,-1)");
  REQUIRE_THROWS_AS(a.reshape({-1, -1}), jet::value_error);
  REQUIRE_THROWS_AS(a.squeeze(0), jet::value_error);
  REQUIRE_THROWS_AS(a.transpose({0, 0, 1}), jet::value_error);
  REQUIRE_THROWS_AS(a.transpose({0, 1}), jet::value_error);
  REQUIRE_THROWS_WITH(a.swapaxes(0, 3), "axis 3 is out of bounds for array of dimension 3");
  REQUIRE_THROWS_AS(a.expand_dims(4), jet::index_error);
  REQUIRE_THROWS_AS(a.broadcast_to({4, 5, 3}), jet::shape_error);
  REQUIRE_THROWS_AS(a.broadcast_to({4, 5}), jet::shape_error);
}

TEST_CASE("assignment into a view broadcasts, casts and leaves the rest alone", "[gpu][views]") {
  std::mt19937 rng = seeded("assign", jet::float32);
  const host_values<float> host = random_values<float>(rng, 48);
  const host_values<float> row = random_values<float>(rng, 3);
  const jet::array b = upload(host, {6, 8});
  // Rows 1, 3, 5 and columns 7, 4, 1 take the row values, broadcast down the rows.
  b(jet::slice(1, jet::none, 2), jet::slice(jet::none, jet::none, -3)) = upload(row, {3});
  std::vector<double> want(host.data(), host.data() + 48);
  for (std::int64_t i = 1; i < 6; i += 2)
    for (std::int64_t k = 0; k < 3; ++k) want[static_cast<std::size_t>(i * 8 + 7 - 3 * k)] = row[k];
  b(2) = 7.5;  // a scalar fills a row
  for (std::int64_t j = 0; j < 8; ++j) want[static_cast<std::size_t>(16 + j)] = 7.5;
  b(jet::ellipsis, 0) = jet::sin(b(jet::ellipsis, 0));  // an expression over the same elements
  for (std::int64_t i = 0; i < 6; ++i)
    want[static_cast<std::size_t>(i * 8)] =
        std::sin(static_cast<float>(want[static_cast<std::size_t>(i * 8)]));
  check_close<float>(b, want);

  SECTION("values are cast to the destination's dtype") {
    const jet::array i = jet::zeros({4}, jet::int32);
    i(jet::slice(1, 3)) = 2.7;
    i(3) = -2.7;
    check_close<std::int32_t>(i, {0, 2, 2, -2});
  }
  SECTION("shapes that do not broadcast and broadcast destinations are refused") {
    REQUIRE_THROWS_AS(b(0) = jet::zeros({5}), jet::shape_error);
    REQUIRE_THROWS_WITH(b(0) = jet::zeros({5}),
                        "could not broadcast input array from shape (5,) into shape (8,)");
    REQUIRE_THROWS_AS(b(0).broadcast_to({3, 8}) = 1.0, jet::value_error);
  }
}

TEST_CASE("to_vector, to_host and item copy to the host, converting on request", "[gpu][views]") {
  std::mt19937 rng = seeded("to_host", jet::float32);
  const host_values<float> host = random_values<float>(rng, 60);
  const jet::array a = upload(host, base_shape);

  const std::vector<float> strided =
      a(jet::ellipsis, jet::slice(jet::none, jet::none, -2)).to_vector<float>();
  const host_values<float> want = gather(host, {3, 4, 3}, {20, 5, -2}, 4);
  REQUIRE(strided.size() == 36u);
  bool same = true;
  for (std::size_t i = 0; i < strided.size(); ++i)
    same = same && strided[i] == want[static_cast<std::int64_t>(i)];
  CHECK(same);

  const std::vector<double> widened = a(1).to_vector<double>();
  REQUIRE(widened.size() == 20u);
  for (std::size_t i = 0; i < widened.size(); ++i)
    same = same && widened[i] == host[20 + static_cast<std::int64_t>(i)];
  CHECK(same);
  CHECK(a(jet::slice(3, 3)).to_vector<float>().empty());

  std::vector<float> out(60);
  a.to_host(std::span<float>(out));
  CHECK(out[59] == host[59]);
  std::vector<float> short_span(3);
  REQUIRE_THROWS_AS(a.to_host(std::span<float>(short_span)), jet::value_error);
  REQUIRE_THROWS_WITH(a(0, 0).to_host(std::span<float>(short_span)),
                      "host span of 3 elements for an array of 5");

  CHECK(a(1, 2, 3).item<float>() == host[33]);
  CHECK(a(1, 2, 3).item<double>() == static_cast<double>(host[33]));
  CHECK(a(jet::slice(2, 3), jet::slice(0, 1), jet::slice(4, 5)).item<float>() == host[44]);
  CHECK(jet::full(jet::shape{}, 42).item<std::int64_t>() == 42);
  CHECK(jet::full({1, 1, 1}, 2.5, jet::float16).item<float>() == 2.5f);
  REQUIRE_THROWS_AS(a.item<float>(), jet::value_error);
  REQUIRE_THROWS_WITH(a(0).item<float>(), "can only convert an array of size 1 to a C++ scalar");
  REQUIRE_THROWS_AS(jet::zeros({0}).item<double>(), jet::value_error);
}
