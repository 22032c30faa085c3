// NumPy's answers for statistics (data/statistics.tsv, written by data/generate_statistics.py)
// and the calls of Jet's functions its rows name. Shared by the host test, which runs the rows
// that need no device, and the GPU test, which runs them all and compares their values.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <set>
#include <string>
#include <vector>

#include "host/numpy_table.hpp"
#include "jet/jet.hpp"

namespace jet_test::statistics_table {

// generate_statistics.py's values(): integer hashing, one division in double, then the flags.
inline jet::array values_of(const jet::shape& s, jet::dtype t, std::int64_t seed,
                            const std::string& flags) {
  const std::int64_t n = s.product();
  std::vector<double> v(static_cast<std::size_t>(n));
  const auto has = [&](char f) { return flags.find(f) != std::string::npos; };
  for (std::int64_t k = 0; k < n; ++k) {
    const std::int64_t h = (k * 2654435761LL + seed * 40503) % 1000003;
    double x = has('t') ? static_cast<double>(h % 7 - 3)
                        : static_cast<double>(h) / 1000003.0 * 20.0 - 10.0;
    if (has('p')) x = std::abs(x);
    if (has('n') && h % 11 == 3) x = std::numeric_limits<double>::quiet_NaN();
    if (has('i') && h % 13 == 5) x = std::numeric_limits<double>::infinity();
    if (has('i') && h % 13 == 6) x = -std::numeric_limits<double>::infinity();
    if (has('a') && k < n / 2) x = std::numeric_limits<double>::quiet_NaN();
    v[static_cast<std::size_t>(k)] = x;
  }
  return jet::asarray(v, s).astype(t);
}

// An operand: SHAPE:DTYPE (zeros or a placeholder), SHAPE:DTYPE:SEED:FLAGS (values), or a
// Python int or float.
inline jet::expr operand_of(const std::string& text, operand_source how) {
  const std::vector<std::string> p = split(text, ':');
  if (p.size() < 4) return expr_of(text, how);
  return values_of(parse_shape(p[0]), jet::dtype_from_name(p[1]), std::stoll(p[2]), p[3]);
}

inline std::optional<jet::expr> optional_operand(const std::string& text, operand_source how) {
  if (text == "-") return std::nullopt;
  return operand_of(text, how);
}

inline jet::axes axes_of(const std::string& text) {
  if (text == "none") return {};
  const std::vector<std::int64_t> list = integers(text);
  if (list.size() == 1) return jet::axes(list[0]);
  if (list.size() == 2) return jet::axes({static_cast<int>(list[0]), static_cast<int>(list[1])});
  throw std::invalid_argument("axes " + text);
}

inline bool flag(const std::string& text) { return text == "1"; }

// A C++ bool as the 0-d bool array NumPy's np.bool_ is.
inline jet::expr truth(bool b) { return jet::full({}, b, jet::bool_); }

inline std::vector<jet::expr> quantile_call(const std::vector<std::string>& f, operand_source how) {
  const jet::expr a = operand_of(f[1], how);
  const jet::axes axis = axes_of(f[3]);
  const bool keep = flag(f[5]);
  const bool scalar = f[2][0] == 's';
  const std::vector<double> q = [&] {
    std::vector<double> out;
    for (const std::string& v : split(f[2].substr(2), ',')) out.push_back(std::stod(v));
    return out;
  }();
  const std::string& name = f[0];
  if (name == "quantile")
    return {scalar ? jet::quantile(a, q[0], axis, f[4], keep)
                   : jet::quantile(a, q, axis, f[4], keep)};
  if (name == "nanquantile")
    return {scalar ? jet::nanquantile(a, q[0], axis, f[4], keep)
                   : jet::nanquantile(a, q, axis, f[4], keep)};
  if (name == "percentile")
    return {scalar ? jet::percentile(a, q[0], axis, f[4], keep)
                   : jet::percentile(a, q, axis, f[4], keep)};
  return {scalar ? jet::nanpercentile(a, q[0], axis, f[4], keep)
                 : jet::nanpercentile(a, q, axis, f[4], keep)};
}

// Bin edges as the table spells them: an operand, or sorted:OPERAND, sorted.
inline jet::expr edges_of(const std::string& text, operand_source how) {
  if (text.starts_with("sorted:")) return jet::sort(operand_of(text.substr(7), how));
  return operand_of(text, how);
}

inline std::vector<jet::expr> histogram_call(const std::vector<std::string>& f,
                                             operand_source how) {
  const jet::expr a = operand_of(f[1], how);
  const std::optional<jet::expr> w = optional_operand(f[4], how);
  const bool density = flag(f[5]);
  jet::histogram_result r;
  if (f[2].rfind("i:", 0) == 0) {
    std::optional<std::pair<double, double>> range;
    if (f[3] != "-") {
      const std::vector<std::string> p = split(f[3], ',');
      range = std::pair(std::stod(p[0]), std::stod(p[1]));
    }
    r = jet::histogram(a, std::stoll(f[2].substr(2)), range, w, density);
  } else {
    r = jet::histogram(a, edges_of(f[2], how), w, density);
  }
  return {r.hist, r.bin_edges};
}

inline std::vector<jet::expr> cov_call(const std::vector<std::string>& f, operand_source how) {
  jet::cov_options o;
  o.rowvar = flag(f[3]);
  o.bias = flag(f[4]);
  if (f[5] != "-") o.ddof = std::stoll(f[5]);
  o.fweights = optional_operand(f[6], how);
  o.aweights = optional_operand(f[7], how);
  return {jet::cov(operand_of(f[1], how), optional_operand(f[2], how), o)};
}

inline std::vector<jet::expr> unique_call(const std::vector<std::string>& f, operand_source how) {
  jet::unique_options o;
  o.return_index = f[2].find('i') != std::string::npos;
  o.return_inverse = f[2].find('v') != std::string::npos;
  o.return_counts = f[2].find('c') != std::string::npos;
  if (f[3] != "none") o.axis = std::stoll(f[3]);
  o.equal_nan = flag(f[4]);
  const jet::unique_result r = jet::unique(operand_of(f[1], how), o);
  std::vector<jet::expr> out{r.values};
  for (const std::optional<jet::array>& part : {r.index, r.inverse, r.counts})
    if (part) out.emplace_back(*part);
  return out;
}

// The set routines' rows (none when `f` names another function).
inline std::vector<jet::expr> set_call(const std::vector<std::string>& f, operand_source how) {
  const std::string& name = f[0];
  if (name == "unique") return unique_call(f, how);
  const jet::expr a = operand_of(f[1], how);
  if (name == "unique_all") {
    const jet::unique_all_result r = jet::unique_all(a);
    return {r.values, r.indices, r.inverse_indices, r.counts};
  }
  if (name == "unique_counts") {
    const jet::unique_counts_result r = jet::unique_counts(a);
    return {r.values, r.counts};
  }
  if (name == "unique_inverse") {
    const jet::unique_inverse_result r = jet::unique_inverse(a);
    return {r.values, r.inverse_indices};
  }
  if (name == "unique_values") return {jet::unique_values(a)};
  const jet::expr b = operand_of(f[2], how);
  if (name == "isin") return {jet::isin(a, b, flag(f[3]))};
  if (name == "union1d") return {jet::union1d(a, b)};
  if (name == "intersect1d") return {jet::intersect1d(a, b, flag(f[3]))};
  if (name == "setdiff1d") return {jet::setdiff1d(a, b, flag(f[3]))};
  if (name == "setxor1d") return {jet::setxor1d(a, b, flag(f[3]))};
  if (name == "intersect1d_indices") {
    const jet::intersect1d_result r = jet::intersect1d_indices(a, b, flag(f[3]));
    return {r.values, r.indices1, r.indices2};
  }
  return {};
}

// histogramdd's and histogram2d's BINS and RANGE fields.
inline std::vector<std::int64_t> bin_counts(const std::string& text) {
  std::vector<std::int64_t> out;
  for (const std::string& c : split(text.substr(2), ',')) out.push_back(std::stoll(c));
  return out;
}
inline std::vector<jet::expr> bin_edges(const std::string& text, operand_source how) {
  std::vector<jet::expr> out;
  for (const std::string& e : split(text.substr(2), ';')) out.push_back(edges_of(e, how));
  return out;
}
inline std::vector<std::optional<std::pair<double, double>>> ranges(const std::string& text) {
  std::vector<std::optional<std::pair<double, double>>> out;
  if (text == "-") return out;
  for (const std::string& pair : split(text, ';')) {
    const std::vector<std::string> ends = split(pair, ',');
    out.emplace_back(std::pair{std::stod(ends[0]), std::stod(ends[1])});
  }
  return out;
}

inline std::vector<jet::expr> histogramdd_call(const std::vector<std::string>& f,
                                               operand_source how) {
  const bool two = f[0] == "histogram2d";
  const std::size_t b = two ? 3 : 2;  // the BINS field
  const std::optional<jet::expr> weights = optional_operand(f[b + 2], how);
  const bool density = flag(f[b + 3]);
  std::vector<jet::expr> out;
  if (two) {
    const jet::expr x = operand_of(f[1], how), y = operand_of(f[2], how);
    const jet::histogram2d_result r =
        f[b][0] == 'i'
            ? jet::histogram2d(x, y, bin_counts(f[b]), ranges(f[b + 1]), weights, density)
            : jet::histogram2d(x, y, bin_edges(f[b], how), weights, density);
    return {r.hist, r.xedges, r.yedges};
  }
  const jet::expr sample = operand_of(f[1], how);
  const jet::histogramdd_result r =
      f[b][0] == 'i'
          ? jet::histogramdd(sample, bin_counts(f[b]), ranges(f[b + 1]), weights, density)
          : jet::histogramdd(sample, bin_edges(f[b], how), weights, density);
  out.push_back(r.hist);
  for (const jet::array& e : r.edges) out.push_back(e);
  return out;
}

inline bool is_set_routine(const std::string& name) {
  return name.starts_with("unique") || name == "isin" || name.ends_with("1d") ||
         name == "intersect1d_indices";
}

inline std::vector<jet::expr> call(const std::vector<std::string>& f, operand_source how) {
  const std::string& name = f[0];
  if (is_set_routine(name)) return set_call(f, how);
  if (name == "isclose")
    return {jet::isclose(operand_of(f[1], how), operand_of(f[2], how), std::stod(f[3]),
                         std::stod(f[4]), flag(f[5]))};
  if (name == "allclose")
    return {truth(jet::allclose(operand_of(f[1], how), operand_of(f[2], how), std::stod(f[3]),
                                std::stod(f[4]), flag(f[5])))};
  if (name == "array_equal")
    return {truth(jet::array_equal(operand_of(f[1], how), operand_of(f[2], how), flag(f[3])))};
  if (name == "array_equiv")
    return {truth(jet::array_equiv(operand_of(f[1], how), operand_of(f[2], how)))};
  if (name == "average")
    return {jet::average(operand_of(f[1], how), axes_of(f[2]), optional_operand(f[3], how),
                         flag(f[4]))};
  if (name == "average_returned") {
    const auto [avg, total] = jet::average_returned(operand_of(f[1], how), axes_of(f[2]),
                                                    optional_operand(f[3], how), flag(f[4]));
    return {avg, total};
  }
  if (name == "median") return {jet::median(operand_of(f[1], how), axes_of(f[2]), flag(f[3]))};
  if (name == "nanmedian")
    return {jet::nanmedian(operand_of(f[1], how), axes_of(f[2]), flag(f[3]))};
  if (name.find("quantile") != std::string::npos || name.find("percentile") != std::string::npos)
    return quantile_call(f, how);
  if (name == "bincount")
    return {jet::bincount(operand_of(f[1], how), optional_operand(f[2], how), std::stoll(f[3]))};
  if (name == "histogram") return histogram_call(f, how);
  if (name == "histogramdd" || name == "histogram2d") return histogramdd_call(f, how);
  if (name == "cov") return cov_call(f, how);
  if (name == "corrcoef")
    return {jet::corrcoef(operand_of(f[1], how), optional_operand(f[2], how), flag(f[3]))};
  if (name == "nanargmin")
    return {jet::nanargmin(operand_of(f[1], how), axes_of(f[2]), flag(f[3]))};
  if (name == "nanargmax")
    return {jet::nanargmax(operand_of(f[1], how), axes_of(f[2]), flag(f[3]))};
  throw std::invalid_argument("no function " + name + " in statistics.tsv");
}

// Whether a row needs a device: operands with values, results other than the lazy ones, and
// errors NumPy finds in the data.
inline bool needs_device(const std::vector<std::string>& f) {
  for (std::size_t k = 1; k + 1 < f.size(); ++k)
    if (split(f[k], ':').size() == 4) return true;
  const std::string& result = f.back();
  if (is_error(result)) {
    for (const char* data : {"All-NaN", "Weights sum to zero", "'list' argument", "autodetected",
                             "increase monotonically", "fweights", "aweights"})
      if (result.find(data) != std::string::npos) return true;
    return false;
  }
  static const std::set<std::string> lazy = {"isclose", "nanargmin", "nanargmax"};
  if (f[0] == "average") return f[3] != "-";
  return lazy.count(f[0]) == 0;
}

// The shapes and dtypes of a row's results, as the table spells them without values.
inline std::string shapes(const std::vector<std::string>& f, operand_source how) {
  return outcome_of(call, f, how);
}

}  // namespace jet_test::statistics_table
