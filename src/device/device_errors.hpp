// The device error channel: kernels that find an error in their data (an integer to a negative
// power, an index out of bounds) report it, and the host raises it at its next synchronization, as
// NumPy would have raised it at the operation. JET_SYNC_CHECKS=1 waits after each such kernel, to
// raise at once.
#pragma once

#include <cstdint>
#include <string>

namespace jet::detail {

// NumPy's IndexError text for an index out of bounds, which the host's checks give too.
std::string out_of_bounds_text(std::int64_t index, std::int64_t axis, std::int64_t size);

// Points codegen::device_errors at the current device's channel, making it on first use.
void bind_device_errors();
// After a launch that takes the channel: with JET_SYNC_CHECKS=1, waits and raises.
void check_after_launch();
// Throws the error a kernel reported since the last check, and clears it; call after waiting
// for the GPU.
void raise_device_errors();

}  // namespace jet::detail
