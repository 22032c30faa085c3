// Advanced indexing on the host: NumPy's result shapes (where the broadcast axes go), its
// errors, and the gather and scatter kernels compiling with NVRTC; no GPU needed.
#include <cstdint>
#include <string>

#include "codegen/ir/ir.hpp"
#include "codegen/plan/kernel_plan.hpp"
#include "jet/jet.hpp"
#include "src/nvrtc/compile.hpp"
#include "support/catch.hpp"
#include "support/compiles.hpp"

namespace {

using jet::placeholder;
using jet_test::check_compiles;
const jet::slice all;

jet::array positions(const jet::shape& s, jet::dtype t = jet::int64) { return placeholder(s, t); }

}  // namespace

TEST_CASE("advanced indexing places the broadcast axes as NumPy does", "[host][indexing]") {
  const jet::array x = placeholder({5, 6, 7}, jet::float32);
  const jet::array i3 = positions({3}), i21 = positions({2, 1}), i4 = positions({4});
  // Alone or adjacent: where the index arrays are.
  CHECK(x(i3).shape() == jet::shape{3, 6, 7});
  CHECK(x(all, i3).shape() == jet::shape{5, 3, 7});
  CHECK(x(all, all, i21).shape() == jet::shape{5, 6, 2, 1});
  CHECK(x(i21, i3).shape() == jet::shape{2, 3, 7});
  CHECK(x(all, i21, i3).shape() == jet::shape{5, 2, 3});
  CHECK(x(jet::ellipsis, i21).shape() == jet::shape{5, 6, 2, 1});
  CHECK(x(jet::newaxis, i3).shape() == jet::shape{1, 3, 6, 7});
  // An integer counts as an index array of no axes: x[:, 0, idx] keeps them together, while
  // x[0, :, idx] separates them, and separated broadcast axes go first.
  CHECK(x(all, 0, i4).shape() == jet::shape{5, 4});
  CHECK(x(0, all, i4).shape() == jet::shape{4, 6});
  CHECK(x(i21, all, i3).shape() == jet::shape{2, 3, 6});
  CHECK(x(i3, jet::newaxis, i3).shape() == jet::shape{3, 1, 7});
  CHECK(x(jet::slice(1, 3), i4, jet::slice(jet::none, jet::none, -2)).shape() ==
        jet::shape{2, 4, 4});
  // Any integer dtype; the result keeps x's dtype.
  for (jet::dtype t : {jet::int8, jet::uint8, jet::int16, jet::uint16, jet::int32, jet::uint32,
                       jet::int64, jet::uint64}) {
    const auto r = x(positions({2}, t));
    CHECK(r.dtype() == jet::float32);
    CHECK(r.shape() == jet::shape{2, 6, 7});
  }
  // Empty index arrays give empty results.
  CHECK(x(positions({0})).shape() == jet::shape{0, 6, 7});
}

TEST_CASE("advanced indexing raises NumPy's errors", "[host][indexing]") {
  const jet::array x = placeholder({5, 6}, jet::float64);
  CHECK_THROWS_WITH(x(positions({2}, jet::float32)),
                    ("arrays used as indices must be of integer (or boolean) type"));
  CHECK_THROWS_WITH(x(positions({2}), positions({3})),
                    ("shape mismatch: indexing arrays could not be "
                     "broadcast together with shapes (2,) (3,)"));
  CHECK_THROWS_WITH(x(positions({2}), 0, 1), ("too many indices for array: array is "
                                              "2-dimensional, but 3 were indexed"));
  CHECK_THROWS_WITH(x(positions({2}), 6), ("index 6 is out of bounds for axis 1 with size 6"));
  CHECK_THROWS_AS(x(positions({2}), jet::ellipsis, jet::ellipsis), jet::index_error);
}

TEST_CASE("a boolean mask must match the axes it covers", "[host][indexing]") {
  const jet::array x = placeholder({5, 6, 2}, jet::float32);
  CHECK_THROWS_WITH(x(positions({6}, jet::bool_)),
                    ("boolean index did not match indexed array along axis 0; size of axis is 5 "
                     "but size of corresponding boolean axis is 6"));
  CHECK_THROWS_WITH(x(all, positions({6, 3}, jet::bool_)),
                    ("boolean index did not match indexed array along axis 2; size of axis is 2 "
                     "but size of corresponding boolean axis is 3"));
  CHECK_THROWS_WITH(x(positions({5, 6}, jet::bool_), 0, 1),
                    ("too many indices for array: array is 3-dimensional, but 4 were indexed"));
  CHECK_THROWS_AS(x(positions({5}, jet::bool_), jet::ellipsis, jet::ellipsis), jet::index_error);
  // Matching masks make an expression without counting anything yet.
  CHECK_NOTHROW(x(positions({5, 6}, jet::bool_)));
  CHECK_NOTHROW(x(jet::ellipsis, positions({2}, jet::bool_)));
  CHECK_NOTHROW(x(positions({}, jet::bool_)));
}

TEST_CASE("take and take_along_axis have NumPy's shapes and errors", "[host][indexing]") {
  const jet::array a = placeholder({5, 6}, jet::int32);
  CHECK(jet::take(a, positions({2, 3})).shape() == jet::shape{2, 3});
  CHECK(jet::take(a, positions({2, 3}), 1).shape() == jet::shape{5, 2, 3});
  CHECK(jet::take(a, positions({4}), -2, jet::index_mode::clip).shape() == jet::shape{4, 6});
  CHECK(jet::take(a, positions({4}), 0).dtype() == jet::int32);
  CHECK_THROWS_WITH(jet::take(a, positions({4}), 2),
                    ("axis 2 is out of bounds for array of dimension 2"));
  CHECK_THROWS_WITH(jet::take(placeholder({0, 3}), positions({1}), 0, jet::index_mode::wrap),
                    ("cannot do a non-empty take from an empty axes."));
  CHECK(jet::take_along_axis(a, positions({5, 2}), 1).shape() == jet::shape{5, 2});
  CHECK(jet::take_along_axis(a, positions({1, 2}), 1).shape() == jet::shape{5, 2});
  CHECK(jet::take_along_axis(a, positions({3, 1}), 0).shape() == jet::shape{3, 6});
  CHECK(jet::take_along_axis(a, positions({7}), std::nullopt).shape() == jet::shape{7});
  CHECK_THROWS_WITH(jet::take_along_axis(a, positions({5}), 1),
                    ("`indices` and `arr` must have the same number of dimensions"));
  CHECK_THROWS_WITH(jet::take_along_axis(a, positions({5, 2}, jet::float32), 1),
                    ("`indices` must be an integer array"));
}

TEST_CASE("gathers fuse into one kernel, which compiles", "[host][indexing][render]") {
  const jet::array x = placeholder({100, 8}, jet::float32);
  const jet::array y = placeholder({50, 8}, jet::float32);
  const jet::array idx = positions({50});
  const jet::explanation e = jet::explain(jet::sin(x(idx)) * 2 + y);
  CHECK(e.source.find("jet_checked_index") != std::string::npos);
  check_compiles(jet::sin(x(idx)) * 2 + y);
  check_compiles(jet::sum(x(idx), 1));
  check_compiles(jet::sum(x(idx)));
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    INFO(jet::name(t));
    const jet::array a = placeholder({9, 4}, t);
    check_compiles(a(positions({3, 2}, jet::int32), positions({2}, jet::uint8)));
    check_compiles(jet::take(a, positions({5}), 1, jet::index_mode::wrap));
    check_compiles(jet::take_along_axis(a, positions({9, 1}), 1));
  }
}

TEST_CASE("a scatter kernel compiles", "[host][indexing][render]") {
  for (jet::dtype t :
       {jet::bool_, jet::int16, jet::float16, jet::bfloat16, jet::float64, jet::complex64}) {
    INFO(jet::name(t));
    const jet::array x = placeholder({9, 4}, t);
    const jet::indexed target = x(positions({3}), jet::slice(1, 3));
    const jet::detail::node& gather = *target.node();
    jet::ir::graph g;
    jet::codegen::kernel_plan plan;
    const jet::array values = placeholder({3, 2}, jet::float32);
    REQUIRE(jet::codegen::lower_scatter(*jet::expr(values * 2).node(), *gather.args[0],
                                        gather.value(), jet::detail::scatter_op::store, 0, g,
                                        plan) == jet::codegen::lowering::one_kernel);
    const jet::codegen::kernel_source source = jet::codegen::render(plan);
    INFO(source.source);
    CHECK(source.source.find("store_at") != std::string::npos);
    CHECK(!jet::detail::compile(source, "sm_90", jet::codegen::jet_kernel_extras()).image.empty());
  }
}

TEST_CASE("the atomic scatters of add_at, maximum_at and minimum_at compile for every dtype",
          "[host][indexing][render]") {
  using op = jet::detail::scatter_op;
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    for (op o : {op::add, op::maximum, op::minimum}) {
      INFO(jet::name(t) << " op " << static_cast<int>(o));
      const jet::array x = placeholder({64}, t);
      const jet::indexed target = x(positions({100}));
      const jet::detail::node& gather = *target.node();
      jet::ir::graph g;
      jet::codegen::kernel_plan plan;
      const jet::array values = placeholder({100}, t);
      REQUIRE(jet::codegen::lower_scatter(*jet::expr(values).node(), *gather.args[0],
                                          gather.value(), o, 0, g,
                                          plan) == jet::codegen::lowering::one_kernel);
      const jet::codegen::kernel_source source = jet::codegen::render(plan);
      INFO(source.source);
      CHECK(source.source.find("jet_atomic_") != std::string::npos);
      CHECK(
          !jet::detail::compile(source, "sm_90", jet::codegen::jet_kernel_extras()).image.empty());
    }
  }
}

TEST_CASE("a histogram's few bins are added in shared memory first, where they add by one atomic",
          "[host][indexing][render]") {
  for (jet::dtype t : {jet::int64, jet::float64, jet::int32, jet::float32, jet::complex128,
                       jet::float16, jet::int8}) {
    for (std::int64_t bins : {1, 1025, 4096, 4097}) {
      INFO(jet::name(t) << ", " << bins << " bins");
      const jet::array counts = placeholder({bins}, t);
      const jet::array over(counts.buffer(), t, {1000}, {0}, counts.offset());
      jet::ir::graph g;
      jet::codegen::kernel_plan plan;
      REQUIRE(jet::codegen::lower_scatter(*jet::expr(1).astype(t).node(),
                                          *jet::expr(positions({1000})).node(), over,
                                          jet::detail::scatter_op::add, bins, g,
                                          plan) == jet::codegen::lowering::one_kernel);
      const bool shared =
          jet::itemsize(t) * bins <= 32 * 1024 &&
          (t == jet::int64 || t == jet::float64 || t == jet::int32 || t == jet::float32);
      CHECK(g.shared_bins == (shared ? bins : 0));
      CHECK(plan.launch.uncapped == !shared);
      const jet::codegen::kernel_source source = jet::codegen::render(plan);
      INFO(source.source);
      CHECK((source.source.find("__shared__") != std::string::npos) == shared);
      CHECK(
          !jet::detail::compile(source, "sm_90", jet::codegen::jet_kernel_extras()).image.empty());
    }
  }
}

TEST_CASE("add_at, put and putmask check their operands as NumPy does", "[host][indexing]") {
  const jet::array a = placeholder({5, 6}, jet::int32);
  CHECK_THROWS_AS(jet::add_at(a, positions({3}), placeholder({3, 6}, jet::float64)),
                  jet::dtype_error);
  CHECK_THROWS_AS(jet::add_at(a, positions({3}), placeholder({4, 6}, jet::int32)),
                  jet::shape_error);
  CHECK_THROWS_WITH(jet::putmask(a, placeholder({5}, jet::bool_), 1),
                    ("putmask: mask and data must be the same size"));
}
