// Sorting and searching on a GPU against NumPy's table (data/sorting.tsv): every row's result
// shape and dtype, or its error, on arrays of zeros.
#include <string>

#include "host/sorting_table.hpp"
#include "support/catch.hpp"

TEST_CASE("sorting and searching agree with NumPy's table", "[gpu][sorting]") {
  for (const auto& row : jet_test::read_table(JET_TEST_DATA "/sorting.tsv")) {
    std::string call;
    for (std::size_t k = 0; k + 1 < row.size(); ++k) call += row[k] + " ";
    INFO(call);
    CHECK(jet_test::sorting_table::outcome(row, jet_test::operand_source::zeros) == row.back());
  }
}
