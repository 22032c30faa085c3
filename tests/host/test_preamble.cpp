// The preamble's helpers: each compiles with those it names, and a kernel's source holds only
// the helpers its code uses.
#include <string>
#include <vector>

#include "codegen/plan/kernel_plan.hpp"
#include "codegen/render/preamble.hpp"
#include "jet/jet.hpp"
#include "src/nvrtc/compile.hpp"
#include "support/catch.hpp"

namespace {

std::vector<jet::codegen::helper> every_helper() {
  using namespace jet::codegen;
  std::vector<helper> all;
  for (auto part : {base_helpers(), complex_helpers(), reduce_helpers(), combine_helpers(),
                    accumulator_helpers()})
    all.insert(all.end(), part.begin(), part.end());
  return all;
}

bool holds(const std::string& source, const std::string& text) {
  return source.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("each helper compiles with the helpers it names", "[host][render]") {
  for (const jet::codegen::helper& h : every_helper()) {
    const std::string uses = std::string(h.name) + (h.also ? std::string(" ") + h.also : "");
    INFO(uses);
    const std::string code = jet::codegen::helpers_named_by(uses);
    CHECK(holds(code, h.code));
    const std::string source = "typedef unsigned int jet_idx;\ntypedef int jet_off;\n" + code +
                               "extern \"C\" __global__ void jet_helper_check() {}\n";
    CHECK(!jet::detail::compile({"jet_helper_check", source}, "sm_90",
                                jet::codegen::jet_kernel_extras())
               .image.empty());
  }
}

TEST_CASE("helpers named only in comments are left out", "[host][render]") {
  CHECK(jet::codegen::helpers_named_by("// jet_cexp(z)\nint x;").empty());
  CHECK(holds(jet::codegen::helpers_named_by("jet_cexp(z)"), "jet_cexp"));
}

TEST_CASE("a kernel's source holds only the helpers its code uses", "[host][render]") {
  const jet::array a = jet::placeholder({1 << 10}, jet::float32);
  const std::string add = jet::explain(a + a).source;
  for (const char* absent : {"jet_complex", "jet_acc_", "jet_f16_to_f32", "jet_report", "jet_ftoi",
                             "jet_sin", "jet_num"})
    CHECK(!holds(add, absent));
  CHECK(holds(add, "jet_vec"));

  const std::string half = jet::explain(jet::placeholder({64}, jet::float16) + 1).source;
  CHECK(holds(half, "jet_f16_to_f32"));
  CHECK(!holds(half, "jet_bf16_to_f32"));

  const jet::array z = jet::placeholder({64}, jet::complex64);
  const std::string cexp = jet::explain(jet::exp(z)).source;
  CHECK(holds(cexp, "jet_cexp"));
  CHECK(!holds(cexp, "jet_csin"));
  CHECK(!holds(cexp, "jet_cpow"));

  const std::string power = jet::explain(jet::power(jet::placeholder({64}, jet::int32), 3)).source;
  CHECK(holds(power, "jet_report"));

  const std::string sum = jet::explain(jet::sum(a)).source;
  CHECK(holds(sum, "struct alignas(8) jet_acc_sum"));
  CHECK(!holds(sum, "jet_acc_var"));
  CHECK(!holds(sum, "jet_acc_arg"));
  CHECK(!holds(sum, "jet_num<jet_complex"));

  const std::string complex_sum = jet::explain(jet::sum(z)).source;
  CHECK(holds(complex_sum, "struct jet_num<jet_complex<R>>"));

  const std::string argmax = jet::explain(jet::argmax(a)).source;
  CHECK(holds(argmax, "struct jet_vectors_keep<jet_acc_arg<T, Max>, U, W>"));
  const std::string column_argmin =
      jet::explain(jet::argmin(jet::placeholder({4096, 256}, jet::float32), 0)).source;
  CHECK(holds(column_argmin, "jet_acc_arg"));
  CHECK(!holds(column_argmin, "jet_vectors_keep"));
}
