// NumPy's answers for padding, editing and index arithmetic (data/editing.tsv, written by
// data/generate_editing.py) and the calls of Jet's functions its rows name. Shared by the host
// test, which runs the rows that need no device, and the GPU test, which runs them all.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/numpy_table.hpp"
#include "jet/jet.hpp"

namespace jet_test::editing {

using operands = operand_source;  // editing::operands, as the tests name it

inline jet::pad_mode pad_mode_of(const std::string& text) {
  static const std::map<std::string, jet::pad_mode> modes = {
      {"constant", jet::pad_mode::constant},
      {"edge", jet::pad_mode::edge},
      {"reflect", jet::pad_mode::reflect},
      {"symmetric", jet::pad_mode::symmetric},
      {"wrap", jet::pad_mode::wrap}};
  return modes.at(text);
}

inline jet::index_order order_of(const std::string& text) {
  return text == "C" ? jet::index_order::C : jet::index_order::F;
}

inline std::vector<jet::expr> pad(const std::vector<std::string>& f, operands how) {
  const jet::array a = array_of(f[1], how);
  const jet::pad_mode mode = pad_mode_of(f[3]);
  if (f[2].find(',') == std::string::npos) return {jet::pad(a, std::stoll(f[2]), mode)};
  std::vector<jet::pad_pair> widths;
  for (const std::string& pair : split(f[2], ';')) {
    const std::vector<std::int64_t> w = integers(pair);
    widths.emplace_back(w.at(0), w.at(1));
  }
  return {jet::pad(a, widths, mode)};
}

inline std::vector<jet::expr> delete_(const std::vector<std::string>& f, operands how) {
  const jet::array a = array_of(f[1], how);
  const std::string& obj = f[2];
  const std::optional<std::int64_t> axis = axis_of(f[3]);
  if (obj[0] == 'i') return {jet::delete_(a, std::stoll(obj.substr(2)), axis)};
  if (obj[0] == 'l') return {jet::delete_(a, integers(obj.substr(2)), axis)};
  if (obj[0] == 'm') return {jet::delete_(a, mask_of(obj), axis)};
  return {jet::delete_(a, slice_of(obj), axis)};
}

inline std::vector<jet::expr> insert(const std::vector<std::string>& f, operands how) {
  const jet::array a = array_of(f[1], how);
  const std::string& obj = f[2];
  const jet::expr values = expr_of(f[3], how);
  const std::optional<std::int64_t> axis = axis_of(f[4]);
  if (obj[0] == 'i') return {jet::insert(a, std::stoll(obj.substr(2)), values, axis)};
  if (obj[0] == 'm') return {jet::insert(a, mask_of(obj), values, axis)};
  if (obj[0] == 's') return {jet::insert(a, slice_of(obj), values, axis)};
  return {jet::insert(a, integers(obj.substr(2)), values, axis)};
}

inline std::vector<jet::expr> ravel_multi_index(const std::vector<std::string>& f, operands how) {
  const std::vector<jet::expr> coordinates = exprs_of(f[1], how);
  const jet::shape dims = parse_shape(f[2]);
  const std::string& modes = f[3];
  const jet::index_order order = order_of(f[4]);
  if (modes[0] != '[' && modes.find(',') == std::string::npos)
    return {jet::ravel_multi_index(coordinates, dims, index_mode_of(modes), order)};
  std::vector<jet::index_mode> list;
  for (const std::string& m :
       split(modes[0] == '[' ? modes.substr(1, modes.size() - 2) : modes, ','))
    list.push_back(index_mode_of(m));
  return {jet::ravel_multi_index(coordinates, dims, list, order)};
}

// Each function's call from a row's fields (the function's name first, the result last).
inline const std::map<std::string, call>& calls() {
  static const std::map<std::string, call> table = {
      {"pad", pad},
      {"delete", delete_},
      {"insert", insert},
      {"resize",
       [](const std::vector<std::string>& f, operands how) {
         return std::vector<jet::expr>{jet::resize(array_of(f[1], how), parse_shape(f[2]))};
       }},
      {"ediff1d",
       [](const std::vector<std::string>& f, operands how) {
         return std::vector<jet::expr>{
             jet::ediff1d(array_of(f[1], how), optional_of(f[2], how), optional_of(f[3], how))};
       }},
      {"rollaxis",
       [](const std::vector<std::string>& f, operands how) {
         const std::vector<std::int64_t> v = integers(f[2]);
         return std::vector<jet::expr>{jet::rollaxis(array_of(f[1], how), v.at(0), v.at(1))};
       }},
      {"unravel_index",
       [](const std::vector<std::string>& f, operands how) {
         return jet::unravel_index(expr_of(f[1], how), parse_shape(f[2]), order_of(f[3]));
       }},
      {"ravel_multi_index", ravel_multi_index},
      {"choose",
       [](const std::vector<std::string>& f, operands how) {
         return std::vector<jet::expr>{
             jet::choose(expr_of(f[1], how), exprs_of(f[2], how), index_mode_of(f[3]))};
       }},
  };
  return table;
}

// The result as the table spells it (jet_test::outcome_of).
inline std::string outcome(const std::vector<std::string>& fields, operands how) {
  return outcome_of(calls().at(fields[0]), fields, how);
}

// The table's rows for the functions (the positions' rows left out).
inline std::vector<std::vector<std::string>> function_rows() {
  std::vector<std::vector<std::string>> out;
  for (auto& row : read_table(JET_TEST_DATA "/editing.tsv"))
    if (calls().count(row.at(0)) == 1) out.push_back(row);
  return out;
}

}  // namespace jet_test::editing
