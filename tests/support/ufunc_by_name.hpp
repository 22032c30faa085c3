// Jet's ufuncs by their NumPy names, from the list that makes them (detail/op_list.hpp), for the
// tests that read NumPy's names from their data.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "jet/jet.hpp"

namespace jet_test {

using operands = std::vector<jet::expr>;

// The ufunc NumPy calls `name`, applied to as many operands as it takes.
inline const std::map<std::string, std::function<jet::expr(const operands&)>>& ufuncs() {
#define JET_TEST_CALL_1(id) jet::id(a[0])
#define JET_TEST_CALL_2(id) jet::id(a[0], a[1])
#define JET_TEST_CALL_3(id) jet::id(a[0], a[1], a[2])
#define JET_TEST_ROW(id, numpy_name, arity, loops, result) \
  {numpy_name, [](const operands& a) { return JET_TEST_CALL_##arity(id); }},
  static const std::map<std::string, std::function<jet::expr(const operands&)>> table = {
      JET_ELEMENTWISE_OPS(JET_TEST_ROW)};
#undef JET_TEST_ROW
#undef JET_TEST_CALL_1
#undef JET_TEST_CALL_2
#undef JET_TEST_CALL_3
  return table;
}

}  // namespace jet_test
