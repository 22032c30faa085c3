// The one driver of the pipeline: every kernel Jet launches, its own or a user's, goes through
// run_plan's stages in order.
#pragma once

#include <string>

#include "codegen/plan/kernel_plan.hpp"
#include "src/nvrtc/compile.hpp"

namespace jet::detail {

// What a run stopped before the launch (jet::explain) keeps of its stages.
struct plan_trace {
  std::string arch;  // given: the architecture to compile for
  std::string key;
  codegen::kernel_source source;
  compiled_kernel compiled;
};

// Runs `plan`: key, look up in memory; on a miss render, compile (or take it from the disk
// cache) and load; then size the launch, pack the parameters and launch on the current stream.
// With `explaining`, the run renders and compiles with NVRTC whatever the caches hold, keeps
// what those stages made, and stops there: it needs no GPU.
void run_plan(codegen::kernel_plan& plan, plan_trace* explaining = nullptr);

}  // namespace jet::detail
