// jet::evaluate of several expressions: the one kernel computing them, rendered and compiled
// with NVRTC (no GPU needed).
#include <string>
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

int lines(const std::string& s) {
  int n = 0;
  for (char c : s) n += c == '\n';
  return n;
}

}  // namespace

TEST_CASE("several results of one shape are one kernel over shared inputs", "[host][together]") {
  const jet::array a = jet::placeholder({1000, 7}, jet::float64);
  const jet::array b = jet::placeholder({7}, jet::float64);
  const jet::expr shared = jet::exp(a * b);
  const std::vector<jet::expr> list{shared + 1, shared.astype(jet::float32), shared > 0};
  const jet::explanation x = jet::explain(list);
  INFO(x.source);
  CHECK(x.kernel_name.find("_3out_") != std::string::npos);
  CHECK(lines(x.operands) == 5);  // out, out1, out2, in0, in1
  CHECK(x.operands.rfind("out: float64", 0) == 0);
  CHECK(x.operands.find("out1: float32") != std::string::npos);
  CHECK(x.operands.find("out2: bool") != std::string::npos);
  // exp(a * b) is computed once for both results that use it.
  std::size_t count = 0;
  for (std::size_t at = x.source.find("exp("); at != std::string::npos;
       at = x.source.find("exp(", at + 1))
    ++count;
  CHECK(count == 1);
  CHECK(x.bytes == 7000 * (8 + 4 + 1 + 8 + 8));  // the broadcast row counts as read per element
  CHECK(x.binary_bytes > 0);
}

TEST_CASE("equal constants of several expressions share a parameter", "[host][together]") {
  const jet::array a = jet::placeholder({1000});
  const jet::expr shared = a * a;
  // Each expression's 2.5 is its own node; in one kernel they are one parameter, and the
  // products that use them one instruction.
  const std::vector<jet::expr> list{shared * 2.5 + 1, shared * 2.5 - 1};
  const jet::explanation x = jet::explain(list);
  INFO(x.source);
  CHECK(x.source.find("p.s0") != std::string::npos);
  CHECK(x.source.find("p.s3") == std::string::npos);  // 2.5, 1 and 1: three parameters at most
  CHECK(jet::explain(std::vector<jet::expr>{shared * 2.5 + 1, shared * 3.5 - 1}).key != x.key);
}

TEST_CASE("several-output kernels compile for every dtype and vector width", "[host][together]") {
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    INFO(jet::name(t));
    for (const jet::shape& s : {jet::shape{1027}, jet::shape{64, 48}, jet::shape{}}) {
      const jet::array a = jet::placeholder(s, t);
      const jet::array c = jet::placeholder(s, jet::float16);
      const std::vector<jet::expr> list{a + a, jet::expr(a).astype(jet::float64), c * 2, a == a};
      const jet::explanation x = jet::explain(list);
      CHECK(x.binary_bytes > 0);
    }
  }
}

TEST_CASE("several-output keys differ from one output's and by what each output is",
          "[host][together]") {
  const jet::array a = jet::placeholder({256}, jet::float32);
  const std::vector<jet::expr> two{a + 1, a * 2}, swapped{a * 2, a + 1}, cast{a + 1, a * 2.0};
  const std::string key = jet::explain(two).key;
  CHECK(key != jet::explain(a + 1).key);
  CHECK(key != jet::explain(swapped).key);
  CHECK(jet::explain(std::vector<jet::expr>{a + 1, (a * 2).astype(jet::float64)}).key != key);
  CHECK(jet::explain(cast).key == key);  // a weak scalar keeps float32
}

TEST_CASE("explain of several expressions needs one shape and no reduction", "[host][together]") {
  const jet::array a = jet::placeholder({4, 3}, jet::float32);
  CHECK_THROWS_WITH(jet::explain(std::vector<jet::expr>{a + 1, a(0) * 2}),
                    jet_test::contains("one shape") && jet_test::contains("(4,3), not (3,)"));
  CHECK_THROWS_AS(jet::explain(std::vector<jet::expr>{a(0) + 1, jet::sum(a)}), jet::value_error);
  // A reduction inside is a placeholder input of the one kernel.
  const jet::explanation x = jet::explain(std::vector<jet::expr>{a - jet::mean(a), a * 2});
  CHECK(x.binary_bytes > 0);
}

TEST_CASE("reductions of the same axes are one kernel, and each such kernel compiles",
          "[host][together]") {
  for (jet::dtype t : {jet::float32, jet::float64, jet::int32, jet::float16, jet::complex64}) {
    const jet::expr x = jet::placeholder({1000, 70}, t);  // one node: read once
    for (const jet::axes& axis : {jet::axes(), jet::axes(0), jet::axes(1)}) {
      INFO(jet::name(t));
      const std::vector<jet::expr> list{jet::sum(x, axis), jet::sum(x * x, axis), jet::var(x, axis),
                                        jet::nansum(x, axis), jet::count_nonzero(x, axis)};
      const jet::explanation e = jet::explain(list);
      INFO(e.source);
      CHECK(e.kernel_name.find("_5out_") != std::string::npos);
      CHECK(e.source.find("struct jet_state {") != std::string::npos);
      CHECK(lines(e.operands) == 6);  // out, out1, ..., out4, in0: x is read once
      CHECK(e.binary_bytes > 0);
    }
  }
  // Post-steps with their own arguments (a std's ddof and square root), keepdims, columns.
  const jet::expr wide = jet::placeholder({64, 4096}, jet::float64);
  for (const jet::axes& axis : {jet::axes(0), jet::axes(1)}) {
    const jet::explanation e = jet::explain(
        std::vector<jet::expr>{jet::std(wide, axis, 1, true), jet::var(wide * 2, axis, 0, true),
                               jet::nanmean(wide, axis, true), jet::nanmax(wide, axis, true)});
    INFO(e.source);
    CHECK(e.source.find("p.post_arg1") != std::string::npos);
    CHECK(e.binary_bytes > 0);
  }
  const jet::array x = jet::placeholder({100, 7}, jet::float32);
  const jet::explanation extremes =
      jet::explain(std::vector<jet::expr>{jet::max(x), jet::min(x), jet::mean(x)});
  CHECK(extremes.kernel_name.rfind("jet_max_", 0) == 0);
  CHECK(extremes.binary_bytes > 0);
  CHECK_THROWS_WITH(jet::explain(std::vector<jet::expr>{jet::cumsum(x), x + 1}),
                    jet_test::contains("here the scan cannot share a pass"));
  CHECK_THROWS_WITH(jet::explain(std::vector<jet::expr>{jet::sum(x), jet::argmax(x)}),
                    jet_test::contains("here the argmax of float32 cannot share the pass"));
  for (const std::vector<jet::expr>& apart :
       {std::vector<jet::expr>{jet::sum(x), jet::argmax(x)},
        std::vector<jet::expr>{jet::sum(x, 0), jet::sum(x, 1)},
        std::vector<jet::expr>{jet::sum(x), jet::cumsum(x)},
        std::vector<jet::expr>{jet::sum(x), x(0) + 1}})
    REQUIRE_THROWS_AS(jet::explain(apart), jet::value_error);
}

TEST_CASE("a pass stores the expressions of the shape it reduces, and each such kernel compiles",
          "[host][together]") {
  for (jet::dtype t : {jet::float32, jet::float64, jet::int32, jet::float16, jet::int8}) {
    const jet::expr x = jet::placeholder({1000, 70}, t);
    const jet::expr y = x * 2 + 1;             // one node: computed once, stored and reduced
    for (int which = 0; which < 3; ++which) {  // every axis, axis 0, axis 1
      const jet::axes axis = which == 0 ? jet::axes() : jet::axes(which - 1);
      INFO(jet::name(t) << " axes " << which);
      // The reductions' outputs come first, whatever the order given.
      const std::vector<jet::expr> list{y, jet::sum(y, axis), y.astype(jet::float64),
                                        jet::max(y, axis)};
      const jet::explanation e = jet::explain(list);
      INFO(e.source);
      CHECK(e.kernel_name.find("_4out_") != std::string::npos);
      CHECK(lines(e.operands) == 5);  // out, out1, out2, out3, in0: x is read once
      CHECK(e.operands.find("out2: " + std::string(jet::name(y.dtype()))) != std::string::npos);
      CHECK(e.operands.find("out3: float64") != std::string::npos);
      CHECK(e.source.find("p.out2[") != std::string::npos);  // stored element by element
      // Rows along the contiguous axis store vectors too.
      CHECK((e.source.find("*(jet_vec<") != std::string::npos) == (which != 1));
      CHECK(e.binary_bytes > 0);
    }
  }
  // A stored result and a reduced one are different kernels, whatever else they share.
  const jet::expr z = jet::placeholder({512, 64}, jet::float32);
  CHECK(jet::explain(std::vector<jet::expr>{jet::sum(z), z * 2}).key !=
        jet::explain(std::vector<jet::expr>{jet::sum(z), jet::sum(z * 2)}).key);
  // One reduction with a stored result; a tree with a reduction inside is stored with that
  // reduction as an input.
  const jet::expr x = jet::placeholder({4096}, jet::float32);
  const jet::explanation one =
      jet::explain(std::vector<jet::expr>{jet::exp(x), jet::sum(jet::exp(x)), x - jet::mean(x)});
  INFO(one.source);
  CHECK(one.kernel_name.rfind("jet_sum_", 0) == 0);
  CHECK(lines(one.operands) == 5);  // out, out1, out2, in0 (x), in1 (the mean)
  CHECK(one.binary_bytes > 0);
}
