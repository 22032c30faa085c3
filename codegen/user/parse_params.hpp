// The parameter lists of user kernels, in CuPy's syntax: "T x, float32 y, raw T z".
#pragma once

#include <cstdint>
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

// The generated code that a parameter list goes into: a reduction's declares `a` beside its
// outputs.
enum class user_kernel_kind : std::uint8_t { elementwise, reduction };

// Parses comma-separated parameters, each "[raw] TYPE NAME", of a kernel's inputs and outputs.
// Throws jet::value_error naming the offending parameter or token: a missing or extra token,
// an unknown type, a name that is no C identifier, a name given twice, or a name the generated
// code would read otherwise (a C++ keyword; `i`, `p`, `_ind`, CUDA's threadIdx and the other
// built-in variables; names starting with `jet_`, `__` or `_` and a capital; a type
// placeholder of the list; a reduction's output `a`).
std::vector<user_param> parse_user_params(std::string_view inputs, std::string_view outputs,
                                          user_kernel_kind kind = user_kernel_kind::elementwise);
// Throws jet::value_error unless `name` may name a kernel with parameters `params`: a C
// identifier that is no C++ keyword, not `main`, and none of the generated code's names.
void check_kernel_name(std::string_view name, const std::vector<user_param>& params);

}  // namespace jet::codegen
