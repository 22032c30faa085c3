// The parameter strings of user kernels: CuPy's syntax, errors that name the bad token, and the
// names the generated code keeps for itself.
#include <chrono>
#include <string>

#include "codegen/user/parse_params.hpp"
#include "jet/error.hpp"
#include "jet/kernel.hpp"
#include "support/catch.hpp"

using jet::codegen::parse_user_params;
using jet::codegen::user_kernel_kind;

TEST_CASE("parameter strings give names, dtypes, placeholders and raw flags", "[host][kernel]") {
  const auto p = parse_user_params("T x, float32 y,raw T z", "  U out ,  raw int64 count ");
  REQUIRE(p.size() == 5);
  CHECK(p[0].name == "x");
  CHECK(p[0].placeholder == 'T');
  CHECK_FALSE(p[0].type.has_value());
  CHECK_FALSE(p[0].raw);
  CHECK_FALSE(p[0].output);
  CHECK(p[1].name == "y");
  CHECK(p[1].type == jet::float32);
  CHECK(p[1].placeholder == 0);
  CHECK(p[2].name == "z");
  CHECK(p[2].raw);
  CHECK(p[2].placeholder == 'T');
  CHECK(p[3].name == "out");
  CHECK(p[3].output);
  CHECK(p[3].placeholder == 'U');
  CHECK(p[4].name == "count");
  CHECK(p[4].raw);
  CHECK(p[4].output);
  CHECK(p[4].type == jet::int64);
}

TEST_CASE("every dtype name is a parameter type, and empty lists are allowed", "[host][kernel]") {
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    const auto p = parse_user_params(std::string(jet::name(t)) + " a_1", "");
    REQUIRE(p.size() == 1);
    CHECK(p[0].type == t);
    CHECK(p[0].name == "a_1");
  }
  CHECK(parse_user_params("", "  ").empty());
}

TEST_CASE("bad parameter strings name what is wrong", "[host][kernel]") {
  using jet_test::contains;
  CHECK_THROWS_AS(parse_user_params("float32", ""), jet::value_error);
  CHECK_THROWS_WITH(
      parse_user_params("float32", ""),
      contains("kernel parameter 'float32' should be [raw] TYPE NAME; it has 1 tokens"));
  CHECK_THROWS_WITH(parse_user_params("raw raw T x", ""), contains("'raw raw T x'"));
  CHECK_THROWS_WITH(parse_user_params("T x y", ""), contains("it has 3 tokens"));
  CHECK_THROWS_WITH(parse_user_params("flot32 x", ""),
                    contains("unknown type 'flot32' in kernel parameter 'flot32 x'"));
  CHECK_THROWS_WITH(parse_user_params("TT x", ""), contains("unknown type 'TT'"));
  CHECK_THROWS_WITH(parse_user_params("T 3x", ""),
                    contains("'3x' in kernel parameter 'T 3x' is no C identifier"));
  CHECK_THROWS_WITH(parse_user_params("T x-y", ""), contains("'x-y'"));
  CHECK_THROWS_WITH(parse_user_params("T x", "T x"),
                    contains("kernel parameter name 'x' is given twice"));
  CHECK_THROWS_WITH(parse_user_params("T i", ""),
                    contains("'i' in kernel parameter 'T i' is reserved"));
  CHECK_THROWS_WITH(parse_user_params("T jet_x", ""), contains("'jet_x'"));
  CHECK_THROWS_WITH(parse_user_params("T x,", ""), contains("empty kernel parameter"));
  CHECK_THROWS_WITH(parse_user_params("T x,,T y", ""), contains("empty kernel parameter"));
}

TEST_CASE("names the generated code declares are refused, naming the parameter", "[host][kernel]") {
  using jet_test::contains;
  const auto refused = [](const std::string& in, const std::string& out, const std::string& what,
                          user_kernel_kind kind = user_kernel_kind::elementwise) {
    INFO(in << " -> " << out);
    CHECK_THROWS_WITH(parse_user_params(in, out, kind), what);
  };
  refused("T p", "T y",
          "'p' in kernel parameter 'T p' is reserved: `p` is the kernel's "
          "parameter block");
  refused("T x", "T int", "'int' in kernel parameter 'T int' is a C++ keyword");
  refused("T x, float32 and", "T y", "'and' in kernel parameter 'float32 and' is a C++ keyword");
  refused("T x", "raw T T",
          "'T' in kernel parameter 'raw T T' is the type placeholder T of "
          "these parameters");
  refused("T U, U y", "",
          "'U' in kernel parameter 'T U' is the type placeholder U of these "
          "parameters");
  refused("T _ind", "",
          "'_ind' in kernel parameter 'T _ind' is reserved: `_ind` is the "
          "kernel's index");
  refused("T threadIdx", "",
          "'threadIdx' in kernel parameter 'T threadIdx' is reserved: CUDA's built-in variable");
  refused("T __x", "",
          "'__x' in kernel parameter 'T __x' is reserved: names starting with __ or "
          "_ and a capital are the compiler's and CUDA's");
  refused("T _Y", "",
          "'_Y' in kernel parameter 'T _Y' is reserved: names starting with __ or _ "
          "and a capital are the compiler's and CUDA's");
  refused("T _type_reduce", "",
          "'_type_reduce' in kernel parameter 'T _type_reduce' is reserved: "
          "reductions name their reduce type _type_reduce");
  refused("T x", "T a",
          "'a' in kernel parameter 'T a' is reserved: a reduction's post_map_expr reads the "
          "reduced value as `a`",
          user_kernel_kind::reduction);
  // `a` is an ordinary name elsewhere: an elementwise output, a reduction's input.
  CHECK(parse_user_params("T x", "T a").size() == 2);
  CHECK(parse_user_params("T a", "T y", user_kernel_kind::reduction).size() == 2);
  CHECK(parse_user_params("T _x, T x_", "T main").size() == 3);
  // The constructors check before anything is compiled.
  CHECK_THROWS_WITH(jet::elementwise_kernel("T x", "T p", "p = x", "copy"),
                    contains("'p' in kernel parameter 'T p' is reserved"));
  CHECK_THROWS_WITH(jet::reduction_kernel("T x", "T a", "x", "a + b", "a = a", "0", "total"),
                    contains("'a' in kernel parameter 'T a' is reserved"));
}

TEST_CASE("kernel names that are keywords or the generated code's names are refused",
          "[host][kernel]") {
  const auto params = parse_user_params("T x", "float32 y");
  const auto refused = [&](const std::string& name, const std::string& why) {
    CHECK_THROWS_WITH(jet::codegen::check_kernel_name(name, params),
                      "kernel name '" + name + "' is " + why);
  };
  refused("int", "a C++ keyword");
  refused("main", "reserved: C++ gives `main` to the program");
  refused("T", "the type placeholder T of its parameters");
  refused("jet_get", "reserved: jet_ names are Jet's");
  refused("blockIdx", "reserved: CUDA's built-in variable");
  refused("__global__",
          "reserved: names starting with __ or _ and a capital are the compiler's "
          "and CUDA's");
  refused("_type_reduce", "reserved: reductions name their reduce type _type_reduce");
  refused("3d", "no C identifier");
  jet::codegen::check_kernel_name("U", params);
  jet::codegen::check_kernel_name("p", params);
  CHECK_THROWS_WITH(jet::elementwise_kernel("T x", "T y", "y = x", "int"),
                    "kernel name 'int' is a C++ keyword");
  CHECK_THROWS_WITH(jet::reduction_kernel("T x", "T y", "x", "a + b", "y = a", "0", "main"),
                    "kernel name 'main' is reserved: C++ gives `main` to the program");
}

TEST_CASE("a list of 10^5 parameters is checked in linear time", "[host][kernel]") {
  std::string inputs = "T x0";
  for (int k = 1; k < 100000; ++k) inputs += ", T x" + std::to_string(k);
  const auto start = std::chrono::steady_clock::now();
  const auto params = parse_user_params(inputs, "T out");
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(params.size() == 100001);
  // The pairwise check took 6.8 s (53 s on a loaded 2-core machine); hashed, about 50 ms.
  CHECK(seconds < 2.0);
  CHECK_THROWS_WITH(parse_user_params(inputs + ", T x99999", "T out"),
                    "kernel parameter name 'x99999' is given twice");
}
