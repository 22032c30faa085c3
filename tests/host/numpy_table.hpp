// Reading the tables of NumPy's answers in tests/host/data (tab-separated, shapes as NumPy
// prints them), shared by the host tests that check Jet's rules against them: their fields
// (shapes, operands, axes, slices) and each row's outcome through Jet, as the tables spell it.
#pragma once

#include <cstdint>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "jet/jet.hpp"

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

// How a row's operands are made: placeholders (no device), or arrays of zeros (on a GPU, where
// the functions that copy positions to the device or join arrays may run).
enum class operand_source { placeholders, zeros };

inline std::vector<std::string> split(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, separator);) out.push_back(item);
  if (!text.empty() && text.back() == separator) out.emplace_back();
  return out;
}

inline std::vector<std::int64_t> integers(const std::string& text) {
  std::vector<std::int64_t> out;
  for (const std::string& item : split(text, ','))
    if (!item.empty()) out.push_back(std::stoll(item));
  return out;
}

// "m:1,0,1" -> a mask of those truths (an OBJ of numpy.delete or numpy.insert).
inline std::vector<bool> mask_of(const std::string& obj) {
  std::vector<bool> out;
  for (std::int64_t v : integers(obj.substr(2))) out.push_back(v != 0);
  return out;
}

// "(3,4):float32" -> an array of that shape and dtype.
inline jet::array array_of(const std::string& text, operand_source how) {
  const std::size_t colon = text.find(':');
  const jet::shape s = parse_shape(text.substr(0, colon));
  const jet::dtype t = jet::dtype_from_name(text.substr(colon + 1));
  return how == operand_source::zeros ? jet::zeros(s, t) : jet::placeholder(s, t);
}

// An array, or a Python int or float as a weak scalar.
inline jet::expr expr_of(const std::string& text, operand_source how) {
  if (text.find(':') != std::string::npos) return array_of(text, how);
  if (text.find('.') != std::string::npos) return jet::expr(std::stod(text));
  return jet::expr(std::stoll(text));
}

// ';'-separated operands; an empty field is none.
inline std::vector<jet::expr> exprs_of(const std::string& text, operand_source how) {
  std::vector<jet::expr> out;
  for (const std::string& item : split(text, ';')) out.push_back(expr_of(item, how));
  return out;
}

inline std::optional<jet::expr> optional_of(const std::string& text, operand_source how) {
  if (text == "-") return std::nullopt;
  return expr_of(text, how);
}

inline std::optional<std::int64_t> axis_of(const std::string& text) {
  if (text == "none") return std::nullopt;
  return std::stoll(text);
}

inline jet::slice_bound bound_of(const std::string& text) {
  if (text.empty()) return jet::none;
  return std::stoll(text);
}

// "s:START:STOP:STEP" (empty for None) -> the slice.
inline jet::slice slice_of(const std::string& text) {
  const std::vector<std::string> p = split(text.substr(2), ':');
  return jet::slice(bound_of(p.at(0)), bound_of(p.at(1)),
                    p.size() > 2 && !p[2].empty() ? std::stoll(p[2]) : 1);
}

inline jet::index_mode index_mode_of(const std::string& text) {
  static const std::map<std::string, jet::index_mode> modes = {{"raise", jet::index_mode::raise},
                                                               {"wrap", jet::index_mode::wrap},
                                                               {"clip", jet::index_mode::clip}};
  return modes.at(text);
}

// A function's call from a row's fields (the function's name first, the result last).
using call = std::function<std::vector<jet::expr>(const std::vector<std::string>&, operand_source)>;

inline bool is_error(const std::string& result) { return result.rfind("error: ", 0) == 0; }

// The result of `f` on a row as the tables spell it: SHAPE:DTYPE for each result
// (';'-separated; "-" for none), or the error.
// The error being handled, as the tables spell it ("error: KIND: MESSAGE").
inline std::string spelled_error() {
  try {
    throw;
  } catch (const jet::index_error& e) {
    return std::string("error: index: ") + e.what();
  } catch (const jet::dtype_error& e) {
    return std::string("error: dtype: ") + e.what();
  } catch (const jet::value_error& e) {
    return std::string("error: value: ") + e.what();
  } catch (const jet::shape_error& e) {
    return std::string("error: value: ") + e.what();
  } catch (const std::exception& e) {
    return std::string("error: other: ") + e.what();
  }
}

inline std::string outcome_of(const call& f, const std::vector<std::string>& fields,
                              operand_source how) {
  try {
    std::string out;
    for (const jet::expr& e : f(fields, how))
      out += (out.empty() ? "" : ";") + jet::to_string(e.shape()) + ":" +
             std::string(jet::name(e.dtype()));
    return out.empty() ? "-" : out;
  } catch (...) {
    return spelled_error();
  }
}

}  // namespace jet_test
