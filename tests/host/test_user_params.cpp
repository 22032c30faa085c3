// The parameter strings of user kernels: CuPy's syntax, and errors that name the bad token.
#include <string>

#include "codegen/user/parse_params.hpp"
#include "jet/error.hpp"
#include "support/catch.hpp"

using jet::codegen::parse_user_params;

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
