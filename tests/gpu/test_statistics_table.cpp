// Statistics on a GPU against NumPy's table (data/statistics.tsv): every row's result shapes,
// dtypes and values, or its error (those found in the data raised by the synchronization
// after the call).
#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "host/statistics_table.hpp"
#include "support/catch.hpp"

namespace {

using cdouble = std::complex<double>;

double tolerance(jet::dtype t) {
  switch (t) {
    case jet::float16: return 4e-3;
    case jet::float32:
    case jet::complex64: return 2e-5;
    case jet::float64:
    case jet::complex128: return 1e-10;
    default: return 0;
  }
}

double parse_part(const std::string& text) { return std::stod(text); }

cdouble parse_value(const std::string& text) {
  const std::size_t bar = text.find('|');
  if (bar == std::string::npos) return parse_part(text);
  return {parse_part(text.substr(0, bar)), parse_part(text.substr(bar + 1))};
}

bool close(double got, double want, double tol) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::abs(got - want) <= tol;
}

// The tolerance a row's floating results take: their dtype's, or that of the row's least
// precise floating operand, where NumPy rounds in that dtype in another order than Jet (a
// density's float32 sum, say).
double operand_tolerance(const std::vector<std::string>& row) {
  double tol = 0;
  for (std::size_t k = 1; k + 1 < row.size(); ++k)
    for (jet::dtype t : {jet::float16, jet::float32, jet::complex64})
      if (row[k].find(":" + std::string(jet::name(t))) != std::string::npos)
        tol = std::max(tol, tolerance(t));
  return tol;
}

// The mismatch between `got` and a table's "SHAPE:DTYPE[=VALUES]", or empty; floating values
// within `operand_tol` too.
std::string mismatch(const jet::array& got, const std::string& want, double operand_tol) {
  const std::size_t equals = want.find('=');
  const std::string spelled =
      jet::to_string(got.shape()) + ":" + std::string(jet::name(got.dtype()));
  if (spelled != want.substr(0, equals)) return spelled + " against " + want.substr(0, equals);
  if (equals == std::string::npos) return "";
  const std::vector<std::string> items = jet_test::split(want.substr(equals + 1), ',');
  const std::vector<cdouble> values = got.astype(jet::complex128).to_vector<cdouble>();
  if (values.size() != items.size()) return "value count";
  double scale = 0;
  for (const std::string& item : items) {
    const cdouble w = parse_value(item);
    if (std::isfinite(std::abs(w))) scale = std::max(scale, std::abs(w));
  }
  const double rtol = jet::is_inexact(got.dtype()) ? std::max(tolerance(got.dtype()), operand_tol)
                                                   : tolerance(got.dtype());
  const double tol = rtol * std::max(scale, 1.0);
  for (std::size_t k = 0; k < values.size(); ++k) {
    const cdouble w = parse_value(items[k]);
    if (!close(values[k].real(), w.real(), tol) || !close(values[k].imag(), w.imag(), tol))
      return "element " + std::to_string(k) + ": " + std::to_string(values[k].real()) + "|" +
             std::to_string(values[k].imag()) + " against " + items[k];
  }
  return "";
}

// A row's results against the table's, or its error (synchronizing, for those in the data).
std::string outcome(const std::vector<std::string>& row) {
  try {
    std::vector<jet::array> results;
    for (const jet::expr& e :
         jet_test::statistics_table::call(row, jet_test::operand_source::zeros))
      results.push_back(e);
    jet::synchronize();
    const std::vector<std::string> wanted = jet_test::split(row.back(), ';');
    if (wanted.size() != results.size()) return "result count";
    for (std::size_t k = 0; k < results.size(); ++k)
      if (std::string m = mismatch(results[k], wanted[k], operand_tolerance(row)); !m.empty())
        return m;
    return row.back();
  } catch (...) {
    return jet_test::spelled_error();
  }
}

}  // namespace

TEST_CASE("statistics agree with NumPy's table", "[gpu][statistics]") {
  for (const auto& row : jet_test::read_table(JET_TEST_DATA "/statistics.tsv")) {
    std::string call;
    for (std::size_t k = 0; k + 1 < row.size(); ++k) call += row[k] + " ";
    INFO(call);
    CHECK(outcome(row) == row.back());
  }
}
