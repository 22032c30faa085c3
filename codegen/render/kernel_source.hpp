// What the renderers hand the compiler: a kernel's name and CUDA C, and what user kernels add
// to its compile.
#pragma once

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace jet::codegen {

struct kernel_source {
  std::string name;  // the kernel's extern "C" name, or user_module_name
  std::string source;
};

// The name of a user module's source (jet::raw_module, jet::raw_kernel): no kernel has it; the
// module's kernels are found by their own names or through name expressions.
inline constexpr std::string_view user_module_name = "raw_module";

// Whether `s` is a C identifier, as every kernel's name is.
inline bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
}

// User kernels' own NVRTC options (after Jet's) and the name expressions ("scale<float>")
// whose lowered names the compile reports.
struct compile_extras {
  std::vector<std::string> options;
  std::vector<std::string> name_expressions;
};

}  // namespace jet::codegen
