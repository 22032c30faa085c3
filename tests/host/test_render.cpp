// Rendered kernels compile with NVRTC, with the options the pipeline gives them; no GPU needed.
#include <cstdint>
#include <memory>
#include <string>

#include "codegen/ir/passes.hpp"
#include "codegen/plan/kernel_plan.hpp"
#include "jet/jet.hpp"
#include "src/device/memory.hpp"
#include "src/nvrtc/compile.hpp"
#include "support/catch.hpp"
#include "support/compiles.hpp"

using jet_test::check_compiles;

TEST_CASE("every dtype's copy, cast and arithmetic kernel compiles", "[host][render]") {
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    const jet::array a = jet::placeholder({7, 5}, t);
    const jet::array b = jet::placeholder({5}, t);
    INFO(jet::name(t));
    check_compiles(jet::expr(a).astype(jet::float32));
    check_compiles(jet::expr(a).astype(jet::complex64));
    check_compiles(jet::expr(a).astype(jet::float16));
    check_compiles(jet::expr(a).astype(jet::bool_));
    check_compiles(a * b + a);
    check_compiles(jet::where(a == b, a, b));
    check_compiles(jet::maximum(a, b));
    check_compiles(jet::isfinite(a) || jet::isnan(b));
  }
}

TEST_CASE("transcendental kernels compile for float and complex dtypes", "[host][render]") {
  for (jet::dtype t :
       {jet::float16, jet::bfloat16, jet::float32, jet::float64, jet::complex64, jet::complex128}) {
    const jet::array a = jet::placeholder({33}, t);
    INFO(jet::name(t));
    check_compiles(jet::sin(a) + jet::cos(a) + jet::tan(a) + jet::exp(a) + jet::log(a) +
                   jet::sqrt(a));
    check_compiles(jet::arcsin(a) + jet::arccos(a) + jet::arctan(a) + jet::sinh(a) + jet::cosh(a) +
                   jet::tanh(a));
    check_compiles(jet::arcsinh(a) + jet::arccosh(a) + jet::arctanh(a) + jet::exp2(a) +
                   jet::expm1(a));
    check_compiles(jet::log2(a) + jet::log10(a) + jet::log1p(a) + jet::rint(a) + jet::power(a, a));
    check_compiles(jet::sign(a) + jet::square(a) + jet::reciprocal(a) + jet::abs(a) + jet::conj(a));
  }
}

TEST_CASE("integer kernels compile", "[host][render]") {
  for (jet::dtype t : {jet::int8, jet::uint8, jet::int32, jet::uint64, jet::int64}) {
    const jet::array a = jet::placeholder({9, 2}, t);
    INFO(jet::name(t));
    check_compiles(jet::floor_divide(a, a) + a % a + jet::fmod(a, a) + jet::power(a, a));
    check_compiles((a << a) ^ (a >> a) ^ (a & a) ^ (a | a) ^ ~a);
    check_compiles(jet::abs(a) + jet::sign(a) + jet::reciprocal(a));
  }
}

TEST_CASE("a transposed operand is staged through shared-memory tiles", "[host][render]") {
  const jet::array a = jet::placeholder({64, 48}, jet::float32);
  const jet::array b = jet::placeholder({48, 64}, jet::float64);
  const jet::explanation x = jet::explain(a + b.T());
  CHECK(x.operands.find("transposed (shared-memory tiles)") != std::string::npos);
  CHECK(x.source.find("__shared__") != std::string::npos);
  check_compiles(a + b.T());
  check_compiles(jet::where(a > 0, b.T(), a(jet::slice(jet::none, jet::none, -1))));
}

TEST_CASE("large expressions lower equal subexpressions to one instruction", "[host][render]") {
  // Operands merge by address, which placeholders lack: an array with a made-up address (never
  // read, and cleared before the buffer is freed).
  const auto memory = std::make_shared<jet::detail::buffer>();
  memory->data = reinterpret_cast<void*>(std::uintptr_t{1} << 20);
  const jet::array a(memory, jet::float32, {100}, {1}, 0);
  const jet::array out = jet::placeholder({100}, jet::float32);
  // Two separately built copies of a 60-instruction chain: distinct nodes, equal structure,
  // well past the size where the IR builder switches from scanning to hashing.
  auto chain = [&] {
    jet::expr x = a;
    for (int i = 0; i < 30; ++i) x = jet::sin(x) + a;
    return x;
  };
  const jet::expr once = chain();
  jet::ir::graph g;
  jet::codegen::build_ir(*(once + chain()).node(), out, g);
  CHECK(g.inputs.size() == 1);
  CHECK(g.code.size() == 1 + 60 + 1);  // a, the chain, the final add
  // A node used twice is lowered once; equal scalars stay separate parameters.
  jet::codegen::build_ir(*(once * once + 2.0f + 2.0f).node(), out, g);
  CHECK(g.code.size() == 1 + 60 + 1 + 2 * 2);
  CHECK(g.params.size() == 2);
  memory->data = nullptr;
}

TEST_CASE("1 / x of float32 and float64 lowers to a reciprocal", "[host][render]") {
  using jet::detail::op_code;
  auto last_op = [](const jet::expr& e) {
    jet::ir::graph g;
    jet::codegen::build_ir(*e.node(), jet::placeholder(e.shape(), e.dtype()), g);
    return g.code.back().op;
  };
  for (jet::dtype t : {jet::float32, jet::float64}) {
    const jet::array x = jet::placeholder({10}, t);
    CHECK(last_op(1.0 / x) == op_code::reciprocal);
    CHECK(last_op(1 / x) == op_code::reciprocal);
    CHECK(last_op(2.0 / x) == op_code::true_divide);
    CHECK(last_op(x / 1.0) == op_code::true_divide);
    check_compiles(1.0 / (x + 1.0));
  }
  // An integer operand is cast to float64 first, then inverted; float16 and complex divide.
  CHECK(jet::detail::op_name(last_op(1.0 / jet::placeholder({10}, jet::int32))) ==
        std::string("reciprocal"));
  CHECK(last_op(1.0 / jet::placeholder({10}, jet::float16)) == op_code::true_divide);
  CHECK(last_op(1.0 / jet::placeholder({10}, jet::complex64)) == op_code::true_divide);
}

TEST_CASE("walks over an expression look at each node once however often it is reused",
          "[host][render]") {
  // x = x + x, 40 times: 42 nodes and 2^40 paths from the root to `a`.
  jet::expr x = jet::placeholder({8}, jet::float32);
  for (int i = 0; i < 40; ++i) x = x + x;
  int looked_at = 0;
  const bool found = jet::detail::any_node(*x.node(), [&](const jet::detail::node&) {
    ++looked_at;
    return false;
  });
  CHECK_FALSE(found);
  CHECK(looked_at == 41);
  // The walk stops at the first node the predicate holds for.
  looked_at = 0;
  CHECK(jet::detail::any_node(*x.node(), [&](const jet::detail::node& n) {
    ++looked_at;
    return n.op == jet::detail::op_code::input;
  }));
  CHECK(looked_at == 41);
  jet::ir::graph g;
  jet::codegen::build_ir(*x.node(), jet::placeholder({8}, jet::float32), g);
  CHECK(g.code.size() == 41);
}

TEST_CASE("reduction chunk plans never ask for more blocks than the GPU keeps resident",
          "[host][render][reduce]") {
  // 8192 column sums of float64: 32 blocks of 256 outputs, the 8192 rows cut into chunks.
  const jet::expr columns = jet::sum(jet::placeholder({8192, 8192}, jet::float64), 0);
  jet::ir::graph g;
  jet::codegen::build_reduce_ir(*columns.node(), jet::placeholder({8192}, jet::float64), g, 132);
  jet::ir::reduction_geometry& r = g.reduce.geometry;
  REQUIRE(r.columns);
  // 8 blocks resident per SM, twice the 4 a column plan aims for: it reaches the wanted 528
  // from above, 17 x 32.
  jet::codegen::plan_chunks(r, 132, 8);
  CHECK(r.splits == 17);
  // A kernel resident 4 blocks per SM: 17 x 32 would leave 16 blocks for a second wave.
  CHECK(jet::codegen::plan_chunks(r, 132, 4) == std::size_t{16 * 8192 * 8});
  CHECK(r.splits == 16);
  // Fewer resident blocks (20) than the outputs need (32): one chunk, no work buffer.
  CHECK(jet::codegen::plan_chunks(r, 5, 4) == 0);
  CHECK(r.splits == 1);

  // 100 sums of rows of 2^20 elements that load one at a time, a block per row.
  const jet::array wide = jet::placeholder({100, std::int64_t{1} << 21}, jet::float32);
  const jet::expr rows = jet::sum(wide(jet::slice(), jet::slice(jet::none, jet::none, 2)), 1);
  jet::ir::graph h;
  jet::codegen::build_reduce_ir(*rows.node(), jet::placeholder({100}, jet::float32), h, 132);
  jet::ir::reduction_geometry& q = h.reduce.geometry;
  REQUIRE_FALSE(q.columns);
  REQUIRE(q.group == 256);
  jet::codegen::plan_chunks(q, 132, 8);
  CHECK(q.splits == 10);
  CHECK(q.chunk * q.splits >= q.length);
}
