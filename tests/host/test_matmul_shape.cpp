// matmul's shape rule against NumPy: data/matmul.tsv is numpy.matmul's own answers for every
// pair of a set of shapes, written by data/generate_matmul.py.
#include <string>

#include "codegen/linalg/matmul_shape.hpp"
#include "host/numpy_table.hpp"
#include "jet/error.hpp"
#include "support/catch.hpp"

namespace {

using jet_test::parse_shape;

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
  const auto rows = jet_test::read_table(JET_TEST_DATA "/matmul.tsv");
  for (const auto& row : rows) {
    REQUIRE(row.size() == 3);
    INFO(row[0] << " @ " << row[1]);
    CHECK(outcome(parse_shape(row[0]), parse_shape(row[1])) == row[2]);
  }
  CHECK(rows.size() == 529);
}
