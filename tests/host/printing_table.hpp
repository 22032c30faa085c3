// The rows of tests/host/data/printing.tsv (generate_printing.py): NumPy's repr and str of
// arrays given element by element, with the print options in force. Read by the host test of
// src/print's formatter and by the GPU test of printing device arrays.
#pragma once

#include <cstdlib>
#include <string>
#include <vector>

#include "host/numpy_table.hpp"
#include "jet/jet.hpp"

namespace jet_test {

struct printing_row {
  std::string name;
  jet::dtype type;
  jet::shape full;
  jet::print_options options;
  std::vector<std::string> values;  // all elements, C order: a float64, "re/im", an integer
  std::string repr, str;
};

inline jet::print_options print_options_of(const std::string& text) {
  jet::print_options o;
  if (text == "-") return o;
  for (const std::string& pair : split(text, ';')) {
    const std::size_t eq = pair.find('=');
    const std::string key = pair.substr(0, eq), value = pair.substr(eq + 1);
    if (key == "precision") o.precision = std::stoi(value);
    if (key == "threshold") o.threshold = std::stoll(value);
    if (key == "edgeitems") o.edgeitems = std::stoi(value);
    if (key == "linewidth") o.linewidth = std::stoi(value);
    if (key == "suppress") o.suppress = value == "True";
    if (key == "nanstr") o.nanstr = value;
    if (key == "infstr") o.infstr = value;
    if (key == "floatmode") o.floatmode = value;
    if (key == "sign") o.sign = value[0];
  }
  return o;
}

// The table's text with "\n" made a newline again.
inline std::string unescaped(const std::string& text) {
  std::string out;
  for (std::size_t k = 0; k < text.size(); ++k) {
    const bool newline = text[k] == '\\' && k + 1 < text.size() && text[k + 1] == 'n';
    out += newline ? '\n' : text[k];
    k += newline ? 1 : 0;
  }
  return out;
}

inline std::vector<printing_row> printing_rows() {
  std::vector<printing_row> rows;
  for (const auto& f : read_table(std::string(JET_TEST_DATA) + "/printing.tsv")) {
    if (f.size() != 7) continue;
    printing_row r{
        f[0],           jet::dtype_from_name(f[1]), {}, print_options_of(f[3]), {}, unescaped(f[5]),
        unescaped(f[6])};
    for (const std::string& n : split(f[2], ','))
      if (!n.empty()) r.full.push_back(std::stoll(n));
    if (!f[4].empty()) r.values = split(f[4], ',');
    rows.push_back(r);
  }
  return rows;
}

// A value of the table: a float64 ("re/im" for complex: both parts).
inline double real_part(const std::string& v) { return std::strtod(v.c_str(), nullptr); }
inline double imag_part(const std::string& v) {
  return std::strtod(v.substr(v.find('/') + 1).c_str(), nullptr);
}

}  // namespace jet_test
