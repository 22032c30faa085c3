// Advanced indexing, joining and splitting, and rearranging and building on the host, against
// NumPy (data/indexing.tsv, written by data/generate_indexing.py): every row's shapes, dtypes
// and errors on placeholder arrays, but for the results only a device can make. The joins
// evaluate; tile, repeat and roll along an axis copy their positions to the device; diag builds
// on an array made there; diff evaluates each difference after the first; a dense meshgrid
// copies; a mask's count is the GPU's. Their errors come first, and are checked here. Rows
// marked !NAME are where Jet is known to differ from NumPy (the generator says how), left out
// until Jet is fixed.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "host/indexing_table.hpp"
#include "host/numpy_table.hpp"
#include "support/catch.hpp"

namespace {

namespace table = jet_test::indexing_table;
using names = std::set<std::string>;

const names indexing = {"index", "take", "take_along_axis"};
const names joins = {"concatenate", "stack",        "vstack", "hstack",
                     "dstack",      "column_stack", "append"};
const names splits = {"split",  "array_split", "hsplit",     "vsplit",
                      "dsplit", "atleast_1d",  "atleast_2d", "atleast_3d"};
const names rearranging = {"flip",     "fliplr", "flipud",          "rot90", "moveaxis",
                           "roll",     "tile",   "repeat",          "diff",  "diag",
                           "meshgrid", "ix_",    "broadcast_arrays"};

// Whether a row's result needs a device (above): its errors never do.
bool needs_device(const std::vector<std::string>& f) {
  if (jet_test::is_error(f.back())) return false;
  if (joins.count(f[0]) == 1 || f[0] == "tile" || f[0] == "repeat" || f[0] == "diag") return true;
  if (f[0] == "roll")
    return f[3] != "none" &&
           jet_test::array_of(f[1], jet_test::operand_source::placeholders).size() > 0;
  if (f[0] == "diff") return std::stoi(f[2]) > 1;
  if (f[0] == "meshgrid") return f[3] == "dense";
  return f[0] == "index" && f[2].find(":bool") != std::string::npos;
}

// Checks the rows of `functions` that need no device; then that each function had rows checked,
// results among them for those in `lazy`.
void check_rows(const names& functions, const names& lazy) {
  std::map<std::string, int> results, errors;
  for (const auto& row : jet_test::read_table(JET_TEST_DATA "/indexing.tsv")) {
    if (functions.count(row[0]) == 0 || needs_device(row)) continue;
    std::string call;
    for (std::size_t k = 0; k + 1 < row.size(); ++k) call += row[k] + " ";
    INFO(call);
    CHECK(table::outcome(row, jet_test::operand_source::placeholders) == row.back());
    ++(jet_test::is_error(row.back()) ? errors : results)[row[0]];
  }
  for (const std::string& f : functions) {
    INFO(f);
    CHECK(results[f] + errors[f] > 0);
    if (lazy.count(f) == 1) CHECK(results[f] > 0);
  }
}

}  // namespace

TEST_CASE("advanced indexing, take and take_along_axis give NumPy's shapes and errors",
          "[host][indexing]") {
  check_rows(indexing, indexing);
}

TEST_CASE("joins raise NumPy's errors, and splits give its parts", "[host][manipulation]") {
  names both = joins;
  both.insert(splits.begin(), splits.end());
  check_rows(both, splits);
}

TEST_CASE("rearranging and building give NumPy's shapes, dtypes and errors",
          "[host][manipulation]") {
  check_rows(rearranging, {"flip", "fliplr", "flipud", "rot90", "moveaxis", "roll", "diff",
                           "meshgrid", "ix_", "broadcast_arrays"});
}

TEST_CASE("every function of data/indexing.tsv is checked", "[host][indexing][manipulation]") {
  names checked = indexing;
  for (const names* area : {&joins, &splits, &rearranging})
    checked.insert(area->begin(), area->end());
  for (const auto& [function, call] : table::calls()) {
    INFO(function);
    CHECK(checked.count(function) == 1);
  }
  for (const auto& row : jet_test::read_table(JET_TEST_DATA "/indexing.tsv")) {
    const std::string function = row[0][0] == '!' ? row[0].substr(1) : row[0];
    INFO(function);
    CHECK(table::calls().count(function) == 1);
  }
}
