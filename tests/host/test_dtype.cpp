// Type promotion against NumPy 2: data/promotion.csv is NumPy's own answers, written by
// data/generate_promotion.py. No GPU needed: expressions over placeholders only build nodes.
#include <complex>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

// One line of promotion.csv: its kind ("promote", "weak", "ufunc"), the fields after the
// kind, and the line itself for failure messages.
struct table_row {
  std::string kind;
  std::vector<std::string> fields;
  std::string line;
};

std::vector<table_row> read_table() {
  std::ifstream in(JET_TEST_DATA "/promotion.csv");
  if (!in) throw std::runtime_error("cannot open " JET_TEST_DATA "/promotion.csv");
  std::vector<table_row> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    table_row row{{}, {}, line};
    std::istringstream fields(line);
    std::getline(fields, row.kind, ',');
    for (std::string field; std::getline(fields, field, ',');) row.fields.push_back(field);
    rows.push_back(std::move(row));
  }
  return rows;
}

// The rows of one kind; the file is read once.
std::vector<table_row> rows_of(const std::string& kind) {
  static const std::vector<table_row> all = read_table();
  std::vector<table_row> out;
  for (const table_row& row : all)
    if (row.kind == kind) out.push_back(row);
  REQUIRE(!out.empty());
  return out;
}

std::string name_of(jet::dtype t) { return std::string(jet::name(t)); }

// bfloat16 promotes as float16 does, so a NumPy row about float16 holds for bfloat16 too.
std::string float16_as_bfloat16(const std::string& name) {
  return name == "float16" ? "bfloat16" : name;
}

jet::weak_kind weak_kind_from_name(const std::string& kind) {
  if (kind == "bool") return jet::weak_kind::boolean;
  if (kind == "int") return jet::weak_kind::integer;
  if (kind == "float") return jet::weak_kind::floating;
  if (kind == "complex") return jet::weak_kind::complex;
  FAIL("unknown weak kind " << kind);
  return jet::weak_kind::none;
}

// The C++ scalar that stands for the Python scalar NumPy used: True, 1, 1.0, 1j.
jet::expr weak_scalar(jet::weak_kind kind) {
  switch (kind) {
    case jet::weak_kind::boolean: return jet::expr(true);
    case jet::weak_kind::integer: return jet::expr(1);
    case jet::weak_kind::floating: return jet::expr(1.0);
    default: return jet::expr(std::complex<double>(0.0, 1.0));
  }
}

jet::expr operand(const std::string& dtype_name) {
  return jet::placeholder(jet::shape{2}, jet::dtype_from_name(dtype_name));
}

using unary_ufunc = jet::expr (*)(jet::expr);
using binary_ufunc = jet::expr (*)(jet::expr, jet::expr);

const std::map<std::string, unary_ufunc> unary_ufuncs = {
    {"negative", jet::negative},
    {"positive", jet::positive},
    {"invert", jet::invert},
    {"absolute", jet::absolute},
    {"sign", jet::sign},
    {"sqrt", jet::sqrt},
    {"cbrt", jet::cbrt},
    {"square", jet::square},
    {"reciprocal", jet::reciprocal},
    {"exp", jet::exp},
    {"log", jet::log},
    {"sin", jet::sin},
    {"floor", jet::floor},
    {"rint", jet::rint},
    {"isnan", jet::isnan},
    {"logical_not", jet::logical_not},
    {"conjugate", jet::conj},
    {"degrees", jet::degrees},
};

const std::map<std::string, binary_ufunc> binary_ufuncs = {
    {"add", jet::add},
    {"subtract", jet::subtract},
    {"multiply", jet::multiply},
    {"divide", jet::divide},
    {"floor_divide", jet::floor_divide},
    {"remainder", jet::remainder},
    {"fmod", jet::fmod},
    {"power", jet::power},
    {"bitwise_and", jet::bitwise_and},
    {"left_shift", jet::left_shift},
    {"equal", jet::equal},
    {"less", jet::less},
    {"logical_and", jet::logical_and},
    {"maximum", jet::maximum},
    {"fmax", jet::fmax},
    {"arctan2", jet::arctan2},
    {"hypot", jet::hypot},
    {"copysign", jet::copysign},
};

// The result dtype's name, or "error" when Jet refuses the dtypes (as promotion.csv spells it).
std::string result_or_error(const std::function<jet::expr()>& build) {
  try {
    return name_of(build().dtype());
  } catch (const jet::dtype_error&) {
    return "error";
  }
}

// Jet's answer for a ufunc row (NAME, A, B or empty, RESULT), with dtype names mapped by rename.
std::string jet_ufunc_result(const table_row& row,
                             const std::function<std::string(const std::string&)>& rename) {
  const std::string& name = row.fields.at(0);
  const std::string a = rename(row.fields.at(1)), b = rename(row.fields.at(2));
  if (b.empty()) return result_or_error([&] { return unary_ufuncs.at(name)(operand(a)); });
  return result_or_error([&] { return binary_ufuncs.at(name)(operand(a), operand(b)); });
}

bool mentions_float16(const table_row& row) {
  for (std::size_t i = 0; i + 1 < row.fields.size(); ++i)
    if (row.fields[i] == "float16") return true;
  return false;
}

std::string same_name(const std::string& name) { return name; }

// Rows where Jet knowingly differs from NumPy, and why. The test checks that each still
// differs, so that the fix fails it until its entry here is removed.

}  // namespace

TEST_CASE("promote_types matches numpy.promote_types", "[host][dtype]") {
  for (const table_row& row : rows_of("promote")) {
    INFO(row.line);
    const jet::dtype a = jet::dtype_from_name(row.fields.at(0));
    const jet::dtype b = jet::dtype_from_name(row.fields.at(1));
    CHECK(name_of(jet::promote_types(a, b)) == row.fields.at(2));
  }
}

TEST_CASE("weak scalars promote as Python scalars do under NEP 50", "[host][dtype]") {
  for (const table_row& row : rows_of("weak")) {
    INFO(row.line);
    const jet::dtype a = jet::dtype_from_name(row.fields.at(0));
    const jet::weak_kind kind = weak_kind_from_name(row.fields.at(1));
    CHECK(name_of(jet::promote_weak(a, kind)) == row.fields.at(2));
    CHECK(name_of((operand(row.fields.at(0)) + weak_scalar(kind)).dtype()) == row.fields.at(2));
  }
}

TEST_CASE("ufunc result dtypes and refusals match NumPy", "[host][dtype]") {
  for (const table_row& row : rows_of("ufunc")) {
    INFO(row.line);
    CHECK(jet_ufunc_result(row, same_name) == row.fields.at(3));
  }
}

TEST_CASE("bfloat16 promotes as float16 does, and with float16 to float32", "[host][dtype]") {
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto other = static_cast<jet::dtype>(i);
    INFO(jet::name(other));
    if (other == jet::float16 || other == jet::bfloat16) continue;
    const jet::dtype as_half = jet::promote_types(jet::float16, other);
    const jet::dtype expected = as_half == jet::float16 ? jet::bfloat16 : as_half;
    CHECK(jet::promote_types(jet::bfloat16, other) == expected);
    CHECK(jet::promote_types(other, jet::bfloat16) == expected);
  }
  CHECK(jet::promote_types(jet::bfloat16, jet::bfloat16) == jet::bfloat16);
  CHECK(jet::promote_types(jet::bfloat16, jet::float16) == jet::float32);
  CHECK(jet::promote_types(jet::float16, jet::bfloat16) == jet::float32);
  CHECK(jet::promote_weak(jet::bfloat16, jet::weak_kind::floating) == jet::bfloat16);
  CHECK(jet::promote_weak(jet::bfloat16, jet::weak_kind::integer) == jet::bfloat16);
  CHECK(jet::promote_weak(jet::bfloat16, jet::weak_kind::complex) == jet::complex64);
  const jet::array half = jet::placeholder({2}, jet::bfloat16);
  CHECK((half * 2.5).dtype() == jet::bfloat16);
  CHECK((half + jet::placeholder({2}, jet::int16)).dtype() == jet::float32);
  CHECK((half + jet::placeholder({2}, jet::int8)).dtype() == jet::bfloat16);
  CHECK((half + jet::placeholder({2}, jet::float16)).dtype() == jet::float32);
}

TEST_CASE("bfloat16 follows NumPy's float16 ufunc rows", "[host][dtype]") {
  for (const table_row& row : rows_of("ufunc")) {
    if (!mentions_float16(row)) continue;
    INFO(row.line << " with float16 read as bfloat16");
    CHECK(jet_ufunc_result(row, float16_as_bfloat16) == float16_as_bfloat16(row.fields.at(3)));
  }
}

TEST_CASE("promotion errors carry NumPy's messages", "[host][dtype]") {
  const jet::array small = jet::placeholder({2}, jet::int8);
  CHECK_THROWS_AS(small + 1000, jet::value_error);
  CHECK_THROWS_WITH(small + 1000, "Python integer 1000 out of bounds for int8");

  const jet::array flags = jet::placeholder({2}, jet::bool_);
  CHECK_THROWS_AS(flags - flags, jet::dtype_error);
  CHECK_THROWS_WITH(flags - flags, Catch::Matchers::StartsWith("numpy boolean subtract"));
  CHECK_THROWS_AS(-flags, jet::dtype_error);
  CHECK_THROWS_WITH(-flags,
                    "The numpy boolean negative, the `-` operator, is not supported, use "
                    "the `~` operator or the logical_not function instead.");
  CHECK_THROWS_AS(jet::sign(flags), jet::dtype_error);

  const jet::array matrix = jet::placeholder({3, 4});
  const jet::array row = jet::placeholder({5});
  CHECK_THROWS_AS(matrix + row, jet::shape_error);
  CHECK_THROWS_WITH(matrix + row,
                    "operands could not be broadcast together with shapes (3,4) (5,)");
}
