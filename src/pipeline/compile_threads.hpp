// The threads that compile and load kernels while the program goes on (JET_ASYNC): as many
// as JET_COMPILE_THREADS says, else one, started on first use.
#pragma once

#include <functional>

namespace jet::detail {

// Runs `task` on a compile thread, in the order given; it must not throw.
void compile_in_background(std::function<void()> task);

}  // namespace jet::detail
