// User kernels without a GPU: binding arguments to parameters, rendered sources that NVRTC
// compiles, compile errors with the log and the numbered source, name expressions, and
// curand_kernel.h found through the toolkit's include folders.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "codegen/user_kernels.hpp"
#include "jet/error.hpp"
#include "src/cache_entry.hpp"
#include "src/compile.hpp"
#include "src/user_kernels.hpp"
#include "support/catch.hpp"

namespace {

using jet::codegen::user_access;
using jet::codegen::user_arg_info;

user_arg_info array_of(jet::dtype t) { return {true, t, jet::weak_kind::none}; }
user_arg_info scalar_of(jet::weak_kind k) { return {false, jet::float64, k}; }

jet::codegen::user_binding bind(const std::string& in, const std::string& out, std::vector<user_arg_info> args) {
  return jet::codegen::bind_user_params(jet::codegen::parse_user_params(in, out), args, "k");
}

jet::detail::compiled_kernel compiled(const jet::codegen::kernel_source& s) {
  INFO(s.source);
  return jet::detail::compile(s, "sm_90", jet::detail::user_extras({}));
}

}  // namespace

TEST_CASE("placeholders resolve from array arguments, then from scalars", "[host][user_kernels]") {
  const auto b = bind("T x, T y, float32 z", "T out", {array_of(jet::int32), array_of(jet::int32), scalar_of(jet::weak_kind::floating)});
  CHECK(b.types == std::vector<jet::dtype>{jet::int32, jet::int32, jet::float32, jet::int32});
  CHECK_FALSE(b.outputs_given);
  const auto weak = bind("T x", "T y", {scalar_of(jet::weak_kind::floating)});
  CHECK(weak.types[1] == jet::float64);
  const auto given = bind("T x", "U y", {array_of(jet::float32), array_of(jet::int64)});
  CHECK(given.outputs_given);
  CHECK(given.types[1] == jet::int64);
  // A fixed input dtype takes a safe cast; an output must match.
  const auto cast = bind("float64 x", "float64 y", {array_of(jet::float32)});
  CHECK(cast.casts == std::vector<std::size_t>{0});
}

TEST_CASE("binding errors name the kernel and the parameter", "[host][user_kernels]") {
  using jet_test::contains;
  CHECK_THROWS_WITH(bind("T x, T y", "T z", {array_of(jet::float32)}),
                    contains("kernel k takes 2 inputs (then optionally 1 outputs); 1 arguments were given"));
  CHECK_THROWS_AS(bind("T x, T y", "T z", {array_of(jet::float32), array_of(jet::float64)}), jet::dtype_error);
  CHECK_THROWS_WITH(bind("T x, T y", "T z", {array_of(jet::float32), array_of(jet::float64)}),
                    contains("input 'y' is float64 but type T is float32 from 'x'"));
  CHECK_THROWS_WITH(bind("raw T x", "T z", {scalar_of(jet::weak_kind::integer)}),
                    contains("input 'x' takes an array, not a scalar"));
  CHECK_THROWS_WITH(bind("float32 x", "float32 z", {array_of(jet::float64)}),
                    contains("input 'x' is float32, the argument is float64"));
  CHECK_THROWS_WITH(bind("float32 x", "U z", {array_of(jet::float32)}),
                    contains("the type U of output 'z' is not fixed by any argument"));
  CHECK_THROWS_WITH(bind("T x", "T z", {array_of(jet::complex64)}), contains("user kernels do not support"));
}

TEST_CASE("rendered elementwise kernels compile", "[host][user_kernels]") {
  struct shape_case {
    std::string in, out, operation;
    std::vector<user_arg_info> args;
    std::vector<user_access> access;
    int ndim;
    bool index64;
  };
  const std::vector<shape_case> cases = {
      {"T x, T y", "T z", "z = x + y", {array_of(jet::float32), array_of(jet::float32)},
       {user_access::contiguous, user_access::contiguous, user_access::contiguous}, 1, false},
      {"T x, float64 a", "T z", "z = x * a + i", {array_of(jet::float64), scalar_of(jet::weak_kind::floating)},
       {user_access::strided, user_access::scalar, user_access::contiguous}, 3, true},
      {"raw T x, int64 n", "T y", "y = x[(i + 1) % x.size()] + n + _ind.size()",
       {array_of(jet::int16), scalar_of(jet::weak_kind::integer)},
       {user_access::raw, user_access::scalar, user_access::strided}, 2, false},
      {"bool m, uint8 u", "uint64 y, raw float32 w", "y = m ? u : 0; if (i == 0) w[0] = 1.0f",
       {array_of(jet::bool_), array_of(jet::uint8)},
       {user_access::contiguous, user_access::strided, user_access::contiguous, user_access::raw}, 2, false},
  };
  for (const shape_case& c : cases) {
    jet::codegen::user_elementwise_spec spec;
    spec.name = "user_kernel";
    spec.operation = c.operation;
    spec.params = jet::codegen::parse_user_params(c.in, c.out);
    spec.binding = jet::codegen::bind_user_params(spec.params, c.args, spec.name);
    spec.access = c.access;
    spec.ndim = c.ndim;
    spec.index64 = c.index64;
    const auto k = compiled(jet::codegen::render_user_elementwise(spec));
    CHECK(!k.image.empty());
  }
}

TEST_CASE("rendered reduction kernels compile for each layout", "[host][user_kernels]") {
  for (int group : {1, 32, 256}) {
    jet::codegen::user_reduction_spec spec;
    spec.name = "l2norm";
    spec.params = jet::codegen::parse_user_params("T x, T w, raw T r", "T y");
    spec.binding = jet::codegen::bind_user_params(
        spec.params, std::vector<user_arg_info>{array_of(jet::float32), scalar_of(jet::weak_kind::floating), array_of(jet::float32)},
        spec.name);
    spec.access = {user_access::strided, user_access::scalar, user_access::raw, user_access::strided};
    spec.map_expr = "x * x * w + r[0]";
    spec.reduce_expr = "a + b";
    spec.post_map_expr = "y = sqrt(a)";
    spec.identity = "0";
    spec.reduce_type = jet::float64;
    spec.kept = group == 256 ? 0 : 2;
    spec.reduced = 2;
    spec.group = group;
    CHECK(!compiled(jet::codegen::render_user_reduction(spec)).image.empty());
  }
}

TEST_CASE("a compile error carries NVRTC's log and the numbered source", "[host][user_kernels]") {
  const jet::codegen::kernel_source bad{"broken", "extern \"C\" __global__ void broken(float* x) {\n  x[0] = undeclared;\n}\n"};
  try {
    compiled(bad);
    FAIL("the kernel compiled");
  } catch (const jet::compile_error& e) {
    CHECK_THAT(e.log(), jet_test::contains("undeclared"));
    CHECK_THAT(e.source(), jet_test::contains("2\t  x[0] = undeclared;"));
    CHECK_THAT(std::string(e.what()), jet_test::contains("undeclared"));
    CHECK_THAT(std::string(e.what()), jet_test::contains("2\t  x[0] = undeclared;"));
  }
}

TEST_CASE("name expressions give the lowered names of template instantiations", "[host][user_kernels]") {
  const jet::codegen::kernel_source source{
      "raw_module", "template <class T> __global__ void scale(T* x, T a) { x[threadIdx.x] *= a; }\n"
                    "__device__ int counter[4];\n"};
  const auto k = jet::detail::compile(source, "sm_90", jet::detail::user_extras({}, {"scale<float>", "scale<double>", "&counter"}));
  REQUIRE(k.lowered_names.size() == 3);
  CHECK(k.lowered_names[0] == "_Z5scaleIfEvPT_S0_");
  CHECK(k.lowered_names[1] == "_Z5scaleIdEvPT_S0_");
  CHECK(k.lowered_names[2] == "counter");
}

TEST_CASE("curand_kernel.h compiles in a user kernel", "[host][user_kernels]") {
  const jet::codegen::kernel_source source{
      "curand_user", "#include <curand_kernel.h>\n"
                     "extern \"C\" __global__ void draw(double* out, unsigned long long seed, long long n) {\n"
                     "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
                     "  if (i >= n) return;\n"
                     "  curandStatePhilox4_32_10_t s;\n"
                     "  curand_init(seed, i, 0, &s);\n"
                     "  out[i] = curand_normal_double(&s);\n"
                     "}\n"};
  const auto start = std::chrono::steady_clock::now();
  const auto k = compiled(source);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  std::printf("curand_kernel.h user kernel: cold NVRTC compile %.0f ms\n", ms);
  CHECK(!k.image.empty());
}

TEST_CASE("cache entries keep the lowered names of name expressions", "[host][user_kernels]") {
  jet::detail::cache_entry entry;
  entry.header.key = std::string(64, 'a');
  entry.header.name = "raw_module";
  entry.header.lowered_names = {"_Z5scaleIfEvPT_S0_", "counter"};
  entry.source = "source";
  entry.image = {'x', 'y'};
  const std::vector<char> bytes = jet::detail::encode_entry(entry);
  jet::detail::cache_entry back;
  REQUIRE(jet::detail::decode_entry(bytes, entry.header.key, back));
  CHECK(back.header.lowered_names == entry.header.lowered_names);
}
