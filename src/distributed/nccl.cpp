// NCCL's calls, each status checked; see nccl.hpp.
#include "src/distributed/nccl.hpp"

#include <fmt/format.h>
#include <nccl.h>

#include <cstring>

namespace jet::detail::nccl {
namespace {

void check(ncclResult_t status, const char* what, int rank = -1) {
  if (status == ncclSuccess || status == ncclInProgress) return;
  const std::string who = rank < 0 ? std::string() : fmt::format(" on rank {}", rank);
  throw error(fmt::format("NCCL {} failed{}: {} ({})", what, who, ncclGetErrorString(status),
                          ncclGetLastError(nullptr)));
}

ncclDataType_t nccl_type(carrier t) {
  constexpr ncclDataType_t types[] = {ncclInt8,    ncclUint8,  ncclInt32,   ncclUint32,
                                      ncclInt64,   ncclUint64, ncclFloat16, ncclBfloat16,
                                      ncclFloat32, ncclFloat64};
  return types[static_cast<int>(t)];
}

// NCCL's set-up, groups and tear-down switch devices; the caller's current device comes back.
class keep_device {
 public:
  keep_device() { cudaGetDevice(&id_); }
  ~keep_device() { cudaSetDevice(id_); }
  keep_device(const keep_device&) = delete;
  keep_device& operator=(const keep_device&) = delete;

 private:
  int id_ = 0;
};

ncclRedOp_t nccl_op(distributed::reduce_op op) {
  constexpr ncclRedOp_t ops[] = {ncclSum, ncclProd, ncclMin, ncclMax, ncclAvg};
  return ops[static_cast<int>(op)];
}

}  // namespace

std::string missing_reason() { return {}; }

std::string version() {
  int v = 0;
  check(ncclGetVersion(&v), "ncclGetVersion");
  // NCCL's own encoding since 2.9: major * 10000 + minor * 100 + patch.
  return fmt::format("{}.{}.{}", v / 10000, v / 100 % 100, v % 100);
}

distributed::unique_id make_unique_id() {
  static_assert(sizeof(ncclUniqueId) == sizeof(distributed::unique_id::bytes));
  ncclUniqueId id;
  check(ncclGetUniqueId(&id), "ncclGetUniqueId");
  distributed::unique_id out;
  std::memcpy(out.bytes.data(), &id, sizeof id);
  return out;
}

comm init_rank(const distributed::unique_id& id, int size, int rank) {
  ncclUniqueId nccl_id;
  std::memcpy(&nccl_id, id.bytes.data(), sizeof nccl_id);
  comm c = nullptr;
  const keep_device keep;
  check(ncclCommInitRank(&c, size, nccl_id, rank), "ncclCommInitRank", rank);
  return c;
}

std::vector<comm> init_all(const std::vector<int>& devices) {
  std::vector<comm> comms(devices.size());
  const keep_device keep;
  check(ncclCommInitAll(comms.data(), static_cast<int>(devices.size()), devices.data()),
        "ncclCommInitAll");
  return comms;
}

void destroy(const std::vector<comm>& comms) noexcept {
  // Finalizing flushes each rank's queued calls; the ranks of one process finalize together.
  if (comms.empty()) return;
  const keep_device keep;
  ncclGroupStart();
  for (comm c : comms) ncclCommFinalize(c);
  ncclGroupEnd();
  for (comm c : comms) ncclCommDestroy(c);
}

void group_start() { check(ncclGroupStart(), "ncclGroupStart"); }
void group_end() {
  const keep_device keep;  // the group's launches go to each rank's device
  check(ncclGroupEnd(), "ncclGroupEnd");
}

void issue(comm c, int rank, const call& x, cudaStream_t stream) {
  const ncclDataType_t t = nccl_type(x.type);
  const ncclRedOp_t op = nccl_op(x.op);
  switch (x.what) {
    case kind::all_reduce:
      return check(ncclAllReduce(x.send, x.receive, x.count, t, op, c, stream), "ncclAllReduce",
                   rank);
    case kind::reduce:
      return check(ncclReduce(x.send, x.receive, x.count, t, op, x.peer, c, stream), "ncclReduce",
                   rank);
    case kind::broadcast:
      return check(ncclBroadcast(x.send, x.receive, x.count, t, x.peer, c, stream), "ncclBroadcast",
                   rank);
    case kind::all_gather:
      return check(ncclAllGather(x.send, x.receive, x.count, t, c, stream), "ncclAllGather", rank);
    case kind::reduce_scatter:
      return check(ncclReduceScatter(x.send, x.receive, x.count, t, op, c, stream),
                   "ncclReduceScatter", rank);
    case kind::all_to_all:
      return check(ncclAlltoAll(x.send, x.receive, x.count, t, c, stream), "ncclAlltoAll", rank);
    case kind::send:
      return check(ncclSend(x.send, x.count, t, x.peer, c, stream), "ncclSend", rank);
    case kind::recv:
      return check(ncclRecv(x.receive, x.count, t, x.peer, c, stream), "ncclRecv", rank);
  }
}

}  // namespace jet::detail::nccl
