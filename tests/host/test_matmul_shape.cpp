// matmul's shape rule against NumPy: data/matmul.tsv is numpy.matmul's own answers for every
// pair of a set of shapes, written by data/generate_matmul.py.
#include <fstream>
#include <sstream>
#include <string>

#include "codegen/matmul_shape.hpp"
#include "jet/error.hpp"
#include "support/catch.hpp"

namespace {

// "(2,3,4)" -> {2, 3, 4}; "(3,)" -> {3}; "()" -> {}.
jet::shape parse_shape(const std::string& text) {
  jet::shape s;
  std::stringstream in(text.substr(1, text.size() - 2));
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) s.push_back(std::stoll(item));
  return s;
}

// The shape, or "error: " and the message, as the table spells them.
std::string outcome(const jet::shape& a, const jet::shape& b) {
  try {
    return jet::to_string(jet::codegen::matmul_shape(a, b));
  } catch (const jet::value_error& e) {
    return std::string("error: ") + e.what();
  }
}

}  // namespace

TEST_CASE("matmul's result shapes and errors are NumPy's", "[host][linalg]") {
  std::ifstream in(JET_TEST_DATA "/matmul.tsv");
  REQUIRE(in);
  int rows = 0;
  for (std::string line; std::getline(in, line); ++rows) {
    std::stringstream fields(line);
    std::string a, b, want;
    std::getline(fields, a, '\t');
    std::getline(fields, b, '\t');
    std::getline(fields, want);
    INFO(a << " @ " << b);
    CHECK(outcome(parse_shape(a), parse_shape(b)) == want);
  }
  CHECK(rows == 529);
}
