// The calling thread's current stream, for Jet's runtime.
#pragma once

#include <cuda_runtime.h>

namespace jet::detail {

cudaStream_t current_stream();

}  // namespace jet::detail
