// Sorting, searching and scans on the host, against NumPy (data/sorting.tsv, written by
// data/generate_sorting.py): every row's errors, and the shapes and dtypes of the lazy
// searches, on placeholder arrays. The sorts' results need a device (the GPU test checks them).
#include <map>
#include <string>

#include "host/sorting_table.hpp"
#include "support/catch.hpp"

TEST_CASE("sorting and searching agree with NumPy's table on the host", "[host][sorting]") {
  std::map<std::string, int> checked;
  for (const auto& row : jet_test::read_table(JET_TEST_DATA "/sorting.tsv")) {
    if (jet_test::sorting_table::needs_device(row)) continue;
    std::string call;
    for (std::size_t k = 0; k + 1 < row.size(); ++k) call += row[k] + " ";
    INFO(call);
    CHECK(jet_test::sorting_table::outcome(row, jet_test::operand_source::placeholders) ==
          row.back());
    ++checked[row[0]];
  }
  for (const char* f :
       {"sort", "argsort", "lexsort", "sort_complex", "searchsorted", "digitize", "cumsum",
        "cumprod", "nancumsum", "nancumprod", "partition", "argpartition"}) {
    INFO(f);
    CHECK(checked[f] > 0);
  }
}
