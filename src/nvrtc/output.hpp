// What a compile produced, read back for a caller that must not trust the source: the part of
// NVRTC's log that quotes the source itself, and the kernels an image defines.
#pragma once

#include <cstddef>
#include <string>

#include "src/nvrtc/compile.hpp"

namespace jet::detail {

// NVRTC's log of compiling kernel `name` with what it quotes from other files withheld. Each
// diagnostic NVRTC places in an included file keeps its file, line and kind but loses its
// message, quoted line and notes, so that a source that includes "/proc/self/environ" cannot
// print it; those in the source itself (and in NVRTC's own name-expression map) stay whole.
// At most `max_lines` lines: a longer log ends with one saying how many were cut.
std::string log_of_own_source(const std::string& log, const std::string& name,
                              std::size_t max_lines);

// Whether `compiled`'s image (a cubin, or PTX) defines a kernel named `name`.
bool defines_kernel(const compiled_kernel& compiled, const std::string& name);

}  // namespace jet::detail
