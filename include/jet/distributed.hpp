// Beyond one GPU, through NCCL: communicators, collectives on Jet arrays and expressions, and
// arrays split along axis 0 across the GPUs of one process. Everything here is asynchronous on
// each rank's current stream, like the rest of Jet. Without NCCL at build time, every function
// but available() and unavailable_reason() throws jet::distributed::unavailable.
//
//   auto comms = jet::distributed::communicator::local();       // one rank per local GPU
//   auto x = jet::distributed::sharded_array::split(points, comms);
//   jet::array total = jet::distributed::sum(x);                 // per-GPU sums, all-reduced
//
// One rank per process: rank 0 makes a unique_id, the program sends its bytes to the other
// processes (jet/distributed_mpi.hpp does it with MPI), and each process builds
// `communicator(id, size, rank)` on its current device.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "jet/axes.hpp"
#include "jet/error.hpp"
#include "jet/expr.hpp"

namespace jet::distributed {

// Raised by every function of this header when Jet was built without NCCL.
class unavailable : public error {
 public:
  using error::error;
};

// Whether Jet was built with NCCL; unavailable_reason() says why not ("" when it was).
bool available();
std::string unavailable_reason();
// The NCCL library's version, e.g. "2.28.9".
std::string nccl_version();

// The 128 bytes that name one communicator across processes.
struct unique_id {
  std::array<std::byte, 128> bytes{};
};
// A fresh id, made once by one process (ncclGetUniqueId) and sent to every rank.
unique_id make_unique_id();

enum class reduce_op { sum, prod, min, max, avg };

// One rank of an NCCL communicator: its rank, the number of ranks and the device it runs on.
// Copies share the communicator, which is destroyed with the last of them (all the ranks of
// local() together). Collectives on a communicator run on its device and on that device's
// current stream.
class communicator {
 public:
  // Rank `rank` of `size`, on the current device: every rank calls this with the same id at
  // about the same time (it returns once all have joined). Throws jet::value_error for a
  // rank outside [0, size).
  communicator(const unique_id& id, int size, int rank);
  // One rank per device of this process, rank i on devices[i] (all devices when empty), in
  // one call (ncclCommInitAll). Throws jet::value_error for a device that does not exist or
  // is named twice.
  static std::vector<communicator> local(const std::vector<int>& devices = {});

  int rank() const;
  int size() const;
  int device() const;
  // Whether every rank of the communicator is in this process (made by local()).
  bool all_local() const;

  struct state;  // the NCCL communicator (src/distributed/communicator.cpp)
  const state& get() const { return *state_; }

 private:
  explicit communicator(std::shared_ptr<state> s) : state_(std::move(s)) {}
  std::shared_ptr<state> state_;
};

// Collectives. Each evaluates its expression (fused, one kernel) into the send buffer on the
// communicator's device, then issues the NCCL call on that device's current stream; the
// result is a new C-contiguous array on that device. Every rank must make the same calls in
// the same order with the same shapes and dtypes. Calls from one thread for several ranks of
// local() must be grouped (distributed::group), or NCCL waits forever for the other ranks.
// Data movement works for every dtype; reductions need NCCL's (bool sums as logical or and
// multiplies as logical and, int16/uint16 reduce through 32 bits, complex only sums and
// averages, avg only floating and complex). jet::dtype_error otherwise.

// The elementwise reduction of `x` over all ranks, on every rank.
array all_reduce(const communicator& c, const expr& x, reduce_op op = reduce_op::sum);
// The reduction on rank `root`; other ranks get an empty array (size 0, x's dtype).
array reduce(const communicator& c, const expr& x, int root, reduce_op op = reduce_op::sum);
// Rank `root`'s `x` on every rank; elsewhere `x` gives only the shape and dtype to receive
// (jet::empty will do).
array broadcast(const communicator& c, const expr& x, int root);
// Every rank's `x` concatenated along axis 0 in rank order (a 0-d `x` gives shape (size)).
array all_gather(const communicator& c, const expr& x);
// `x` reduced over ranks, then split along axis 0 into size() equal parts: rank r gets part r.
// Throws jet::shape_error when axis 0 does not split evenly.
array reduce_scatter(const communicator& c, const expr& x, reduce_op op = reduce_op::sum);
// `x` split along axis 0 into size() equal parts, part j sent to rank j; the result holds, in
// rank order, the part each rank sent here. Throws jet::shape_error when axis 0 does not
// split evenly.
array all_to_all(const communicator& c, const expr& x);
// Point to point: send `x` to rank `peer`, which receives it with recv of the same shape and
// dtype. A send and its recv block each other unless both are issued, so pair them in a group
// when one thread drives both ranks or a rank both sends and receives.
void send(const communicator& c, const expr& x, int peer);
array recv(const communicator& c, int peer, const shape& s, dtype t);

// Runs `calls` as one NCCL group (ncclGroupStart ... ncclGroupEnd): the collectives issued in
// it go to the GPUs together when it returns, so one thread can drive every rank of local(),
// and several calls fuse into one launch. Groups nest. Use the arrays the calls return only
// after the group: their values are sent when it ends.
void group(const std::function<void()>& calls);

// An array split along axis 0 across the ranks of local(): shard r on rank r's device. The
// shards share the trailing shape and dtype; their lengths along axis 0 may differ.
class sharded_array {
 public:
  sharded_array(std::vector<communicator> comms, std::vector<array> shards);
  // `x` split as np.array_split does, shard r copied to comms[r]'s device. Throws
  // jet::value_error for communicators not all of this process, jet::shape_error for a 0-d x.
  static sharded_array split(const expr& x, std::vector<communicator> comms);

  const std::vector<communicator>& communicators() const { return comms_; }
  const std::vector<array>& shards() const { return shards_; }
  const array& shard(int rank) const { return shards_.at(static_cast<std::size_t>(rank)); }
  int ranks() const { return static_cast<int>(shards_.size()); }
  // The whole array's shape (the shards' lengths added up) and dtype.
  jet::shape shape() const;
  jet::dtype dtype() const;
  // The whole array on `device` (the current device by default): the shards concatenated.
  array gather(int device = -1) const;

 private:
  std::vector<communicator> comms_;
  std::vector<array> shards_;
};

// `f` applied to each rank's shards, on that rank's device, one kernel a shard: `f(x, y)`
// for shards x and y of `first` and `rest` (split alike). The results must keep axis 0.
//   auto z = jet::distributed::map([](const jet::array& x, const jet::array& y) {
//     return jet::sin(x) * y + 1; }, xs, ys);
template <class F, class... Rest>
sharded_array map(F f, const sharded_array& first, const Rest&... rest);

// Reductions over the whole array (`axis` must then hold axis 0): each rank reduces its shard,
// and an all-reduce of the partial results finishes, so every rank's device holds the result;
// the one returned is on rank 0's device. Reductions along other axes alone stay shard-local:
// use map.
array sum(const sharded_array& x, axes axis = {}, bool keepdims = false);
array prod(const sharded_array& x, axes axis = {}, bool keepdims = false);
array min(const sharded_array& x, axes axis = {}, bool keepdims = false);
array max(const sharded_array& x, axes axis = {}, bool keepdims = false);
array mean(const sharded_array& x, axes axis = {}, bool keepdims = false);

namespace detail {
// The shards of map's result: `make(r)` on rank r's device, for each rank.
sharded_array map_shards(const sharded_array& like, const std::function<expr(int)>& make);
void check_split_alike(const sharded_array& first, const sharded_array& other);
}  // namespace detail

template <class F, class... Rest>
sharded_array map(F f, const sharded_array& first, const Rest&... rest) {
  (detail::check_split_alike(first, rest), ...);
  return detail::map_shards(first,
                            [&](int r) { return expr(f(first.shard(r), rest.shard(r)...)); });
}

}  // namespace jet::distributed
