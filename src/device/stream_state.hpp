// The calling thread's current stream, for Jet's runtime.
#pragma once

#include <cuda_runtime.h>

namespace jet::detail {

cudaStream_t current_stream();

// Frees device memory made on `stream` in that stream's order; on the legacy default stream
// once `stream` (a jet::stream) is destroyed, whose work had completed by then. Errors are
// dropped: buffers free from destructors, and a failure here is sticky anyway.
void free_in_order(void* data, cudaStream_t stream);

}  // namespace jet::detail
