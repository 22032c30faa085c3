// The NVRTC stage of a kernel's life: source (codegen) -> compiled (here) -> loaded (device).
// Compiling needs no GPU, so the CLI and host tests use this stage alone.
#pragma once

#include <string>
#include <vector>

#include "codegen/render/kernel_source.hpp"

namespace jet::detail {

struct compiled_kernel {
  std::string name;         // the kernel's (extern "C") name
  std::string arch;         // "sm_90" for a cubin, "compute_90" for PTX
  std::vector<char> image;  // cubin, or PTX text when the device is newer than NVRTC
  std::string log;
  double milliseconds = 0;
  std::vector<std::string> lowered_names;  // NVRTC's names for compile_extras::name_expressions
};

using codegen::compile_extras;

// Every option NVRTC takes for `source` on `arch` ("sm_90"), which the disk cache's key covers:
// the target, the language, the CUDA toolkit's include folders where the source includes a
// header (the folder found at configure time, or $JET_CUDA_INCLUDE_DIR, with its cccl/ folder
// when present), then the kernel's own extras.
std::vector<std::string> compile_options(const codegen::kernel_source& source,
                                         const std::string& arch,
                                         const compile_extras& extras = {});
// The architectures this NVRTC builds machine code for, as numbers (90 for sm_90), oldest first.
const std::vector<int>& supported_archs();
// The file name NVRTC's log gives the source of kernel `name`: "name.cu".
std::string program_file_name(const std::string& name);
// The target NVRTC builds for a device arch: the arch itself when NVRTC knows it, else PTX
// for the newest one it knows (the driver finishes it).
std::string compile_target(const std::string& arch);
// Compiles with NVRTC; throws jet::compile_error with the log and the numbered source.
compiled_kernel compile(const codegen::kernel_source& source, const std::string& arch,
                        const compile_extras& extras = {});
// NVRTC's version as "13.0".
std::string nvrtc_version();

}  // namespace jet::detail
