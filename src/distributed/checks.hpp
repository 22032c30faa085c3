// The calls a thread's group queues (collectives.cpp), and the checks they pass before NCCL sees
// them: NCCL waits forever when the ranks' calls do not match, so Jet compares them first.
#pragma once

#include <cuda_runtime.h>

#include <functional>
#include <vector>

#include "src/distributed/state.hpp"

namespace jet::distributed {

// One NCCL call waiting for its group to end, with the buffers it reads and writes and the
// step that runs after it (a 16-bit integer result narrowed from the 32 bits it travelled in).
struct pending {
  communicator comm;
  const char* name;
  jet::shape shape;  // of the call's x, for the checks and their messages
  jet::dtype dtype;
  jet::detail::nccl::call call;
  cudaStream_t stream;
  std::vector<array> buffers;
  std::function<void()> then;
};

const char* op_name(reduce_op op);

// The ranks of one local() clique that made calls in `calls` make the same collectives in the
// same order, and each send meets its recv; jet::value_error naming both ranks otherwise.
void check_local_ranks(const std::vector<pending>& calls);
// With JET_DISTRIBUTED_CHECK=1, the ranks of a communicator spanning processes compare their
// collectives through one small all-gather (a wait); jet::value_error naming the rank that
// differs. Without it, nothing (and a mismatch hangs in NCCL, as NCCL's own calls do).
void check_across_processes(const std::vector<pending>& calls);

}  // namespace jet::distributed
