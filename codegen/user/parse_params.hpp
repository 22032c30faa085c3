// The parameter lists of user kernels, in CuPy's syntax: "T x, float32 y, raw T z".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jet/dtype.hpp"

namespace jet::codegen {

struct user_param {
  std::string name;
  std::optional<dtype> type;  // a dtype name ("float32"), or else
  char placeholder = 0;       // a one-letter type placeholder ("T"), resolved from the arguments
  bool raw = false;           // the whole array, indexed by the kernel, not one element
  bool output = false;
};

// Parses comma-separated parameters, each "[raw] TYPE NAME", of a kernel's inputs and outputs.
// Throws jet::value_error naming the offending parameter or token: a missing or extra token,
// an unknown type, a name that is no C identifier, a name given twice, or a reserved name
// (`i`, the element index, and names starting with `jet_`, which Jet's code uses).
std::vector<user_param> parse_user_params(std::string_view inputs, std::string_view outputs);
// Throws jet::value_error unless a kernel's name is a C identifier.
void check_kernel_name(std::string_view name);

}  // namespace jet::codegen
