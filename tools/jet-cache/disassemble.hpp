// Machine code as text, through the CUDA toolkit's cuobjdump when it is on PATH.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace jet::cli {

// `cuobjdump -sass` of a cubin (written to a temporary file for it), or nullopt when no
// cuobjdump is on PATH. A failing cuobjdump's own output is returned, with its status.
std::optional<std::string> disassemble(const std::vector<char>& cubin);

}  // namespace jet::cli
