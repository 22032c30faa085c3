// The device error channel: kernels that find an error in their data (an integer to a negative
// power) report it, and the host raises it at its next synchronization, as NumPy would have
// raised it at the operation. JET_SYNC_CHECKS=1 waits after each such kernel, to raise at once.
#pragma once

namespace jet::detail {

// Points codegen::device_errors at the current device's channel, making it on first use.
void bind_device_errors();
// After a launch that takes the channel: with JET_SYNC_CHECKS=1, waits and raises.
void check_after_launch();
// Throws the error a kernel reported since the last check, and clears it; call after waiting
// for the GPU.
void raise_device_errors();

}  // namespace jet::detail
