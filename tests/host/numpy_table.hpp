// Reading the tables of NumPy's answers in tests/host/data (tab-separated, shapes as NumPy
// prints them), shared by the host tests that check Jet's rules against them.
#pragma once

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "jet/shape.hpp"

namespace jet_test {

// "(2,3,4)" -> {2, 3, 4}; "(3,)" -> {3}; "()" -> {}.
inline jet::shape parse_shape(const std::string& text) {
  jet::shape s;
  std::stringstream in(text.substr(1, text.size() - 2));
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) s.push_back(std::stoll(item));
  return s;
}

// The rows of a tab-separated table, each split into its fields; empty when it cannot be read.
inline std::vector<std::vector<std::string>> read_table(const std::string& path) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> fields;
    std::stringstream split(line);
    for (std::string field; std::getline(split, field, '\t');) fields.push_back(field);
    rows.push_back(fields);
  }
  return rows;
}

}  // namespace jet_test
