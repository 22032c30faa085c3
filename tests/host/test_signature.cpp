// The memory-cache key alone: the structure of a kernel, never its parameters. The design's
// promise that `a * 2.0` and `a * 3.0` share one compiled kernel rests on it.
#include <cstdint>
#include <string>

#include "codegen/ir/passes.hpp"
#include "codegen/plan/kernel_plan.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"
#include "support/fake_arrays.hpp"

namespace {

using jet_test::fake_array;

constexpr std::uintptr_t at = std::uintptr_t{1} << 32;

// The key of the kernel that evaluates `e` into `out`.
std::string key_of(const jet::expr& e, const jet::array& out) {
  jet::ir::graph g;
  jet::codegen::kernel_plan plan;
  jet::codegen::lower(*e.node(), out, 132, g, plan);
  std::string key;
  jet::codegen::append_key(plan, key);
  return key;
}

}  // namespace

TEST_CASE("a * 2.0 and a * 3.0 share one kernel", "[host][passes]") {
  const jet::array a = fake_array({1000}, jet::float32, at),
                   out = fake_array({1000}, jet::float32, 2 * at);
  CHECK(key_of(a * 2.0, out) == key_of(a * 3.0, out));
  CHECK(key_of(a * 2, out) == key_of(a * -7, out));
  // The same through explain, which renders and compiles what a launch would find.
  const jet::explanation two = jet::explain(a * 2.0), three = jet::explain(a * 3.0);
  CHECK(two.key == three.key);
  CHECK(two.source == three.source);
}

TEST_CASE("keys leave out addresses and sizes, and keep what changes the source",
          "[host][passes]") {
  const jet::array a = fake_array({1000}, jet::float32, at),
                   out = fake_array({1000}, jet::float32, 2 * at);
  const std::string base = key_of(a + 1.0f, out);
  // Other addresses and another length of the same rank after collapsing: the same kernel.
  CHECK(key_of(fake_array({1000}, jet::float32, 3 * at) + 1.0f,
               fake_array({1000}, jet::float32, 4 * at)) == base);
  CHECK(key_of(fake_array({2, 500}, jet::float32, 3 * at) + 1.0f,
               fake_array({2, 500}, jet::float32, 4 * at)) == base);
  // Another op, dtype, access or index width: another kernel.
  CHECK(key_of(a - 1.0f, out) != base);
  CHECK(key_of(fake_array({1000}, jet::float64, 3 * at) + 1.0,
               fake_array({1000}, jet::float64, 4 * at)) != base);
  CHECK(key_of(fake_array({2000}, jet::float32, 3 * at)(jet::slice(jet::none, jet::none, 2)) + 1.0f,
               out) != base);
  CHECK(key_of(fake_array({1000}, jet::float32, 3 * at, 1) + 1.0f, out) !=
        base);  // unaligned: no vectors
  const std::int64_t big = std::int64_t{1} << 31;
  CHECK(key_of(fake_array({big}, jet::float32, 3 * at) + 1.0f,
               fake_array({big}, jet::float32, 4 * at)) != base);
  // A reduction is keyed by its op, layout and result dtype.
  const jet::array m = fake_array({300, 500}, jet::float32, 5 * at);
  const jet::array rows = fake_array({300}, jet::float32, 6 * at),
                   cols = fake_array({500}, jet::float32, 7 * at);
  CHECK(key_of(jet::sum(m, 1), rows) != key_of(jet::max(m, 1), rows));
  CHECK(key_of(jet::sum(m, 1), rows) != key_of(jet::sum(m, 0), cols));
  CHECK(key_of(jet::sum(m, 1), rows) ==
        key_of(jet::sum(fake_array({300, 700}, jet::float32, 8 * at), 1), rows));
}
