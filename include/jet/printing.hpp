// Printing arrays as NumPy prints them: array_repr (repr(a)), array_str (str(a), what
// `std::cout << a` writes) and array2string, with NumPy's print options. Printing evaluates an
// expression and copies to the host only the elements it shows (a summarized array's edges).
// `#include "jet/fmt.hpp"` for fmt::format("{}", a).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>

#include "jet/array.hpp"
#include "jet/expr.hpp"

namespace jet {

// numpy.set_printoptions's options (NumPy 2's defaults), for the calling thread as NumPy's are
// for a context.
struct print_options {
  int precision = 8;              // digits after the point (floatmode "unique" ignores it)
  std::int64_t threshold = 1000;  // more elements than this are summarized with "..."
  int edgeitems = 3;              // elements shown at each end of a summarized axis
  int linewidth = 75;             // characters a line holds
  bool suppress = false;          // no scientific notation for small numbers: they print as 0
  std::string nanstr = "nan", infstr = "inf";
  // "fixed": always `precision` digits; "unique": as few as tell each value apart;
  // "maxprec": that, at most `precision`; "maxprec_equal": that, as many for every element.
  std::string floatmode = "maxprec";
  char sign = '-';  // '-': only negatives, '+': every value, ' ': a space for positives
};

// The calling thread's options.
print_options get_printoptions();
// Sets the calling thread's options; throws jet::value_error naming a bad floatmode, sign,
// precision, threshold, edgeitems or linewidth.
void set_printoptions(const print_options& options);

// Sets options for its lifetime, as `with numpy.printoptions(...)`.
class printoptions {
 public:
  explicit printoptions(const print_options& options);
  ~printoptions();
  printoptions(const printoptions&) = delete;
  printoptions& operator=(const printoptions&) = delete;

 private:
  print_options saved_;
};

// repr(a): "array([1., 2.], dtype=float32)".
std::string array_repr(const expr& a);
// str(a): "[1. 2.]"; a 0-d array's element as NumPy's scalar str.
std::string array_str(const expr& a);
// numpy.array2string(a, separator=, prefix=): the elements without "array(", continued lines
// indented by prefix's length.
std::string array2string(const expr& a, const std::string& separator = " ",
                         const std::string& prefix = "");

// Writes array_str(a).
std::ostream& operator<<(std::ostream& out, const array& a);
std::ostream& operator<<(std::ostream& out, const expr& a);

}  // namespace jet
