// NumPy's answers for sorting and searching (data/sorting.tsv, written by
// data/generate_sorting.py) and the calls of Jet's functions its rows name. Shared by the host
// test, which runs the rows that need no device, and the GPU test, which runs them all.
#pragma once

#include <string>
#include <vector>

#include "host/numpy_table.hpp"
#include "jet/jet.hpp"

namespace jet_test::sorting_table {

inline std::vector<jet::expr> call(const std::vector<std::string>& f, operand_source how) {
  const std::string& name = f[0];
  if (name == "sort") return {jet::sort(expr_of(f[1], how), axis_of(f[2]))};
  if (name == "argsort") return {jet::argsort(expr_of(f[1], how), axis_of(f[2]))};
  if (name == "lexsort") return {jet::lexsort(exprs_of(f[1], how), std::stoll(f[2]))};
  if (name == "sort_complex") return {jet::sort_complex(expr_of(f[1], how))};
  if (name == "partition")
    return {jet::partition(expr_of(f[1], how), std::stoll(f[2]), axis_of(f[3]))};
  if (name == "argpartition")
    return {jet::argpartition(expr_of(f[1], how), std::stoll(f[2]), axis_of(f[3]))};
  if (name == "searchsorted")
    return {jet::searchsorted(expr_of(f[1], how), expr_of(f[2], how), f[3])};
  if (name == "digitize")
    return {jet::digitize(expr_of(f[1], how), expr_of(f[2], how), f[3] == "1")};
  if (name.find("cum") != std::string::npos) {
    const jet::expr a = expr_of(f[1], how);
    const std::optional<std::int64_t> axis = axis_of(f[2]);
    const bool nan = name.starts_with("nan"), sum = name.ends_with("sum");
    if (f[3] != "none") {
      const jet::dtype t = jet::dtype_from_name(f[3]);
      if (sum) return {nan ? jet::nancumsum(a, axis, t) : jet::cumsum(a, axis, t)};
      return {nan ? jet::nancumprod(a, axis, t) : jet::cumprod(a, axis, t)};
    }
    if (sum) return {nan ? jet::nancumsum(a, axis) : jet::cumsum(a, axis)};
    return {nan ? jet::nancumprod(a, axis) : jet::cumprod(a, axis)};
  }
  throw std::invalid_argument("no function " + name + " in sorting.tsv");
}

// Whether a row's result needs a device: the sorts' (which run at once) and digitize's with
// more than one bin (it reads their direction); never an error, which comes first, nor a
// lazy search or scan.
inline bool needs_device(const std::vector<std::string>& f) {
  if (is_error(f.back())) return false;
  if (f[0] == "searchsorted" || f[0].find("cum") != std::string::npos) return false;
  if (f[0] == "digitize") return parse_shape(f[2].substr(0, f[2].find(':'))).product() > 1;
  return true;
}

inline std::string outcome(const std::vector<std::string>& f, operand_source how) {
  return outcome_of(call, f, how);
}

}  // namespace jet_test::sorting_table
