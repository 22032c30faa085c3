// choose_access alone: each operand's access class, 32- or 64-bit indexing, vector width and
// tiles, on graphs lowered from arrays at made-up addresses.
#include <cstdint>

#include "codegen/ir/passes.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"
#include "support/fake_arrays.hpp"

namespace {

using jet::ir::access;
using jet_test::fake_array;

constexpr std::uintptr_t at = std::uintptr_t{1} << 32;

jet::ir::graph lowered(const jet::expr& e, const jet::array& out) {
  jet::ir::graph g;
  jet::codegen::build_ir(*e.node(), out, g);
  jet::codegen::collapse_axes(g);
  jet::codegen::choose_access(g);
  return g;
}

}  // namespace

TEST_CASE("contiguous, broadcast and strided operands get their classes", "[host][passes]") {
  const jet::array a = fake_array({64, 48}, jet::float32, at),
                   out = fake_array({64, 48}, jet::float32, 2 * at);
  const jet::array row = fake_array({48}, jet::float32, 3 * at),
                   one = fake_array({1}, jet::float32, 4 * at);
  const jet::ir::graph g = lowered(a + row + one, out);
  REQUIRE(g.inputs.size() == 3);
  CHECK(g.output.mode == access::contiguous);
  CHECK(g.inputs[0].mode == access::contiguous);
  CHECK(g.inputs[1].mode == access::strided_unit_inner);  // repeats along the rows
  const jet::array column = fake_array({64, 1}, jet::float32, 6 * at);
  CHECK(lowered(a + column, out).inputs[1].mode ==
        access::strided_zero_inner);  // repeats along a row
  CHECK(g.inputs[2].mode == access::scalar);
  CHECK(g.vector_width == 4);
  CHECK_FALSE(g.index64);
  CHECK_FALSE(g.tiled);
  // Every other column: strided, unit stride nowhere, so no vectors.
  const jet::array wide = fake_array({64, 96}, jet::float32, 5 * at);
  const jet::ir::graph s =
      lowered(wide(jet::slice(), jet::slice(jet::none, jet::none, 2)) * 2.0f, out);
  CHECK(s.inputs[0].mode == access::strided);
  CHECK(s.vector_width == 1);
}

TEST_CASE("vectors need alignment, and 64-bit indexing needs a reach past 2^31", "[host][passes]") {
  const jet::array out = fake_array({1000}, jet::float32, at);
  CHECK(lowered(fake_array({1000}, jet::float32, 2 * at) + 1.0f, out).vector_width == 4);
  CHECK(lowered(fake_array({1000}, jet::float32, 2 * at, 1) + 1.0f, out).vector_width == 1);
  CHECK(lowered(fake_array({1000}, jet::float64, 2 * at) + 1.0,
                fake_array({1000}, jet::float64, 3 * at))
            .vector_width == 2);
  const std::int64_t big = std::int64_t{1} << 31;
  CHECK(lowered(fake_array({big}, jet::int8, 2 * at) + 1, fake_array({big}, jet::int8, 3 * at))
            .index64);
  CHECK_FALSE(lowered(fake_array({big - 1}, jet::int8, 2 * at) + 1,
                      fake_array({big - 1}, jet::int8, 3 * at))
                  .index64);
  // Half as many elements, but every other one of a reversed view: the reach decides.
  const jet::expr reversed =
      fake_array({big + 8}, jet::int8, 4 * at)(jet::slice(jet::none, jet::none, -2)) + 1;
  REQUIRE(reversed.size() < big);
  CHECK(lowered(reversed, fake_array(reversed.shape(), jet::int8, 5 * at)).index64);
}

TEST_CASE("a transposed operand of a 2-D kernel is read through tiles", "[host][passes]") {
  const jet::array a = fake_array({64, 48}, jet::float32, at),
                   b = fake_array({48, 64}, jet::float64, 2 * at);
  const jet::ir::graph g = lowered(a + b.T(), fake_array({64, 48}, jet::float64, 3 * at));
  CHECK(g.tiled);
  CHECK(g.vector_width == 1);
  CHECK(g.inputs[1].mode == access::transposed);
  CHECK(g.work_items() == 2 * 2);  // 32x32 tiles over 64x48
}

TEST_CASE("a search takes one value a thread", "[host][passes]") {
  const jet::array sorted = fake_array({1 << 20}, jet::float32, at),
                   values = fake_array({4096}, jet::float32, 2 * at),
                   out = fake_array({4096}, jet::int64, 3 * at);
  CHECK(lowered(jet::searchsorted(sorted, values), out).vector_width == 1);
  CHECK(lowered(jet::searchsorted(sorted, values, "right") + 1, out).vector_width == 1);
  // The same values read in order, without a search: vectors of two (int64 output).
  CHECK(lowered(jet::expr(values).astype(jet::int64) + 1, out).vector_width == 2);
}
