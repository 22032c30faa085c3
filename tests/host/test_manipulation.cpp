// Joining and splitting on the host: NumPy's result shapes and errors, and that splits and the
// atleast_*d forms are views; no GPU needed (joins raise before they evaluate anything).
#include <cstdint>
#include <vector>

#include "jet/jet.hpp"
#include "src/array/fused_join.hpp"
#include "support/catch.hpp"
#include "support/compiles.hpp"

namespace {

using jet::placeholder;

std::vector<jet::shape> shapes_of(const std::vector<jet::array>& parts) {
  std::vector<jet::shape> out;
  for (const jet::array& p : parts) out.push_back(p.shape());
  return out;
}

}  // namespace

TEST_CASE("joins raise NumPy's errors, naming the part that does not fit", "[host][manipulation]") {
  const jet::array a = placeholder({2, 3}), b = placeholder({2, 4}), c = placeholder({3});
  CHECK_THROWS_WITH(jet::concatenate({a, b}),
                    ("all the input array dimensions except for the concatenation axis "
                     "must match exactly, but along dimension 1, the array at index 0 "
                     "has size 3 and the array at index 1 has size 4"));
  CHECK_THROWS_WITH(jet::concatenate({a, c}),
                    ("all the input arrays must have same number of dimensions, but the "
                     "array at index 0 has 2 dimension(s) and the array at index 1 has "
                     "1 dimension(s)"));
  CHECK_THROWS_WITH(jet::concatenate({a, a}, 2),
                    ("axis 2 is out of bounds for array of dimension 2"));
  CHECK_THROWS_WITH(jet::concatenate({placeholder({})}),
                    ("zero-dimensional arrays cannot be concatenated"));
  CHECK_THROWS_WITH(jet::concatenate(std::vector<jet::array>{}),
                    ("need at least one array to concatenate"));
  CHECK_THROWS_WITH(jet::stack({a, b}), ("all input arrays must have the same shape"));
  CHECK_THROWS_WITH(jet::stack(std::vector<jet::array>{}), ("need at least one array to stack"));
  CHECK_THROWS_WITH(jet::hstack({a, c}),
                    ("all the input arrays must have same number of dimensions, but the "
                     "array at index 0 has 2 dimension(s) and the array at index 1 has "
                     "1 dimension(s)"));
}

TEST_CASE("splits are views with NumPy's shapes and errors", "[host][manipulation]") {
  const jet::array a = placeholder({10, 6, 4});
  CHECK(shapes_of(jet::split(a, 5)) == std::vector<jet::shape>(5, jet::shape{2, 6, 4}));
  CHECK(shapes_of(jet::array_split(a, 3)) ==
        std::vector<jet::shape>{{4, 6, 4}, {3, 6, 4}, {3, 6, 4}});
  CHECK(shapes_of(jet::split(a, std::vector<std::int64_t>{2, -3, 20}, 1)) ==
        std::vector<jet::shape>{{10, 2, 4}, {10, 1, 4}, {10, 3, 4}, {10, 0, 4}});
  CHECK(shapes_of(jet::hsplit(a, 2)) == std::vector<jet::shape>(2, jet::shape{10, 3, 4}));
  CHECK(shapes_of(jet::vsplit(a, std::vector<std::int64_t>{7})) ==
        std::vector<jet::shape>{{7, 6, 4}, {3, 6, 4}});
  CHECK(shapes_of(jet::dsplit(a, 4)) == std::vector<jet::shape>(4, jet::shape{10, 6, 1}));
  CHECK(shapes_of(jet::hsplit(placeholder({6}), 3)) == std::vector<jet::shape>(3, jet::shape{2}));
  CHECK(jet::split(a, 2, -1)[1].offset() == 2);
  CHECK_THROWS_WITH(jet::split(a, 3), ("array split does not result in an equal division"));
  CHECK_THROWS_WITH(jet::array_split(a, 0), ("number sections must be larger than 0."));
  CHECK_THROWS_WITH(jet::vsplit(placeholder({6}), 2),
                    ("vsplit only works on arrays of 2 or more dimensions"));
  CHECK_THROWS_WITH(jet::dsplit(placeholder({6, 2}), 2),
                    ("dsplit only works on arrays of 3 or more dimensions"));
  CHECK_THROWS_WITH(jet::hsplit(placeholder({}), 2),
                    ("hsplit only works on arrays of 1 or more dimensions"));
}

TEST_CASE("atleast_1d, _2d and _3d add axes as NumPy does, as views", "[host][manipulation]") {
  const jet::array s = placeholder({}), v = placeholder({5}), m = placeholder({2, 3});
  CHECK(jet::atleast_1d(s).shape() == jet::shape{1});
  CHECK(jet::atleast_2d(s).shape() == jet::shape{1, 1});
  CHECK(jet::atleast_3d(s).shape() == jet::shape{1, 1, 1});
  CHECK(jet::atleast_1d(v).shape() == jet::shape{5});
  CHECK(jet::atleast_2d(v).shape() == jet::shape{1, 5});
  CHECK(jet::atleast_3d(v).shape() == jet::shape{1, 5, 1});
  CHECK(jet::atleast_2d(m).shape() == jet::shape{2, 3});
  CHECK(jet::atleast_3d(m).shape() == jet::shape{2, 3, 1});
  CHECK(jet::atleast_3d(m).strides() == jet::shape{3, 1, 0});
  CHECK(jet::atleast_3d(placeholder({2, 3, 4, 5})).shape() == jet::shape{2, 3, 4, 5});
}

TEST_CASE("flips, rot90 and moveaxis are NumPy's views", "[host][manipulation]") {
  const jet::array a = placeholder({2, 3, 4});  // strides (12, 4, 1)
  CHECK(jet::flip(a).strides() == jet::shape{-12, -4, -1});
  CHECK(jet::flip(a).offset() == 23);
  CHECK(jet::flip(a, -1).strides() == jet::shape{12, 4, -1});
  CHECK(jet::fliplr(a).strides() == jet::shape{12, -4, 1});
  CHECK(jet::flipud(a).offset() == 12);
  CHECK_THROWS_WITH(jet::fliplr(placeholder({3})), "Input must be >= 2-d.");
  // rot90 of (2, 3, 4) in the plane (0, 1): (3, 2, 4), a[i, j] -> a[j, n - 1 - i].
  const jet::array r = jet::rot90(a);
  CHECK(r.shape() == jet::shape{3, 2, 4});
  CHECK(r.strides() == jet::shape{-4, 12, 1});
  CHECK(r.offset() == 8);
  CHECK(jet::rot90(a, 2).shape() == jet::shape{2, 3, 4});
  CHECK(jet::rot90(a, -1).strides() == jet::shape{4, -12, 1});
  CHECK(jet::rot90(a, 1, 1, 2).shape() == jet::shape{2, 4, 3});
  CHECK_THROWS_WITH(jet::rot90(a, 1, 0, 0), "Axes must be different.");
  CHECK_THROWS_WITH(jet::rot90(a, 1, 0, 3), "Axes must be different.");
  CHECK_THROWS_WITH(jet::rot90(a, 1, 0, 4), "Axes=(0, 4) out of range for array of ndim=3.");
  CHECK(jet::moveaxis(a, 0, -1).shape() == jet::shape{3, 4, 2});
  CHECK(jet::moveaxis(a, -1, 0).strides() == jet::shape{1, 12, 4});
  const std::vector<jet::array> b = jet::broadcast_arrays({placeholder({3, 1}), placeholder({4})});
  CHECK(shapes_of(b) == std::vector<jet::shape>{{3, 4}, {3, 4}});
  CHECK(b[1].strides() == jet::shape{0, 1});
  const std::vector<jet::array> ix = jet::ix_({placeholder({2}), placeholder({5})});
  CHECK(shapes_of(ix) == std::vector<jet::shape>{{2, 1}, {1, 5}});
  const std::vector<jet::array> sparse =
      jet::meshgrid({placeholder({2}), placeholder({3})}, jet::mesh_indexing::xy, true);
  CHECK(shapes_of(sparse) == std::vector<jet::shape>{{1, 2}, {3, 1}});
  CHECK(shapes_of(jet::meshgrid({placeholder({2}), placeholder({3}), placeholder({4})},
                                jet::mesh_indexing::ij, true)) ==
        std::vector<jet::shape>{{2, 1, 1}, {1, 3, 1}, {1, 1, 4}});
  CHECK_THROWS_WITH(jet::ix_({placeholder({2, 2})}), "Cross index must be 1 dimensional");
  CHECK_THROWS_WITH(jet::diff(a, -1), "order must be non-negative but got -1");
  CHECK_THROWS_WITH(jet::diag(a), "Input must be 1- or 2-d.");
}

TEST_CASE("a join of a few expressions is one kernel, which compiles", "[host][manipulation]") {
  using jet::detail::fused_join;
  using jet::detail::join_part;
  const jet::array a = placeholder({3, 5}, jet::float32), b = placeholder({3, 2}, jet::int32);
  const join_part two[] = {{a * 2, {3, 5}}, {jet::abs(b) + 1, {3, 2}}};
  const jet::detail::node_ptr joined = fused_join(two, 1, {3, 7}, jet::float64);
  REQUIRE(joined);
  const jet::explanation e = jet::explain(jet::expr(joined));
  // Each part reads only where its slab is: a guarded read, never an unconditional one.
  CHECK(e.source.find(" ? x0[") != std::string::npos);
  CHECK(e.source.find(" ? x1[") != std::string::npos);
  jet_test::check_compiles(jet::expr(joined));
  // Rows whose length the vector width divides keep 16-byte stores, the lanes' guarded reads
  // unrolled so that they are in flight together; a row of 7 goes element by element.
  const jet::array wide = placeholder({64, 8}, jet::float32);
  const join_part rows[] = {{wide, {64, 8}}, {wide * 2, {64, 8}}};
  const std::string vectors =
      jet::explain(jet::expr(fused_join(rows, 0, {128, 8}, jet::float32))).source;
  CHECK(vectors.find("jet_vec<float, 4> r{}") != std::string::npos);
  CHECK(vectors.find("#pragma unroll\n    for (int k = 0; k < 4; ++k)\n") != std::string::npos);
  CHECK(e.source.find("jet_vec<double, 1> r{}") != std::string::npos);
  // A row of a (1-D, stacked as atleast_2d), broadcast parts, and every dtype.
  const jet::array row = placeholder({5}, jet::float32);
  const join_part stacked[] = {{row, {1, 5}}, {a + placeholder({1, 5}), {3, 5}}};
  jet_test::check_compiles(jet::expr(fused_join(stacked, 0, {4, 5}, jet::float32)));
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    INFO(jet::name(t));
    const join_part parts[] = {{placeholder({4}, t), {4}}, {placeholder({2}, t), {2}}};
    jet_test::check_compiles(jet::expr(fused_join(parts, 0, {6}, t)));
  }
  // Not one kernel: more than fused_join_parts parts, a reduction, a transposed part, a costly
  // op (computed at every element of the join), no elements.
  const join_part costly[] = {{a * 2, {3, 5}}, {jet::sin(b) + 1, {3, 2}}};
  CHECK(!fused_join(costly, 1, {3, 7}, jet::float64));
  const join_part five[] = {{a, {3, 5}}, {a, {3, 5}}, {a, {3, 5}}, {a, {3, 5}}, {a, {3, 5}}};
  CHECK(!fused_join(five, 0, {15, 5}, jet::float32));
  const join_part reduced[] = {{a, {3, 5}}, {jet::sum(a, 0, true), {1, 5}}};
  CHECK(!fused_join(reduced, 0, {4, 5}, jet::float32));
  const join_part turned[] = {{a.T(), {5, 3}}, {a.T() * 2, {5, 3}}};
  CHECK(!fused_join(turned, 1, {5, 6}, jet::float32));
  const join_part empty[] = {{placeholder({0, 5}), {0, 5}}};
  CHECK(!fused_join(empty, 0, {0, 5}, jet::float64));
}
