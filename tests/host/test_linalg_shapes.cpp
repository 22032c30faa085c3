// The linear-algebra functions' result shapes, dtypes and errors against NumPy, through Jet's
// own API on placeholder arrays (products of placeholders are placeholders: no GPU needed).
// data/linalg.tsv is NumPy's answers, written by data/generate_linalg.py.
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "host/numpy_table.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

using jet_test::parse_shape;

// "(3,4):float32" -> a placeholder of that shape and dtype.
jet::array parse_operand(const std::string& text) {
  return jet_test::array_of(text, jet_test::operand_source::placeholders);
}

jet::shape axis_list(const std::string& text) {
  jet::shape s;
  for (std::int64_t v : jet_test::integers(text)) s.push_back(v);
  return s;
}

std::string describe(const jet::expr& result) {
  return jet::to_string(result.shape()) + ":" + std::string(jet::name(result.dtype()));
}

using call = std::function<jet::expr(const jet::array&, const jet::array&, const std::string&)>;

const std::map<std::string, call>& functions() {
  static const std::map<std::string, call> table = {
      {"dot", [](const jet::array& a, const jet::array& b,
                 const std::string&) { return jet::expr(jet::dot(a, b)); }},
      {"inner", [](const jet::array& a, const jet::array& b,
                   const std::string&) { return jet::expr(jet::inner(a, b)); }},
      {"vdot", [](const jet::array& a, const jet::array& b,
                  const std::string&) { return jet::expr(jet::vdot(a, b)); }},
      {"outer", [](const jet::array& a, const jet::array& b,
                   const std::string&) { return jet::outer(a, b); }},
      {"matmul", [](const jet::array& a, const jet::array& b,
                    const std::string&) { return jet::expr(jet::matmul(a, b)); }},
      {"tensordot",
       [](const jet::array& a, const jet::array& b, const std::string& args) {
         const std::size_t split = args.find(';');
         if (split == std::string::npos) return jet::expr(jet::tensordot(a, b, std::stoll(args)));
         return jet::expr(jet::tensordot(a, b, axis_list(args.substr(0, split)),
                                         axis_list(args.substr(split + 1))));
       }},
      {"diagonal",
       [](const jet::array& a, const jet::array&, const std::string& args) {
         const std::vector<std::int64_t> v = jet_test::integers(args);
         return jet::expr(jet::diagonal(a, v[0], v[1], v[2]));
       }},
      {"trace",
       [](const jet::array& a, const jet::array&, const std::string& args) {
         const std::vector<std::int64_t> v = jet_test::integers(args);
         return jet::trace(a, v[0], v[1], v[2]);
       }},
      {"matrix_power",
       [](const jet::array& a, const jet::array&, const std::string& args) {
         return jet::expr(jet::linalg::matrix_power(a, std::stoll(args)));
       }},
  };
  return table;
}

// The result as the table spells it. NumPy's IndexError for tensordot's too many axes is
// Python's own "tuple index out of range"; Jet says more, so only the kind is compared there.
std::string outcome(const call& f, const jet::array& a, const jet::array& b,
                    const std::string& args, const std::string& want) {
  try {
    return describe(f(a, b, args));
  } catch (const jet::index_error& e) {
    if (want == "error: index: tuple index out of range") return want;
    return std::string("error: index: ") + e.what();
  } catch (const jet::value_error& e) {
    return std::string("error: value: ") + e.what();
  }
}

}  // namespace

TEST_CASE("linalg functions give NumPy's shapes, dtypes and errors", "[host][linalg]") {
  const auto table = jet_test::read_table(JET_TEST_DATA "/linalg.tsv");
  REQUIRE(table.size() > 2000);
  std::map<std::string, int> rows;
  for (const auto& row : table) {
    REQUIRE(row.size() == 5);
    const std::string &function = row[0], &a = row[1], &b = row[2], &args = row[3], &want = row[4];
    INFO(function << "(" << a << ", " << b << ", " << args << ")");
    REQUIRE(functions().count(function) == 1);
    const jet::array pa = parse_operand(a), pb = b == "-" ? jet::placeholder({}) : parse_operand(b);
    CHECK(outcome(functions().at(function), pa, pb, args, want) == want);
    ++rows[function];
  }
  for (const auto& [function, count] : functions()) {
    INFO(function);
    CHECK(rows[function] > 0);
  }
}

TEST_CASE("bfloat16, which NumPy lacks, multiplies as float16 does", "[host][linalg]") {
  const jet::array h = jet::placeholder({2, 3}, jet::bfloat16),
                   f = jet::placeholder({3, 4}, jet::float16);
  CHECK(jet::matmul(h, h.T()).dtype() == jet::bfloat16);
  CHECK(jet::matmul(h, f).dtype() == jet::float32);
  CHECK(jet::dot(h, jet::placeholder({3}, jet::float32)).dtype() == jet::float32);
  CHECK(jet::trace(h.T()).dtype() == jet::bfloat16);
}

TEST_CASE("diagonal is a view whose stride is the sum of the two axes'", "[host][linalg]") {
  const jet::array a = jet::placeholder({2, 3, 4, 5}, jet::float32);  // strides (60, 20, 5, 1)
  const jet::array d = jet::diagonal(a, 1, 3, 1);
  CHECK(jet::to_string(d.shape()) == "(2,4,2)");
  CHECK(jet::to_string(d.strides()) == "(60,5,21)");
  CHECK(d.offset() == 20);  // offset 1 moves along axis2 (axis 1): a[:, 1, :, 0] starts it
  const jet::array below = jet::diagonal(a.T(), -2, 0, 3);  // a.T is (5,4,3,2), strides (1,5,20,60)
  CHECK(jet::to_string(below.shape()) == "(4,3,2)");
  CHECK(jet::to_string(below.strides()) == "(5,20,61)");
  CHECK(below.offset() == 2);
  const jet::array sliced =
      a(jet::slice(), jet::slice(1, jet::none), jet::slice(jet::none, jet::none, -1));
  const jet::array on_view = jet::diagonal(sliced, 0, 1, 2);
  CHECK(jet::to_string(on_view.strides()) == "(60,1,15)");
  CHECK(on_view.offset() == sliced.offset());
  CHECK(jet::diagonal(a, 9, 0, 1).size() == 0);
}

TEST_CASE("matmul into an out array checks its shape and dtype", "[host][linalg]") {
  const jet::array a = jet::placeholder({3, 4}, jet::float32),
                   b = jet::placeholder({4, 5}, jet::float32);
  CHECK(jet::matmul(a, b, jet::placeholder({3, 5}, jet::float32)).size() == 15);
  CHECK_THROWS_WITH(
      jet::matmul(a, b, jet::placeholder({3, 6}, jet::float32)),
      "matmul: out has shape (3,6), but the product of (3,4) and (4,5) has shape (3,5)");
  CHECK_THROWS_WITH(
      jet::matmul(a, b, jet::placeholder({3, 5}, jet::float64)),
      "matmul: out has dtype float64, but the product of float32 and float32 is float32");
  CHECK_THROWS_AS(jet::matmul(a, b, jet::placeholder({1, 5}, jet::float32).broadcast_to({3, 5})),
                  jet::value_error);
  CHECK_THROWS_WITH(jet::matmul(a, a), jet_test::contains("(size 3 is different from 4)"));
}

TEST_CASE("matrix_power refuses negative powers", "[host][linalg]") {
  CHECK_THROWS_WITH(
      jet::linalg::matrix_power(jet::placeholder({3, 3}), -1),
      "matrix_power: the negative power -1 needs a matrix inverse, which Jet does not have");
}

TEST_CASE("TF32 is off unless asked for, and toggles", "[host][linalg]") {
  const bool initial = jet::linalg::tf32_allowed();
  const char* env = std::getenv("JET_TF32");
  CHECK(initial == (env != nullptr && std::string(env) == "1"));
  jet::linalg::allow_tf32(true);
  CHECK(jet::linalg::tf32_allowed());
  jet::linalg::allow_tf32(false);
  CHECK_FALSE(jet::linalg::tf32_allowed());
  jet::linalg::allow_tf32(initial);
}
