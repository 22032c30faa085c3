// Record files (JET_CACHE_RECORD): one JSON object per line naming a kernel a program used,
// so that `jet-cache warm` can compile the same kernels ahead of time on another machine.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>
#include <vector>

#include "codegen/render/kernel_source.hpp"
#include "src/nvrtc/compile.hpp"

namespace jet::detail {

struct recorded_kernel {
  codegen::kernel_source source;
  std::string arch;                  // the device arch it was compiled for
  std::vector<std::string> options;  // NVRTC's options then
  compile_extras extras;             // a user kernel's own options and name expressions
};

// The line append_record writes for `kernel`, newline included, or "" when a text in it is not
// UTF-8 (JSON holds Unicode text only).
std::string record_line(const recorded_kernel& kernel);
// Appends one line for `kernel` to `file` under an exclusive flock, in one write, so lines
// from many processes never interleave. Returns 0 or the errno of the failing step.
int append_record(const std::string& file, const recorded_kernel& kernel);

struct record_file {
  std::vector<recorded_kernel> kernels;
  std::vector<std::string> problems;  // "line 7: ..." for each line that could not be read
};

// Reads a record file; throws jet::cache_error when it cannot be opened.
record_file read_records(const std::string& file);
// Reads the lines of a record file from `in`, one at a time.
record_file read_records(std::istream& in);

}  // namespace jet::detail
