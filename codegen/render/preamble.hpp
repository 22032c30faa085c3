// Jet's own device helpers, written into generated kernels instead of CUDA headers, which cost
// NVRTC tens to hundreds of milliseconds each. They are rows of one table, and a kernel's source
// holds only the rows its code names (directly, or through the rows it holds): the op table's
// spellings (op_spelling.cpp) and the renderers name each helper they call.
#pragma once

#include <span>
#include <string>

namespace jet::codegen {

// One helper: the name a kernel's code uses it by (a type or a function), its code, and for a
// form that only some kernels need, a second name their code also uses (the complex overloads
// of a reduction trait: "jet_complex"). A helper uses only helpers before it in the table.
struct helper {
  const char* name;
  const char* code;
  const char* also = nullptr;
};

// The table, in order: integer, floating and conversion helpers (preamble.cpp), complex ones
// (preamble_complex.cpp), the atomic stores of combining scatters (preamble_atomic.cpp), then
// those of reductions (preamble_reduce.cpp): per-type traits, warp
// and block combining, accumulators; then those of scans (preamble_scan.cpp).
std::span<const helper> base_helpers();
std::span<const helper> complex_helpers();
std::span<const helper> scatter_helpers();
std::span<const helper> reduce_helpers();
std::span<const helper> combine_helpers();
std::span<const helper> accumulator_helpers();
std::span<const helper> scan_helpers();
// Random draws fused into kernels (preamble_random.cpp): Philox4x32-10 and a draw's values.
std::span<const helper> random_helpers();

// The code of the helpers `code` names, directly or through each other, in table order
// (preamble_select.cpp). Comments in either do not count.
std::string helpers_named_by(const std::string& code);

// The combining helpers, all of them: user reduction kernels, whose code Jet does not scan.
extern const std::string preamble_reduce_combine;

}  // namespace jet::codegen
