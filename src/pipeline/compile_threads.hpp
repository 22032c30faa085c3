// The threads that compile and load kernels while the program goes on (JET_ASYNC): as many
// as JET_COMPILE_THREADS says, else one, started on first use.
//
// At exit they stop before any library loaded by then is torn down: an atexit handler,
// registered after the pool's first task and again after NVRTC's first compile (exit runs
// handlers last registered first), lets the running compile finish and its launches run; the
// tasks still queued then run at once and must fail fast (see compile_threads_stopping).
#pragma once

#include <functional>

namespace jet::detail {

// Runs `task` on a compile thread, in the order given; it must not throw. Once the program
// exits, runs it on the caller.
void compile_in_background(std::function<void()> task);

// True once the program exits: a task that runs then must not compile.
bool compile_threads_stopping();

// Registers the handler that stops the compile threads at exit (again: so that it runs
// before the teardown of libraries loaded since the last time).
void stop_compile_threads_at_exit();

}  // namespace jet::detail
