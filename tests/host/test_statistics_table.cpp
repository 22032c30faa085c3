// Statistics on the host, against NumPy (data/statistics.tsv, written by
// data/generate_statistics.py): every row's errors that come before any device work, and the
// shapes and dtypes of the lazy results, on placeholder arrays (the set routines: their axis
// errors). The GPU test checks the rest.
#include <map>
#include <string>

#include "host/statistics_table.hpp"
#include "support/catch.hpp"

TEST_CASE("statistics agree with NumPy's table on the host", "[host][statistics]") {
  std::map<std::string, int> checked;
  for (const auto& row : jet_test::read_table(JET_TEST_DATA "/statistics.tsv")) {
    if (jet_test::statistics_table::needs_device(row)) continue;
    std::string call;
    for (std::size_t k = 0; k + 1 < row.size(); ++k) call += row[k] + " ";
    INFO(call);
    CHECK(jet_test::statistics_table::shapes(row, jet_test::operand_source::placeholders) ==
          row.back());
    ++checked[row[0]];
  }
  for (const char* f : {"isclose", "average", "median", "quantile", "percentile", "bincount",
                        "histogram", "cov", "nanargmin", "nanargmax", "unique"}) {
    INFO(f);
    CHECK(checked[f] > 0);
  }
}
