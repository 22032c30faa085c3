// What printing shows, on the host: the elements NumPy's array2string formats (all of them, or a
// summarized array's edges) and how it formats and lays them out. Host code only: tests check
// it against NumPy's own output (tests/host/data/printing.tsv) without a GPU.
#pragma once

#include <string>
#include <vector>

#include "jet/dtype.hpp"
#include "jet/printing.hpp"
#include "jet/shape.hpp"

namespace jet::detail {

// The elements shown, in C order, of shape `dims` (a summarized axis keeps edgeitems at each
// end): floating values in `real` (and complex ones' imaginary parts in `imag`), exact as
// doubles; integers and bools (0 or 1) as their decimal text in `integers`.
struct shown_elements {
  dtype type = dtype::float64;
  shape dims;
  std::vector<double> real, imag;
  std::vector<std::string> integers;
};

// Each element formatted as NumPy's array2string formats it, all of one width.
std::vector<std::string> format_elements(const shown_elements& e, const print_options& o);
// A 0-d array's element as NumPy's scalar str: 1.0, 1e+20, (1.5-2j), True.
std::string scalar_str(const shown_elements& e);

// NumPy's array2string of an array of shape `full`, non-empty, whose shown elements are `e`.
std::string elements_text(const shown_elements& e, const shape& full, const print_options& o,
                          const std::string& separator, const std::string& prefix,
                          int suffix_length);
// A shape as Python writes a tuple: (), (3,), (0, 3).
std::string python_tuple(const shape& s);
// repr and str of such an array (`e` empty where `full` has no elements).
std::string repr_text(const shown_elements& e, const shape& full, const print_options& o);
std::string str_text(const shown_elements& e, const shape& full, const print_options& o);

}  // namespace jet::detail
