// Parameter blocks alone: the table Jet's kernels are laid out by, what packing writes, and
// that the struct the renderer declares puts every field where the table says (NVRTC checks).
#include <cstdint>
#include <cstring>
#include <string>

#include "codegen/core/limits.hpp"
#include "codegen/ir/params.hpp"
#include "codegen/plan/kernel_plan.hpp"
#include "codegen/render/render.hpp"
#include "jet/jet.hpp"
#include "src/nvrtc/compile.hpp"
#include "support/catch.hpp"
#include "support/fake_arrays.hpp"

namespace {

using jet::codegen::param_role;
using jet_test::fake_array;

constexpr std::uintptr_t at = std::uintptr_t{1} << 32;

struct lowered {
  jet::ir::graph g;
  jet::codegen::kernel_plan plan;
  lowered(const jet::expr& e, const jet::array& out) {
    jet::codegen::lower(*e.node(), out, 132, g, plan);
  }
  template <class T>
  T read(param_role role, int index = 0) const {
    alignas(16) std::byte block[jet::codegen::max_param_bytes];
    plan.params.pack(block);
    T value;
    std::memcpy(&value, block + plan.params.at(role, index).offset, sizeof value);
    return value;
  }
};

// The member of jet_params that the renderer declares for a field.
std::string member_of(const jet::codegen::param_field& f) {
  const std::string k = std::to_string(f.index);
  switch (f.role) {
    case param_role::output: return "* out;";
    case param_role::input: return "* in" + k + ";";
    case param_role::scalar: return " s" + k + ";";
    case param_role::count: return " n;";
    case param_role::extents: return " extents[";
    case param_role::strides: return (f.index < 0 ? std::string(" out") : " in" + k) + "_strides[";
    case param_role::reduce_outputs: return " outputs, length, chunk, splits;";
    case param_role::reduce_work: return " work;";
    case param_role::reduce_counters: return " counters;";
    case param_role::post_arg: return " post_arg;";
    default: return "";  // the other three sizes, declared with reduce_outputs
  }
}

// The struct the renderer declares lists the table's fields in its order, each 8-byte aligned,
// and NVRTC gives it the table's size: so every member sits at its field's offset.
void check_struct_matches(const lowered& l) {
  jet::codegen::kernel_source source = jet::codegen::render(l.plan);
  const std::size_t start = source.source.find("struct jet_params {");
  const std::size_t end = source.source.find("};", start);
  REQUIRE(end != std::string::npos);
  const std::string block = source.source.substr(start, end - start);
  std::size_t at = 0;
  for (const jet::codegen::param_field& f : l.plan.params.fields()) {
    const std::string member = member_of(f);
    if (member.empty()) continue;
    INFO(block << "\nfield " << member);
    const std::size_t found = block.find(member, at);
    REQUIRE(found != std::string::npos);
    at = found + member.size();
  }
  source.source += "static_assert(sizeof(jet_params) == " + std::to_string(l.plan.params.bytes()) +
                   " && alignof(jet_params) == 8, \"jet_params is not the table's size\");\n";
  INFO(source.source);
  CHECK(!jet::detail::compile(source, "sm_90").image.empty());
}

}  // namespace

TEST_CASE("an elementwise kernel's block: addresses, scalars as computed, count, extents, strides",
          "[host][passes]") {
  const jet::array a = fake_array({64, 48}, jet::float16, at);
  const jet::array t = fake_array({48, 64}, jet::float16, 2 * at);
  const jet::array out = fake_array({64, 48}, jet::float16, 3 * at);
  const lowered l(a * 0.1 + t.T() * 0.5 + 3, out);
  // out, 2 inputs, 3 scalars, n, 2 extents, the transposed input's 2 strides.
  const std::size_t offsets[] = {0, 8, 16, 24, 32, 40, 48, 56, 72};
  const auto& fields = l.plan.params.fields();
  REQUIRE(fields.size() == std::size(offsets));
  for (std::size_t i = 0; i < fields.size(); ++i) CHECK(fields[i].offset == offsets[i]);
  CHECK(fields[0].role == param_role::output);
  CHECK(fields[8].role == param_role::strides);
  CHECK(l.read<const void*>(param_role::output) == out.data());
  CHECK(l.read<const void*>(param_role::input, 1) == t.data());
  // A float16 scalar is passed as the float the kernel computes in, rounded to float16 first.
  CHECK(l.read<float>(param_role::scalar, 0) == static_cast<float>(jet::float16_t(0.1f)));
  CHECK(l.read<std::int64_t>(param_role::count) == 64 * 48);
  CHECK(l.read<std::int64_t>(param_role::extents) == 64);
  CHECK(l.read<std::int64_t>(param_role::strides, 1) == 1);  // t.T()'s outer stride
  check_struct_matches(l);
}

TEST_CASE("a reduction's block reads its chunk plan when it packs", "[host][passes]") {
  const jet::array m = fake_array({8192, 8192}, jet::float64, at);
  lowered l(jet::sum(m, 0), fake_array({8192}, jet::float64, 2 * at));
  jet::ir::reduction_geometry& r = l.g.reduce.geometry;
  jet::codegen::plan_chunks(r, 132, 8);
  r.work = reinterpret_cast<void*>(0x1000);
  CHECK(l.read<std::int64_t>(param_role::reduce_splits) == r.splits);
  CHECK(l.read<std::int64_t>(param_role::reduce_chunk) == r.chunk);
  CHECK(l.read<void*>(param_role::reduce_work) == r.work);
  CHECK(l.read<std::int64_t>(param_role::reduce_outputs) == 8192);
  check_struct_matches(l);
  // The reduction inside a norm, as evaluation lowers it (after taking it out of the tree).
  const jet::expr norm = jet::linalg::norm(fake_array({100, 7}, jet::complex128, 3 * at), 3.0, 1);
  const jet::detail::node* reduction = norm.node().get();
  while (reduction->op != jet::detail::op_code::reduce) reduction = reduction->args[0].get();
  jet::ir::graph g;
  jet::codegen::kernel_plan plan;
  jet::codegen::lower(*reduction, fake_array({100}, jet::float64, 4 * at), 132, g, plan);
  CHECK_THROWS_AS(plan.params.at(param_role::raw_size), jet::internal_error);
}

TEST_CASE("past 4 KiB of parameters an expression is no single kernel", "[host][passes]") {
  const jet::array x = fake_array({1000}, jet::float64, at),
                   out = fake_array({1000}, jet::float64, 2 * at);
  jet::expr e = x;
  for (int i = 0; i < 600; ++i) e = e * (1.0 + i);
  jet::ir::graph g;
  jet::codegen::kernel_plan plan;
  CHECK(jet::codegen::lower(*e.node(), out, 132, g, plan) ==
        jet::codegen::lowering::too_many_parameters);
  CHECK(plan.params.bytes() > jet::codegen::max_param_bytes);
  jet::expr few = x;
  for (int i = 0; i < 10; ++i) few = few * (1.0 + i);
  CHECK(jet::codegen::lower(*few.node(), out, 132, g, plan) == jet::codegen::lowering::one_kernel);
}
