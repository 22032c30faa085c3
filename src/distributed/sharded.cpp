// Arrays split along axis 0 across the ranks of local(): shard-local maps, and reductions that
// finish with an all-reduce.
#include <fmt/format.h>

#include <optional>

#include "codegen/core/axes.hpp"
#include "jet/device.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "src/distributed/state.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet::distributed {
namespace {

void check_communicators(const std::vector<communicator>& comms, std::size_t shards) {
  if (comms.empty() || comms.size() != shards)
    throw value_error(fmt::format("sharded_array: {} shards for {} communicators: one a rank",
                                  shards, comms.size()));
  for (std::size_t r = 0; r < comms.size(); ++r)
    if (!comms[r].all_local() || comms[r].size() != static_cast<int>(comms.size()) ||
        comms[r].rank() != static_cast<int>(r) || comms[r].get().clique != comms[0].get().clique)
      throw value_error(fmt::format(
          "sharded_array: communicator {} is rank {} of {}: a sharded array takes every rank of "
          "one communicator::local(), in rank order",
          r, comms[r].rank(), comms[r].size()));
}

void check_shards(const std::vector<communicator>& comms, const std::vector<array>& shards) {
  for (std::size_t r = 0; r < shards.size(); ++r) {
    const array& s = shards[r];
    if (s.ndim() == 0)
      throw shape_error("sharded_array: a shard is 0-d; shards split an array along axis 0");
    if (s.device() != comms[r].device())
      throw value_error(
          fmt::format("sharded_array: shard {} is on device {}, its rank on device {}", r,
                      s.device(), comms[r].device()));
    const array& first = shards[0];
    bool alike = s.dtype() == first.dtype() && s.ndim() == first.ndim();
    for (int d = 1; alike && d < s.ndim(); ++d) alike = s.shape()[d] == first.shape()[d];
    if (!alike)
      throw shape_error(fmt::format(
          "sharded_array: shard {} is {} {}, shard 0 {} {}: shards differ only along axis 0", r,
          name(s.dtype()), to_string(s.shape()), name(first.dtype()), to_string(first.shape())));
  }
}

// Each shard reduced by `partial` over `axis` (which must hold axis 0), the partial results
// all-reduced with `op`; rank 0's copy. Shards without elements take another rank's partial
// result for min and max, which have no identity.
array finish_reduction(const char* name, const sharded_array& x, axes axis,
                       const std::function<expr(const array&)>& partial, reduce_op op) {
  const std::uint32_t mask = jet::detail::axis_mask(axis, x.shape().size());
  if (!(mask & 1u))
    throw value_error(fmt::format(
        "distributed::{}: the axes leave axis 0 split across the ranks; reduce shard-local with "
        "distributed::map instead",
        name));
  const int n = x.ranks();
  const bool needs_elements = op == reduce_op::min || op == reduce_op::max;
  std::vector<std::optional<array>> partials(static_cast<std::size_t>(n));
  int donor = -1;
  for (int r = 0; r < n; ++r) {
    if (needs_elements && x.shard(r).size() == 0) continue;
    const jet::device_guard on(x.communicators()[r].device());
    partials[r] = partial(x.shard(r)).eval();
    if (donor < 0) donor = r;
  }
  if (donor < 0) return partial(x.shard(0)).eval();  // raises NumPy's error
  std::vector<array> parts, reduced(static_cast<std::size_t>(n));
  for (int r = 0; r < n; ++r)
    parts.push_back(
        partials[r].value_or(*partials[donor]).to_device(x.communicators()[r].device()));
  group([&] {
    for (int r = 0; r < n; ++r) reduced[r] = all_reduce(x.communicators()[r], parts[r], op);
  });
  return reduced[0];
}

// A reduction of Jet's over each shard.
array reduce_shards(const char* name, const sharded_array& x, axes axis, bool keepdims,
                    expr (*reduction)(const expr&, axes, bool), reduce_op op) {
  return finish_reduction(
      name, x, axis, [&](const array& s) { return reduction(s, axis, keepdims); }, op);
}

}  // namespace

sharded_array::sharded_array(std::vector<communicator> comms, std::vector<array> shards)
    : comms_(std::move(comms)), shards_(std::move(shards)) {
  check_communicators(comms_, shards_.size());
  check_shards(comms_, shards_);
}

sharded_array sharded_array::split(const expr& x, std::vector<communicator> comms) {
  check_communicators(comms, comms.size());
  if (x.ndim() == 0) throw shape_error("sharded_array::split: a 0-d array has no axis 0 to split");
  const std::vector<array> pieces =
      array_split(jet::detail::as_array(x), static_cast<std::int64_t>(comms.size()), 0);
  std::vector<array> shards;
  for (std::size_t r = 0; r < comms.size(); ++r)
    shards.push_back(pieces[r].to_device(comms[r].device()));
  return sharded_array(std::move(comms), std::move(shards));
}

jet::shape sharded_array::shape() const {
  jet::shape s = shards_[0].shape();
  s[0] = 0;
  for (const array& a : shards_) s[0] += a.shape()[0];
  return s;
}

jet::dtype sharded_array::dtype() const { return shards_[0].dtype(); }

array sharded_array::gather(int device) const {
  const int to = device < 0 ? jet::device::current_id() : device;
  const jet::device_guard on(to);
  std::vector<array> pieces;
  for (const array& a : shards_) pieces.push_back(a.to_device(to));
  return concatenate(pieces, 0);
}

namespace detail {

sharded_array map_shards(const sharded_array& like, const std::function<expr(int)>& make) {
  std::vector<array> shards;
  for (int r = 0; r < like.ranks(); ++r) {
    const jet::device_guard on(like.communicators()[r].device());
    shards.push_back(make(r).eval());
    const std::int64_t length = like.shard(r).shape()[0];
    if (shards.back().ndim() == 0 || shards.back().shape()[0] != length)
      throw shape_error(
          fmt::format("distributed::map: shard {} of {} rows gave shape {}: a map keeps axis 0", r,
                      length, to_string(shards.back().shape())));
  }
  return sharded_array(like.communicators(), std::move(shards));
}

void check_split_alike(const sharded_array& first, const sharded_array& other) {
  bool alike = first.ranks() == other.ranks();
  for (int r = 0; alike && r < first.ranks(); ++r)
    alike = first.shard(r).shape()[0] == other.shard(r).shape()[0] &&
            first.communicators()[r].get().clique == other.communicators()[r].get().clique;
  if (!alike)
    throw shape_error(fmt::format(
        "distributed::map: sharded arrays of shapes {} and {} are not split alike (the same "
        "communicators, the same rows on each rank)",
        to_string(first.shape()), to_string(other.shape())));
}

}  // namespace detail

array sum(const sharded_array& x, axes axis, bool keepdims) {
  return reduce_shards("sum", x, axis, keepdims, jet::sum, reduce_op::sum);
}
array prod(const sharded_array& x, axes axis, bool keepdims) {
  return reduce_shards("prod", x, axis, keepdims, jet::prod, reduce_op::prod);
}
array min(const sharded_array& x, axes axis, bool keepdims) {
  return reduce_shards("min", x, axis, keepdims, jet::min, reduce_op::min);
}
array max(const sharded_array& x, axes axis, bool keepdims) {
  return reduce_shards("max", x, axis, keepdims, jet::max, reduce_op::max);
}

array mean(const sharded_array& x, axes axis, bool keepdims) {
  // The mean's dtype (float64 for integers, as NumPy), summed in it, divided by the count.
  const dtype t = jet::mean(x.shard(0), axis, keepdims).dtype();
  const array total = finish_reduction(
      "mean", x, axis, [&](const array& s) { return jet::sum(s, axis, t, keepdims); },
      reduce_op::sum);
  const jet::shape whole = x.shape();
  const std::uint32_t mask = jet::detail::axis_mask(axis, whole.size());
  std::int64_t count = 1;
  for (int d = 0; d < whole.size(); ++d)
    if (mask & (1u << d)) count *= whole[d];
  const jet::device_guard on(x.communicators()[0].device());
  return (total / static_cast<double>(count)).astype(t).eval();
}

}  // namespace jet::distributed
