// What a jet::distributed::communicator holds: its NCCL communicator, where it runs, and the
// clique it was made with (the ranks of one local() call, or this rank alone), which destroys
// the NCCL communicators together once no communicator of it is left.
#pragma once

#include <memory>
#include <vector>

#include "jet/distributed.hpp"
#include "src/distributed/nccl.hpp"

namespace jet::distributed {

struct clique {
  std::vector<jet::detail::nccl::comm> comms;
  bool all_local = false;  // every rank is in this process (local())
  clique() = default;
  clique(const clique&) = delete;
  clique& operator=(const clique&) = delete;
  ~clique() { jet::detail::nccl::destroy(comms); }
};

struct communicator::state {
  std::shared_ptr<distributed::clique> clique;
  jet::detail::nccl::comm comm = nullptr;
  int rank = 0;
  int size = 1;
  int device = 0;
};

}  // namespace jet::distributed
