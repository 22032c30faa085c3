// What the renderers hand the compiler: a kernel's name and CUDA C, and what user kernels add
// to its compile.
#pragma once

#include <string>
#include <vector>

namespace jet::codegen {

struct kernel_source {
  std::string name;  // the kernel's extern "C" name
  std::string source;
};

// User kernels' own NVRTC options (after Jet's) and the name expressions ("scale<float>")
// whose lowered names the compile reports.
struct compile_extras {
  std::vector<std::string> options;
  std::vector<std::string> name_expressions;
};

}  // namespace jet::codegen
