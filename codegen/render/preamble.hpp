// Jet's own device helpers, prepended to generated kernels instead of CUDA headers, which
// cost NVRTC tens to hundreds of milliseconds each.
#pragma once

namespace jet::codegen {

// Storage conversions, vector type, integer and floating helpers: every kernel.
extern const char* const preamble_base;
// Complex arithmetic and functions: kernels that compute in a complex type.
extern const char* const preamble_complex;
// Reduction helpers and accumulators (preamble_reduce.cpp); the complex part after
// preamble_complex, the accumulators last.
extern const char* const preamble_reduce;
extern const char* const preamble_reduce_complex;
extern const char* const preamble_accumulators;
// Warp and block combining of partial states: Jet's reductions and user reduction kernels.
extern const char* const preamble_reduce_combine;

}  // namespace jet::codegen
