// The one place that calls NCCL (nccl.cpp), or says that Jet was built without it
// (nccl_missing.cpp): communicators made and destroyed, groups, and one call per collective.
// Every failure throws a jet::error naming the call, the rank and NCCL's own message.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <vector>

#include "jet/distributed.hpp"

struct ncclComm;

namespace jet::detail::nccl {

using comm = ncclComm*;

std::string missing_reason();  // "" when built with NCCL
std::string version();
distributed::unique_id make_unique_id();
comm init_rank(const distributed::unique_id& id, int size, int rank);
std::vector<comm> init_all(const std::vector<int>& devices);
// Finalizes and destroys `comms` together (the ranks of one init_all, or one); never throws.
void destroy(const std::vector<comm>& comms) noexcept;

void group_start();
void group_end();

// The collectives. A carrier is the NCCL element type a buffer travels as, chosen by
// collectives.cpp from Jet's dtype (bytes for plain data movement).
enum class carrier {
  int8,
  uint8,
  int32,
  uint32,
  int64,
  uint64,
  float16,
  bfloat16,
  float32,
  float64
};
enum class kind {
  all_reduce,
  reduce,
  broadcast,
  all_gather,
  reduce_scatter,
  all_to_all,
  send,
  recv
};
struct call {
  kind what;
  const void* send = nullptr;
  void* receive = nullptr;
  std::size_t count = 0;  // elements each rank sends (all_gather, all_to_all: per part)
  carrier type = carrier::uint8;
  distributed::reduce_op op = distributed::reduce_op::sum;
  int peer = 0;  // the root of reduce and broadcast; the other rank of send and recv
};
void issue(comm c, int rank, const call& what, cudaStream_t stream);

}  // namespace jet::detail::nccl
