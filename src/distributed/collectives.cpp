// Collectives on Jet arrays: each call evaluates its send buffer and allocates its result on
// the rank's device, then waits in this thread's group (one call is a group of one). When the
// outermost group ends, the calls of each clique of local ranks are checked against each other
// (NCCL would wait forever on a mismatch), then issued as one NCCL group, then each call's
// last step runs (a 16-bit integer result narrowed from the 32 bits it was reduced in).
#include <fmt/format.h>

#include <map>

#include "jet/device.hpp"
#include "jet/manipulation.hpp"
#include "jet/stream.hpp"
#include "src/distributed/checks.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet::distributed {
namespace {

namespace nccl = jet::detail::nccl;

thread_local int depth = 0;
thread_local std::vector<pending> queued;

// Runs `work` on `device` with `stream` current.
void on_stream(int device, cudaStream_t stream, const std::function<void()>& work) {
  jet::device_guard on(device);
  if (stream == jet::current_stream()) return work();
  const jet::stream s = external_stream(stream);
  const stream_guard guard(s);
  work();
}

void flush() {
  std::vector<pending> calls = std::move(queued);
  queued.clear();
  check_local_ranks(calls);
  check_across_processes(calls);
  nccl::group_start();
  try {
    for (const pending& p : calls) {
      const communicator::state& s = p.comm.get();
      const jet::device_guard on(s.device);
      nccl::issue(s.comm, s.rank, p.call, p.stream);
    }
  } catch (...) {
    nccl::group_end();
    throw;
  }
  nccl::group_end();
  for (const pending& p : calls)
    if (p.then) on_stream(p.comm.device(), p.stream, p.then);
}

// Queues a call made on the rank's device (the caller's device_guard) on its current stream.
void enqueue(const communicator& c, const char* name, const expr& x, const nccl::call& call,
             std::vector<array> buffers, std::function<void()> then = {}) {
  queued.push_back(pending{c, name, x.shape(), x.dtype(), call, jet::current_stream(),
                           std::move(buffers), std::move(then)});
  if (depth == 0) flush();
}

void check_rank(const communicator& c, const char* name, const char* role, int rank) {
  if (rank < 0 || rank >= c.size())
    throw value_error(fmt::format("{}: {} {} is not a rank of a communicator of {} (ranks 0 to {})",
                                  name, role, rank, c.size(), c.size() - 1));
}

// `x` evaluated on the rank's device as one C-contiguous array.
array send_buffer(const communicator& c, const char* name, const expr& x) {
  const array a = jet::detail::as_array(x);
  if (a.device() != c.device())
    throw value_error(fmt::format("{}: the array is on device {}, rank {} runs on device {}", name,
                                  a.device(), c.rank(), c.device()));
  return a.is_c_contiguous() ? a : ascontiguousarray(a);
}

// How a reduction travels: what is sent, as which NCCL type, how many of those an element
// is, and the NCCL operation.
struct reduction {
  expr send;
  nccl::carrier type;
  std::size_t per_element = 1;
  reduce_op op;
};

reduction plan_reduction(const char* name, const expr& x, reduce_op op) {
  const dtype t = x.dtype();
  const dtype_kind k = kind(t);
  const auto refuse = [&](const char* why) {
    throw dtype_error(
        fmt::format("{}: {} of {} is not supported: {}", name, op_name(op), jet::name(t), why));
  };
  if (op == reduce_op::avg && k != dtype_kind::floating && k != dtype_kind::complex)
    refuse("avg needs a floating or complex dtype (divide the sum instead)");
  if (k == dtype_kind::complex && op != reduce_op::sum && op != reduce_op::avg)
    refuse("complex values only sum and average");
  // The NCCL type of each dtype in jet::dtype's order: 16-bit integers travel in 32 bits,
  // complex numbers as pairs of their parts, bools as bytes.
  using enum nccl::carrier;
  constexpr nccl::carrier carriers[dtype_count] = {uint8,    int8,    int32,   int32,   int64,
                                                   uint8,    uint32,  uint32,  uint64,  float16,
                                                   bfloat16, float32, float64, float32, float64};
  const nccl::carrier type = carriers[static_cast<int>(t)];
  const expr send = itemsize(t) == 2 && k != dtype_kind::floating
                        ? x.astype(k == dtype_kind::signed_int ? jet::int32 : jet::uint32)
                        : x;
  // NumPy's + and * of bools are logical or and and.
  const reduce_op nccl_op = t != dtype::bool_       ? op
                            : op == reduce_op::sum  ? reduce_op::max
                            : op == reduce_op::prod ? reduce_op::min
                                                    : op;
  return {send, type, k == dtype_kind::complex ? std::size_t{2} : std::size_t{1}, nccl_op};
}

// A reduction's result of `s` and x's dtype, with the buffer NCCL writes: the result itself,
// or a 32-bit one that the call's last step narrows into it.
struct reduced {
  array result;
  array written;
  std::function<void()> narrow;
};

reduced reduction_result(const expr& x, const array& sent, const shape& s) {
  reduced r{empty(s, x.dtype()), array(), {}};
  r.written = r.result;
  if (sent.dtype() != x.dtype()) {
    r.written = empty(s, sent.dtype());
    r.narrow = [result = r.result, wide = r.written] { copyto(result, wide); };
  }
  return r;
}

std::size_t bytes(const array& a) { return static_cast<std::size_t>(a.nbytes()); }

// The leading axis of `x` cut into the communicator's size: the length of a part.
std::int64_t part_length(const communicator& c, const char* name, const expr& x) {
  if (x.ndim() == 0 || x.shape()[0] % c.size() != 0)
    throw shape_error(fmt::format(
        "{}: an array of shape {} does not split along axis 0 into {} equal parts (one a rank)",
        name, to_string(x.shape()), c.size()));
  return x.shape()[0] / c.size();
}

shape with_leading(const shape& s, std::int64_t length) {
  shape out = s;
  out[0] = length;
  return out;
}

}  // namespace

void group(const std::function<void()>& calls) {
  ++depth;
  try {
    calls();
  } catch (...) {
    if (--depth == 0) queued.clear();  // nothing of a failed group is issued
    throw;
  }
  if (--depth == 0) flush();
}

array all_reduce(const communicator& c, const expr& x, reduce_op op) {
  const jet::device_guard on(c.device());
  const reduction plan = plan_reduction("all_reduce", x, op);
  const array send = send_buffer(c, "all_reduce", plan.send);
  const reduced out = reduction_result(x, send, x.shape());
  enqueue(c, "all_reduce", x,
          {nccl::kind::all_reduce, send.data(), out.written.data(),
           static_cast<std::size_t>(send.size()) * plan.per_element, plan.type, plan.op},
          {send, out.written}, out.narrow);
  return out.result;
}

array reduce(const communicator& c, const expr& x, int root, reduce_op op) {
  check_rank(c, "reduce", "root", root);
  const jet::device_guard on(c.device());
  const reduction plan = plan_reduction("reduce", x, op);
  const array send = send_buffer(c, "reduce", plan.send);
  const bool here = c.rank() == root;
  const reduced out = reduction_result(x, send, here ? x.shape() : shape{0});
  enqueue(c, "reduce", x,
          {nccl::kind::reduce, send.data(), here ? out.written.data() : nullptr,
           static_cast<std::size_t>(send.size()) * plan.per_element, plan.type, plan.op, root},
          {send, out.written}, out.narrow);
  return out.result;
}

array broadcast(const communicator& c, const expr& x, int root) {
  check_rank(c, "broadcast", "root", root);
  const jet::device_guard on(c.device());
  const array send = c.rank() == root ? send_buffer(c, "broadcast", x) : array();
  const array out = empty(x.shape(), x.dtype());
  enqueue(c, "broadcast", x,
          {nccl::kind::broadcast, send.data(), out.data(), bytes(out), nccl::carrier::uint8,
           reduce_op::sum, root},
          {send, out});
  return out;
}

array all_gather(const communicator& c, const expr& x) {
  const jet::device_guard on(c.device());
  const array send = send_buffer(c, "all_gather", x);
  const array out =
      empty(x.ndim() == 0 ? shape{c.size()} : with_leading(x.shape(), x.shape()[0] * c.size()),
            x.dtype());
  enqueue(c, "all_gather", x, {nccl::kind::all_gather, send.data(), out.data(), bytes(send)},
          {send, out});
  return out;
}

array reduce_scatter(const communicator& c, const expr& x, reduce_op op) {
  const std::int64_t length = part_length(c, "reduce_scatter", x);
  const jet::device_guard on(c.device());
  const reduction plan = plan_reduction("reduce_scatter", x, op);
  const array send = send_buffer(c, "reduce_scatter", plan.send);
  const reduced out = reduction_result(x, send, with_leading(x.shape(), length));
  enqueue(c, "reduce_scatter", x,
          {nccl::kind::reduce_scatter, send.data(), out.written.data(),
           static_cast<std::size_t>(out.written.size()) * plan.per_element, plan.type, plan.op},
          {send, out.written}, out.narrow);
  return out.result;
}

array all_to_all(const communicator& c, const expr& x) {
  part_length(c, "all_to_all", x);
  const jet::device_guard on(c.device());
  const array send = send_buffer(c, "all_to_all", x);
  const array out = empty(x.shape(), x.dtype());
  enqueue(c, "all_to_all", x,
          {nccl::kind::all_to_all, send.data(), out.data(), bytes(send) / c.size()}, {send, out});
  return out;
}

void send(const communicator& c, const expr& x, int peer) {
  check_rank(c, "send", "peer", peer);
  const jet::device_guard on(c.device());
  const array buffer = send_buffer(c, "send", x);
  enqueue(c, "send", x,
          {nccl::kind::send, buffer.data(), nullptr, bytes(buffer), nccl::carrier::uint8,
           reduce_op::sum, peer},
          {buffer});
}

array recv(const communicator& c, int peer, const shape& s, dtype t) {
  check_rank(c, "recv", "peer", peer);
  const jet::device_guard on(c.device());
  const array out = empty(s, t);
  enqueue(c, "recv", out,
          {nccl::kind::recv, nullptr, out.data(), bytes(out), nccl::carrier::uint8, reduce_op::sum,
           peer},
          {out});
  return out;
}

}  // namespace jet::distributed
