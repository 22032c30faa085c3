// NumPy's answers for advanced indexing, joining and splitting, and rearranging and building
// arrays (data/indexing.tsv, written by data/generate_indexing.py) and the calls of Jet's
// functions its rows name. With operands::zeros, a GPU test can run the rows whose results need
// the device.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "host/numpy_table.hpp"
#include "jet/jet.hpp"

namespace jet_test::indexing_table {

using fields = std::vector<std::string>;
using results = std::vector<jet::expr>;

inline results of(const jet::expr& e) { return {e}; }
inline results of(const std::vector<jet::array>& arrays) { return {arrays.begin(), arrays.end()}; }

// An item of an index: "...", newaxis, i:INTEGER, s:START:STOP:STEP, or an array.
inline jet::index_arg item_of(const std::string& text, operand_source how) {
  if (text == "...") return jet::ellipsis;
  if (text == "newaxis") return jet::newaxis;
  if (text[0] == 'i') return std::stoll(text.substr(2));
  if (text[0] == 's') return slice_of(text);
  return array_of(text, how);
}

inline results index(const fields& f, operand_source how) {
  std::vector<jet::index_arg> items;
  for (const std::string& item : split(f[2], ';')) items.push_back(item_of(item, how));
  return {jet::advanced_index(array_of(f[1], how), items)};
}

inline results concatenate(const fields& f, operand_source how) {
  const std::optional<jet::dtype> t =
      f[3] == "-" ? std::nullopt : std::optional(jet::dtype_from_name(f[3]));
  return {jet::concatenate(exprs_of(f[1], how), axis_of(f[2]), t)};
}

inline results stack(const fields& f, operand_source how) {
  return {jet::stack(exprs_of(f[1], how), std::stoll(f[2]))};
}

// A function of one array and the row's other fields.
template <class F>
call of_array(F function) {
  return [function](const fields& f, operand_source how) {
    return of(function(array_of(f[1], how), f));
  };
}

// A function of one array, OBJ (i:INTEGER or l:INTEGER,INTEGER,...) and the row's other fields.
template <class F>
call of_array_obj(F function) {
  return [function](const fields& f, operand_source how) {
    const jet::array a = array_of(f[1], how);
    const std::string rest = f[2].substr(2);
    return of(f[2][0] == 'i' ? function(a, std::stoll(rest), f) : function(a, integers(rest), f));
  };
}

// A function of the parts alone.
template <class F>
call of_parts(F function) {
  return
      [function](const fields& f, operand_source how) { return of(function(exprs_of(f[1], how))); };
}

inline const std::map<std::string, call>& calls() {
  using jet::array;
  using jet::parts;
  static const std::map<std::string, call> table = {
      {"index", index},
      {"concatenate", concatenate},
      {"stack", stack},
      {"vstack", of_parts([](const parts& p) { return jet::vstack(p); })},
      {"hstack", of_parts([](const parts& p) { return jet::hstack(p); })},
      {"dstack", of_parts([](const parts& p) { return jet::dstack(p); })},
      {"column_stack", of_parts([](const parts& p) { return jet::column_stack(p); })},
      {"append",
       [](const fields& f, operand_source how) {
         return of(jet::append(expr_of(f[1], how), expr_of(f[2], how), axis_of(f[3])));
       }},
      {"split", of_array_obj([](const array& a, const auto& obj, const fields& f) {
         return jet::split(a, obj, std::stoll(f[3]));
       })},
      {"array_split", of_array_obj([](const array& a, const auto& obj, const fields& f) {
         return jet::array_split(a, obj, std::stoll(f[3]));
       })},
      {"hsplit", of_array_obj([](const array& a, const auto& obj, const fields&) {
         return jet::hsplit(a, obj);
       })},
      {"vsplit", of_array_obj([](const array& a, const auto& obj, const fields&) {
         return jet::vsplit(a, obj);
       })},
      {"dsplit", of_array_obj([](const array& a, const auto& obj, const fields&) {
         return jet::dsplit(a, obj);
       })},
      {"atleast_1d", of_array([](const array& a, const fields&) { return jet::atleast_1d(a); })},
      {"atleast_2d", of_array([](const array& a, const fields&) { return jet::atleast_2d(a); })},
      {"atleast_3d", of_array([](const array& a, const fields&) { return jet::atleast_3d(a); })},
      {"flip",
       of_array([](const array& a, const fields& f) { return jet::flip(a, axis_of(f[2])); })},
      {"fliplr", of_array([](const array& a, const fields&) { return jet::fliplr(a); })},
      {"flipud", of_array([](const array& a, const fields&) { return jet::flipud(a); })},
      {"rot90", of_array([](const array& a, const fields& f) {
         const std::vector<std::int64_t> axes = integers(f[3]);
         return jet::rot90(a, std::stoll(f[2]), axes.at(0), axes.at(1));
       })},
      {"moveaxis", of_array([](const array& a, const fields& f) {
         const std::vector<std::int64_t> axes = integers(f[2]);
         return jet::moveaxis(a, axes.at(0), axes.at(1));
       })},
      {"roll", of_array([](const array& a, const fields& f) {
         return jet::roll(a, std::stoll(f[2]), axis_of(f[3]));
       })},
      {"tile",
       of_array([](const array& a, const fields& f) { return jet::tile(a, integers(f[2])); })},
      {"repeat", of_array_obj([](const array& a, const auto& obj, const fields& f) {
         return jet::repeat(a, obj, axis_of(f[3]));
       })},
      {"diff", of_array([](const array& a, const fields& f) {
         return jet::diff(a, std::stoi(f[2]), std::stoll(f[3]));
       })},
      {"diag",
       of_array([](const array& a, const fields& f) { return jet::diag(a, std::stoll(f[2])); })},
      {"meshgrid",
       [](const fields& f, operand_source how) {
         const jet::mesh_indexing indexing =
             f[2] == "xy" ? jet::mesh_indexing::xy : jet::mesh_indexing::ij;
         return of(jet::meshgrid(exprs_of(f[1], how), indexing, f[3] == "sparse"));
       }},
      {"ix_", of_parts([](const parts& p) { return jet::ix_(p); })},
      {"broadcast_arrays", of_parts([](const parts& p) { return jet::broadcast_arrays(p); })},
      {"take",
       [](const fields& f, operand_source how) {
         return of(jet::take(array_of(f[1], how), array_of(f[2], how), axis_of(f[3]),
                             index_mode_of(f[4])));
       }},
      {"take_along_axis",
       [](const fields& f, operand_source how) {
         return of(jet::take_along_axis(array_of(f[1], how), array_of(f[2], how), axis_of(f[3])));
       }},
  };
  return table;
}

// The result as the table spells it (jet_test::outcome_of).
inline std::string outcome(const fields& row, operand_source how) {
  return outcome_of(calls().at(row[0]), row, how);
}

}  // namespace jet_test::indexing_table
