// The public API a NumPy user guesses: every ufunc listed where users look for it, `{}` as
// NumPy's None for norm's ord, braced shapes for asarray, jet::array's methods on expressions.
// Nothing here needs a GPU: expressions over placeholders only build nodes, and what would
// evaluate is checked to compile and to raise a jet::error without a device.
#include <cmath>
#include <fstream>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

// The file's text with every run of white space as one space, as lists wrap across lines.
std::string read_words(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  std::string text;
  for (std::string word; in >> word;) text += word + ' ';
  return text;
}

struct ufunc {
  const char* id;
  int arity;
};
#define JET_TEST_UFUNC(id, numpy_name, arity, loops, result) {#id, arity},
const ufunc ufuncs[] = {JET_ELEMENTWISE_OPS(JET_TEST_UFUNC)};
#undef JET_TEST_UFUNC

}  // namespace

TEST_CASE("every generated ufunc is listed in ops.hpp and in the README", "[host][api]") {
  const std::string ops = read_words(JET_SOURCE_DIR "/include/jet/ops.hpp");
  const std::string readme = read_words(JET_SOURCE_DIR "/README.md");
  const std::string table = ops.substr(0, ops.find("#define JET_UNARY_OPERATOR"));
  for (const ufunc& u : ufuncs) {
    INFO(u.id);
    const std::string name = u.id;
    // In the table as a word of a comment line, and in the README between backquotes or in a
    // backquoted list.
    CHECK((table.find(" " + name + "(") != std::string::npos ||
           table.find(" " + name + " ") != std::string::npos));
    CHECK((readme.find("`" + name + "`") != std::string::npos ||
           readme.find(" " + name + " ") != std::string::npos ||
           readme.find("`" + name + " ") != std::string::npos ||
           readme.find(" " + name + "`") != std::string::npos));
  }
}

TEST_CASE("linalg::norm takes {} as NumPy's ord=None", "[host][api]") {
  const jet::array m = jet::placeholder({3, 4}, jet::float32);
  CHECK(jet::linalg::norm(m, {}, 1).shape() == jet::shape{3});
  CHECK(jet::linalg::norm(m, {}, 0, true).shape() == jet::shape{1, 4});
  CHECK(jet::linalg::norm(m, std::nullopt, 1).shape() == jet::shape{3});
  CHECK(jet::linalg::norm(m, std::optional<double>(), {0, 1}).shape() == jet::shape{});
  CHECK(jet::linalg::norm(m, 2, 1).shape() == jet::shape{3});
  CHECK(jet::linalg::norm(m, 1.5, 0).dtype() == jet::float32);
  CHECK(jet::linalg::norm(m, -INFINITY).shape() == jet::shape{});
  CHECK(jet::linalg::norm(m, "fro").shape() == jet::shape{});
  CHECK(jet::linalg::norm(m, std::string("fro"), {0, 1}, true).shape() == jet::shape{1, 1});
  CHECK_THROWS_WITH(jet::linalg::norm(m, std::string("bogus")),
                    jet_test::contains("Invalid norm order 'bogus' for matrices"));
  CHECK_THROWS_WITH(jet::linalg::norm(m, "nuc", 1), jet_test::contains("for vectors"));
}

TEST_CASE("asarray takes a braced shape", "[host][api]") {
  static_assert(requires(const std::vector<float>& v, int n) { jet::asarray(v, {n, n}); });
  static_assert(requires(const std::vector<bool>& v) { jet::asarray(v, {2, 2}); });
  static_assert(requires(std::span<const double> v) { jet::asarray(v, {2, -1}); });
  static_assert(requires { jet::asarray({1, 2, 3, 4}, {2, 2}); });
  static_assert(requires(const std::vector<float>& v) { jet::asarray(v); });
  // The count is checked before any device memory is touched.
  const std::vector<float> values(6);
  CHECK_THROWS_WITH(jet::asarray(values, {4, 2}),
                    jet_test::contains("cannot reshape array of size 6 into shape (4,2)"));
}

TEST_CASE("count_nonzero is a member of arrays and expressions", "[host][api]") {
  const jet::array x = jet::placeholder({3, 4}, jet::int32);
  const jet::expr e = x * 2;
  CHECK(x.count_nonzero().shape() == jet::shape{});
  CHECK(x.count_nonzero(1).shape() == jet::shape{3});
  CHECK(e.count_nonzero(0, true).shape() == jet::shape{1, 4});
  CHECK(e.count_nonzero().dtype() == jet::int64);
}

TEST_CASE("expressions have jet::array's views and host copies", "[host][api]") {
  const jet::array x = jet::placeholder({2, 3}, jet::float32);
  const jet::expr e = jet::sin(x) + 1;
  static_assert(std::is_same_v<decltype(e.T()), jet::array>);
  static_assert(std::is_same_v<decltype(e.transpose(1, 0)), jet::array>);
  static_assert(std::is_same_v<decltype(e.reshape({3, 2})), jet::array>);
  static_assert(std::is_same_v<decltype(e.reshape(-1)), jet::array>);
  static_assert(std::is_same_v<decltype(e(0, jet::slice(1, jet::none))), jet::array>);
  static_assert(std::is_same_v<decltype(e(jet::ellipsis, jet::newaxis)), jet::array>);
  static_assert(std::is_same_v<decltype(e.flatten()), jet::array>);
  static_assert(std::is_same_v<decltype(e.ravel()), jet::array>);
  static_assert(std::is_same_v<decltype(e.item<float>()), float>);
  static_assert(std::is_same_v<decltype(e.to_vector<float>()), std::vector<float>>);
  static_assert(std::is_same_v<decltype(x.reshape(3, 2)), jet::array>);
  static_assert(std::is_same_v<decltype(x.transpose(1, 0)), jet::array>);
  // Each evaluates first: over a placeholder that raises a jet::error (value_error with a
  // device, cuda_error without one) instead of reading memory.
  CHECK_THROWS_AS(e.T(), jet::error);
  CHECK_THROWS_AS(e(0), jet::error);
  CHECK_THROWS_AS(e.reshape(-1), jet::error);
  CHECK_THROWS_AS(e.item<float>(), jet::error);
  CHECK_THROWS_AS(e.to_vector<float>(), jet::error);
  // A view of a placeholder array needs no evaluation.
  CHECK(x.reshape(3, 2).shape() == jet::shape{3, 2});
  CHECK(x.reshape(-1).shape() == jet::shape{6});
  CHECK(x.transpose(1, 0).shape() == jet::shape{3, 2});
}
