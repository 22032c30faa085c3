// collapse_axes alone: extent-1 axes dropped, neighbours contiguous in every operand merged,
// never across a boundary.
#include "codegen/ir/passes.hpp"
#include "support/catch.hpp"

namespace {

jet::ir::operand strided(jet::shape strides) {
  jet::ir::operand op;
  op.strides = strides;
  return op;
}

jet::ir::graph over(jet::shape extents, jet::shape out_strides,
                    std::initializer_list<jet::shape> inputs) {
  jet::ir::graph g;
  g.extents = extents;
  g.output = strided(out_strides);
  for (const jet::shape& s : inputs) g.inputs.push_back(strided(s));
  return g;
}

}  // namespace

TEST_CASE("contiguous axes merge into one and extent-1 axes go", "[host][passes]") {
  jet::ir::graph g = over({4, 1, 5, 6}, {30, 30, 6, 1}, {{30, 0, 6, 1}});
  CHECK(jet::codegen::collapse_axes(g) == 0);
  CHECK(g.extents == jet::shape{120});
  CHECK(g.output.strides == jet::shape{1});
  CHECK(g.inputs[0].strides == jet::shape{1});
}

TEST_CASE("a broadcast or transposed operand keeps axes apart", "[host][passes]") {
  // (4,5) + (5,): the second operand repeats along axis 0.
  jet::ir::graph bcast = over({4, 5}, {5, 1}, {{5, 1}, {0, 1}});
  jet::codegen::collapse_axes(bcast);
  CHECK(bcast.extents == jet::shape{4, 5});
  CHECK(bcast.inputs[1].strides == jet::shape{0, 1});
  // A + B.T over 3x4.
  jet::ir::graph transposed = over({3, 4}, {4, 1}, {{4, 1}, {1, 3}});
  jet::codegen::collapse_axes(transposed);
  CHECK(transposed.extents == jet::shape{3, 4});
  // A broadcast scalar (every stride 0) merges as anything contiguous does.
  jet::ir::graph scalar = over({3, 4}, {4, 1}, {{0, 0}});
  jet::codegen::collapse_axes(scalar);
  CHECK(scalar.extents == jet::shape{12});
  CHECK(scalar.inputs[0].strides == jet::shape{0});
}

TEST_CASE("axes never merge across the boundary, which moves as axes go", "[host][passes]") {
  // Kept axes (2, 1, 3), reduced (4, 5), all contiguous: two groups of one axis each.
  jet::ir::graph g = over({2, 1, 3, 4, 5}, {3, 3, 1, 0, 0}, {{60, 60, 20, 5, 1}});
  CHECK(jet::codegen::collapse_axes(g, 3) == 1);
  CHECK(g.extents == jet::shape{6, 20});
  CHECK(g.inputs[0].strides == jet::shape{20, 1});
  CHECK(g.output.strides == jet::shape{1, 0});
  // A dropped reduced axis leaves the boundary where it is.
  jet::ir::graph h = over({6, 1, 7}, {1, 0, 0}, {{7, 7, 1}});
  CHECK(jet::codegen::collapse_axes(h, 1) == 1);
  CHECK(h.extents == jet::shape{6, 7});
}
