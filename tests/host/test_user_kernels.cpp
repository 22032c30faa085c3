// User kernels without a GPU: binding arguments to parameters, rendered sources that NVRTC
// compiles (16-bit floats and complex values with their CUDA headers among them), scalars
// packed into the parameter block, compile errors with the log and the numbered source, name
// expressions, and curand_kernel.h found through the toolkit's include folders.
#include <chrono>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "codegen/core/limits.hpp"
#include "codegen/user/user_kernels.hpp"
#include "jet/error.hpp"
#include "src/cache/entry.hpp"
#include "src/nvrtc/compile.hpp"
#include "src/user/arguments.hpp"
#include "support/catch.hpp"

namespace {

using jet::codegen::user_access;
using jet::codegen::user_arg_info;

user_arg_info array_of(jet::dtype t) { return {true, t, jet::weak_kind::none}; }
user_arg_info scalar_of(jet::weak_kind k) { return {false, jet::float64, k}; }
user_arg_info typed_scalar_of(jet::dtype t) { return {false, t, jet::weak_kind::none}; }

jet::codegen::user_binding bind(const std::string& in, const std::string& out,
                                std::vector<user_arg_info> args) {
  return jet::codegen::bind_user_params(jet::codegen::parse_user_params(in, out), args, "k");
}

jet::detail::compiled_kernel compiled(const jet::codegen::kernel_source& s) {
  INFO(s.source);
  return jet::detail::compile(s, "sm_90", jet::detail::user_extras({}));
}

struct elementwise_case {
  std::string in, out, operation;
  std::vector<user_arg_info> args;
  std::vector<user_access> access;
  int ndim = 1;
  bool index64 = false;
};

// Axes for a spec written by hand: `axes` of extent 2, an operand per array parameter.
jet::codegen::user_axes axes_for(const std::vector<user_access>& access, int axes, int kept = 0) {
  jet::codegen::user_axes a;
  a.space.extents = jet::shape::filled(axes, 2);
  a.operand.assign(access.size(), -1);
  a.access = access;
  a.kept = kept;
  for (std::size_t k = 0; k < access.size(); ++k) {
    if (access[k] != user_access::contiguous && access[k] != user_access::strided) continue;
    a.operand[k] = static_cast<int>(a.space.inputs.size());
    a.space.inputs.emplace_back().strides = jet::shape::filled(axes, 1);
  }
  return a;
}

jet::codegen::kernel_source rendered(const elementwise_case& c) {
  jet::codegen::user_elementwise_spec spec;
  spec.name = "user_kernel";
  spec.operation = c.operation;
  spec.params = jet::codegen::parse_user_params(c.in, c.out);
  spec.binding = jet::codegen::bind_user_params(spec.params, c.args, spec.name);
  spec.access = c.access;
  spec.ndim = c.ndim;
  spec.index64 = c.index64;
  const jet::codegen::user_axes axes = axes_for(c.access, c.ndim);
  jet::codegen::param_layout params;
  jet::codegen::layout_user_elementwise(
      spec, std::vector<jet::codegen::user_value>(spec.params.size()), axes, params);
  return jet::codegen::render_user_elementwise(spec, params);
}

struct reduction_case {
  std::string in, out, map_expr, reduce_expr, post_map_expr, preamble;
  std::vector<user_arg_info> args;
  std::vector<user_access> access;
  jet::dtype reduce_type;
  int kept, reduced, group;
};

jet::codegen::kernel_source rendered(const reduction_case& c) {
  jet::codegen::user_reduction_spec spec;
  spec.name = "user_reduction";
  spec.params = jet::codegen::parse_user_params(c.in, c.out);
  spec.binding = jet::codegen::bind_user_params(spec.params, c.args, spec.name);
  spec.access = c.access;
  spec.map_expr = c.map_expr;
  spec.reduce_expr = c.reduce_expr;
  spec.post_map_expr = c.post_map_expr;
  spec.preamble = c.preamble;
  spec.identity = "0";
  spec.reduce_type = c.reduce_type;
  spec.kept = c.kept;
  spec.reduced = c.reduced;
  spec.group = c.group;
  const jet::codegen::user_axes axes = axes_for(c.access, c.kept + c.reduced, c.kept);
  const jet::ir::reduction_geometry geometry;
  jet::codegen::param_layout params;
  jet::codegen::layout_user_reduction(
      spec, std::vector<jet::codegen::user_value>(spec.params.size()), axes, geometry, params);
  return jet::codegen::render_user_reduction(spec, params);
}

}  // namespace

TEST_CASE("placeholders resolve from array arguments, then from scalars", "[host][user_kernels]") {
  const auto b =
      bind("T x, T y, float32 z", "T out",
           {array_of(jet::int32), array_of(jet::int32), scalar_of(jet::weak_kind::floating)});
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
  CHECK_THROWS_WITH(
      bind("T x, T y", "T z", {array_of(jet::float32)}),
      contains("kernel k takes 2 inputs (then optionally 1 outputs); 1 arguments were given"));
  CHECK_THROWS_AS(bind("T x, T y", "T z", {array_of(jet::float32), array_of(jet::float64)}),
                  jet::dtype_error);
  CHECK_THROWS_WITH(bind("T x, T y", "T z", {array_of(jet::float32), array_of(jet::float64)}),
                    contains("input 'y' is float64 but type T is float32 from 'x'"));
  CHECK_THROWS_WITH(bind("raw T x", "T z", {scalar_of(jet::weak_kind::integer)}),
                    contains("input 'x' takes an array, not a scalar"));
  CHECK_THROWS_WITH(bind("float32 x", "float32 z", {array_of(jet::float64)}),
                    contains("input 'x' is float32, the argument is float64"));
  CHECK_THROWS_WITH(bind("float32 x", "U z", {array_of(jet::float32)}),
                    contains("the type U of output 'z' is not fixed by any argument"));
}

TEST_CASE("rendered elementwise kernels compile", "[host][user_kernels]") {
  const std::vector<elementwise_case> cases = {
      {"T x, T y",
       "T z",
       "z = x + y",
       {array_of(jet::float32), array_of(jet::float32)},
       {user_access::contiguous, user_access::contiguous, user_access::contiguous},
       1,
       false},
      {"T x, float64 a",
       "T z",
       "z = x * a + i",
       {array_of(jet::float64), scalar_of(jet::weak_kind::floating)},
       {user_access::strided, user_access::scalar, user_access::contiguous},
       3,
       true},
      {"raw T x, int64 n",
       "T y",
       "y = x[(i + 1) % x.size()] + n + _ind.size()",
       {array_of(jet::int16), scalar_of(jet::weak_kind::integer)},
       {user_access::raw, user_access::scalar, user_access::strided},
       2,
       false},
      {"bool m, uint8 u",
       "uint64 y, raw float32 w",
       "y = m ? u : 0; if (i == 0) w[0] = 1.0f",
       {array_of(jet::bool_), array_of(jet::uint8)},
       {user_access::contiguous, user_access::strided, user_access::contiguous, user_access::raw},
       2,
       false},
  };
  for (const elementwise_case& c : cases) CHECK(!compiled(rendered(c)).image.empty());
}

TEST_CASE("rendered reduction kernels compile for each layout", "[host][user_kernels]") {
  for (int group : {1, 32, 256}) {
    const reduction_case c{
        "T x, T w, raw T r",
        "T y",
        "x * x * w + r[0]",
        "a + b",
        "y = sqrt(a)",
        "",
        {array_of(jet::float32), scalar_of(jet::weak_kind::floating), array_of(jet::float32)},
        {user_access::strided, user_access::scalar, user_access::raw, user_access::strided},
        jet::float64,
        group == 256 ? 0 : 2,
        2,
        group};
    CHECK(!compiled(rendered(c)).image.empty());
  }
}

TEST_CASE("16-bit float scalars fix placeholders, complex scalars need complex parameters",
          "[host][user_kernels]") {
  using jet_test::contains;
  const auto half =
      bind("T x, T a", "T z", {array_of(jet::float16), typed_scalar_of(jet::float16)});
  CHECK(half.types == std::vector<jet::dtype>{jet::float16, jet::float16, jet::float16});
  CHECK(half.casts.empty());
  CHECK(bind("T a", "T z", {typed_scalar_of(jet::bfloat16)}).types[1] == jet::bfloat16);
  // A typed scalar fixes T where a weak one only fills in.
  CHECK(
      bind("T a, T b", "T z", {scalar_of(jet::weak_kind::floating), typed_scalar_of(jet::float16)})
          .types[2] == jet::float16);
  CHECK(bind("T a", "T z", {scalar_of(jet::weak_kind::complex)}).types[1] == jet::complex128);
  CHECK(bind("T x, T a", "T z", {array_of(jet::complex64), scalar_of(jet::weak_kind::complex)})
            .types[1] == jet::complex64);
  // A typed scalar converts as an array would, but needs no cast of its own.
  const auto widened = bind("float32 a", "float32 z", {typed_scalar_of(jet::float16)});
  CHECK(widened.types[0] == jet::float32);
  CHECK(widened.casts.empty());
  CHECK(bind("complex64 x", "complex64 z", {array_of(jet::float16)}).casts ==
        std::vector<std::size_t>{0});

  CHECK_THROWS_WITH(
      bind("T x, T a", "T z", {array_of(jet::float32), typed_scalar_of(jet::float16)}),
      contains("kernel k: input 'a' is float16 but type T is float32 from 'x'"));
  CHECK_THROWS_WITH(bind("int32 n", "int32 z", {typed_scalar_of(jet::bfloat16)}),
                    contains("kernel k: input 'n' is int32, the argument is bfloat16"));
  CHECK_THROWS_AS(
      bind("T x, T a", "T z", {array_of(jet::float64), scalar_of(jet::weak_kind::complex)}),
      jet::dtype_error);
  CHECK_THROWS_WITH(
      bind("T x, T a", "T z", {array_of(jet::float64), scalar_of(jet::weak_kind::complex)}),
      contains("kernel k: input 'a' is float64, which cannot hold a complex scalar"));
  CHECK_THROWS_WITH(bind("float16 a", "float16 z", {scalar_of(jet::weak_kind::complex)}),
                    contains("kernel k: input 'a' is float16, which cannot hold a complex scalar"));
}

TEST_CASE("user kernels include the CUDA headers of their types, and no others",
          "[host][user_kernels]") {
  const auto source = [](jet::dtype t) {
    const std::vector<user_access> access = {user_access::contiguous, user_access::contiguous};
    return rendered(elementwise_case{"T x", "T y", "y = x", {array_of(t)}, access}).source;
  };
  const auto has = [](const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
  };
  CHECK_FALSE(has(source(jet::float32), "#include"));
  const std::string half = source(jet::float16), brain = source(jet::bfloat16);
  const std::string single = source(jet::complex64), twice = source(jet::complex128);
  CHECK(has(half, "#include <cuda_fp16.h>\ntypedef __half T;"));
  CHECK_FALSE(has(half, "cuda_bf16.h"));
  CHECK_FALSE(has(half, "complex"));
  CHECK(has(brain, "#include <cuda_bf16.h>\ntypedef __nv_bfloat16 T;"));
  CHECK_FALSE(has(brain, "cuda_fp16.h"));
  CHECK(has(single, "#include <cuda/std/complex>\ntypedef cuda::std::complex<float> T;"));
  CHECK(has(twice, "typedef cuda::std::complex<double> T;"));
  CHECK_FALSE(has(twice, "cuda_fp16.h"));
  // A dtype named in the parameters needs its header as a placeholder's does.
  const std::string fixed =
      rendered(elementwise_case{"complex128 x",
                                "float64 y",
                                "y = x.real()",
                                {scalar_of(jet::weak_kind::complex)},
                                {user_access::scalar, user_access::contiguous}})
          .source;
  CHECK(has(fixed, "#include <cuda/std/complex>"));
  CHECK(has(fixed,
            "const cuda::std::complex<double> x = jet_get<cuda::std::complex<double>>(p, 0);"));
  // A reduce type's header, and its typedefs ahead of the preamble, which may use them.
  const std::string preamble =
      "__device__ _type_reduce halved(T v) { return (_type_reduce)v * 0.5f; }";
  const jet::codegen::kernel_source reduction =
      rendered(reduction_case{"T x, float16 h",
                              "complex64 y",
                              "halved(x) * (float)h",
                              "a + b",
                              "y = a",
                              preamble,
                              {array_of(jet::float32), typed_scalar_of(jet::float16)},
                              {user_access::strided, user_access::scalar, user_access::strided},
                              jet::complex64,
                              0,
                              1,
                              256});
  CHECK(has(reduction.source,
            "#include <cuda_fp16.h>\n#include <cuda/std/complex>\ntypedef float T;\n"
            "typedef cuda::std::complex<float> jet_reduce_t;\n"
            "typedef cuda::std::complex<float> _type_reduce;\n"));
  CHECK(reduction.source.find("_type_reduce;") < reduction.source.find(preamble));
  CHECK(!compiled(reduction).image.empty());
}

TEST_CASE("rendered kernels over 16-bit floats and complex values compile",
          "[host][user_kernels]") {
  const auto compiles = [](const auto& c) { return !compiled(rendered(c)).image.empty(); };
  // The GPU tests' kernels (tests/gpu/test_user_kernel_types.cpp), in the layouts they run in.
  const std::vector<user_access> axpy_access = {user_access::strided, user_access::contiguous,
                                                user_access::scalar, user_access::contiguous};
  for (jet::dtype t : {jet::float16, jet::bfloat16, jet::complex64, jet::complex128}) {
    INFO(jet::name(t));
    const user_arg_info a =
        jet::is_complex(t) ? scalar_of(jet::weak_kind::complex) : typed_scalar_of(t);
    CHECK(compiles(elementwise_case{
        "T x, T y, T a", "T z", "z = x * a + y", {array_of(t), array_of(t), a}, axpy_access, 2}));
  }
  CHECK(compiles(
      elementwise_case{"raw T r, float16 h, bfloat16 b, complex64 c",
                       "T z",
                       "z = r[r.size() - 1 - i] * T((double)h, (double)b) + (T)c",
                       {array_of(jet::complex128), typed_scalar_of(jet::float16),
                        typed_scalar_of(jet::bfloat16), scalar_of(jet::weak_kind::complex)},
                       {user_access::raw, user_access::scalar, user_access::scalar,
                        user_access::scalar, user_access::contiguous}}));
  // A plain sum of one input, its dtype and the reduce type's, in each layout.
  const auto sum = [](jet::dtype in, jet::dtype reduce, int kept, int reduced, int group) {
    const std::vector<user_access> strided = {user_access::strided, user_access::strided};
    return reduction_case{"T x",          "T y",   "x",    "a + b", "y = a", "",
                          {array_of(in)}, strided, reduce, kept,    reduced, group};
  };
  for (int group : {1, 32, 256}) {
    const int kept = group == 256 ? 0 : 1;
    CHECK(compiles(sum(jet::complex128, jet::complex128, kept, 1, group)));
    CHECK(compiles(sum(jet::float16, jet::float32, kept, 2, group)));
  }
  CHECK(compiles(sum(jet::bfloat16, jet::bfloat16, 1, 1, 32)));
}

TEST_CASE("16-bit float and complex scalars are packed bit-exactly", "[host][user_kernels]") {
  jet::float16_t half_nan;
  half_nan.bits = 0x7e01;  // a NaN with a payload that a trip through float would lose
  jet::bfloat16_t brain_nan;
  brain_nan.bits = 0xffc1;
  const std::complex<double> z(0.1, -1e300);
  const std::complex<float> c(1.5f, -0.1f);
  // Past a tie of the 16-bit type by less than float resolves: double -> float -> 16 bits
  // rounds twice and lands on the even side (1.0); rounded once it is the next value up.
  const double over_half_tie = 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  const double over_brain_tie = 1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  const std::vector<jet::kernel_arg> args = {
      half_nan, z, brain_nan, c, over_half_tie, over_brain_tie, 3, jet::float16_t(-2.75f), c};
  const auto params = jet::codegen::parse_user_params(
      "float16 h, complex128 z, bfloat16 b, complex64 c, float16 w, bfloat16 v, complex64 n, "
      "float32 f, complex128 d",
      "");
  const std::vector<user_arg_info> info = jet::detail::describe_args(args);
  const jet::codegen::user_binding binding = jet::codegen::bind_user_params(params, info, "k");
  const std::vector<user_access> access(params.size(), user_access::scalar);
  jet::codegen::user_elementwise_spec spec;
  spec.params = params;
  spec.binding = binding;
  spec.access = access;
  jet::codegen::param_layout layout;
  const auto axes = axes_for(access, 1);  // read by pack(): it outlives the layout's use
  jet::codegen::layout_user_elementwise(
      spec, jet::detail::user_values(params, binding, args, std::vector<jet::array>(params.size())),
      axes, layout);
  for (std::size_t k = 0; k < params.size(); ++k)
    CHECK(layout.at(jet::codegen::param_role::scalar, static_cast<int>(k)).offset == 16 * k);
  alignas(16) std::byte bytes[jet::codegen::max_param_bytes] = {};
  REQUIRE(layout.bytes() <= sizeof bytes);
  layout.pack(bytes);
  const auto slot_holds = [&](std::size_t k, const auto& want) {
    return std::memcmp(bytes + 16 * k, &want, sizeof want) == 0;
  };
  CHECK(slot_holds(0, std::uint16_t{0x7e01}));
  CHECK(slot_holds(1, z));
  CHECK(slot_holds(2, std::uint16_t{0xffc1}));
  CHECK(slot_holds(3, c));
  CHECK(slot_holds(4, std::uint16_t{0x3c01}));
  CHECK(slot_holds(5, std::uint16_t{0x3f81}));
  CHECK(slot_holds(6, std::complex<float>(3, 0)));
  CHECK(slot_holds(7, -2.75f));
  CHECK(slot_holds(8, std::complex<double>(1.5, static_cast<double>(-0.1f))));
}

TEST_CASE("a compile error carries NVRTC's log and the numbered source", "[host][user_kernels]") {
  const jet::codegen::kernel_source bad{
      "broken", "extern \"C\" __global__ void broken(float* x) {\n  x[0] = undeclared;\n}\n"};
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

TEST_CASE("name expressions give the lowered names of template instantiations",
          "[host][user_kernels]") {
  const jet::codegen::kernel_source source{
      "raw_module",
      "template <class T> __global__ void scale(T* x, T a) { x[threadIdx.x] *= a; }\n"
      "__device__ int counter[4];\n"};
  const auto k = jet::detail::compile(
      source, "sm_90", jet::detail::user_extras({}, {"scale<float>", "scale<double>", "&counter"}));
  REQUIRE(k.lowered_names.size() == 3);
  CHECK(k.lowered_names[0] == "_Z5scaleIfEvPT_S0_");
  CHECK(k.lowered_names[1] == "_Z5scaleIdEvPT_S0_");
  CHECK(k.lowered_names[2] == "counter");
}

TEST_CASE("curand_kernel.h compiles in a user kernel", "[host][user_kernels]") {
  const jet::codegen::kernel_source source{
      "curand_user",
      "#include <curand_kernel.h>\n"
      "extern \"C\" __global__ void draw(double* out, unsigned long long seed, long long n) {\n"
      "  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;\n"
      "  if (i >= n) return;\n"
      "  curandStatePhilox4_32_10_t s;\n"
      "  curand_init(seed, i, 0, &s);\n"
      "  out[i] = curand_normal_double(&s);\n"
      "}\n"};
  const auto start = std::chrono::steady_clock::now();
  const auto k = compiled(source);
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
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
