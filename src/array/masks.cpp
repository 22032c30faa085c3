// Where a condition holds: nonzero and the functions built on it, and the read of x(mask). Each
// is one compaction by CUB (src/select), run in the stream's order; only learning a result's
// length waits for the GPU.
#include <string>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/indexing.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "src/device/memory.hpp"
#include "src/device/placement.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/select/select.hpp"

namespace jet {
namespace {

// `e` as one flat, C-contiguous array (no copy when it already is one).
array flat_contiguous(const expr& e) {
  const array a = detail::as_array(e);
  return (a.is_c_contiguous() ? a : a.copy()).ravel();
}

// `condition`'s truth values, flat and C-contiguous.
array flags_of(const expr& condition) {
  return flat_contiguous(condition.dtype() == bool_ ? condition : condition.astype(bool_));
}

// Runs `s` in the current stream's order, with scratch from Jet's pool.
void run(const detail::selection& s) {
  const cudaStream_t stream = detail::current_stream();
  const std::size_t bytes = detail::select_flagged(nullptr, 0, s, stream);
  std::shared_ptr<detail::buffer> scratch = detail::allocate(bytes);
  detail::in_order(stream, [s, scratch, stream] {
    detail::select_flagged(scratch->data, scratch->bytes, s, stream);
  });
}

// The items of `values` (flat, C-contiguous, flags' size; none: the positions 0..n-1) where
// `flags` holds, in order, into `out`, which may be shorter than the count when `bounded`.
// Returns the count, a 0-d int64 array.
array select_into(const array& flags, const std::optional<array>& values, const array& out,
                  bool bounded) {
  if (flags.size() == 0) return zeros({}, int64);
  detail::check_on_current_device(flags, "jet");
  if (values) detail::check_on_current_device(*values, "jet");
  const array count = empty({}, int64);
  detail::selection s;
  s.values = values ? values->data() : nullptr;
  s.item_bytes = values ? values->itemsize() : 8;
  s.flags = static_cast<const bool*>(flags.data());
  s.n = flags.size();
  s.out = out.data();
  s.limit = bounded ? out.size() : s.n;
  s.count = static_cast<std::int64_t*>(count.data());
  run(s);
  return count;
}

// Every selected item: the count first (one wait for the GPU), then the compaction.
array select_all(const array& flags, const std::optional<array>& values) {
  const auto n = count_nonzero(flags).item<std::int64_t>();
  const array out = empty({n}, values ? values->dtype() : int64);
  select_into(flags, values, out, false);
  return out;
}

void check_not_0d(const expr& a) {
  if (a.ndim() == 0)
    throw value_error(
        "Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
        "instead. If the context of this error is of the form `arr[nonzero(cond)]`, just use "
        "`arr[cond]`.");
}

void check_size(std::int64_t size) {
  if (size < 0) throw value_error("size must be non-negative, got " + std::to_string(size));
}

}  // namespace

std::vector<array> nonzero(const expr& a) {
  check_not_0d(a);
  const array flat = select_all(flags_of(a), std::nullopt);
  if (a.ndim() == 1) return {flat};
  const array rows = stack(unravel_index(flat, a.shape()));
  std::vector<array> out;
  for (int d = 0; d < a.ndim(); ++d) out.push_back(rows(d));
  return out;
}

std::vector<array> where(const expr& condition) { return nonzero(condition); }

array argwhere(const expr& a) {
  if (a.ndim() == 0) return argwhere(a.reshape({1}))(slice(), slice(0, 0));
  const array flat = select_all(flags_of(a), std::nullopt);
  return stack(unravel_index(flat, a.shape()), 1);
}

array flatnonzero(const expr& a) { return select_all(flags_of(a), std::nullopt); }

array compress(const expr& condition, const array& a, std::optional<std::int64_t> axis) {
  if (condition.ndim() != 1) throw value_error("condition must be a 1-d array");
  return take(a, flatnonzero(condition), axis);
}

array extract(const expr& condition, const expr& a) {
  if (condition.size() != a.size()) return take(flat_contiguous(a), flatnonzero(condition));
  return select_all(flags_of(condition), flat_contiguous(a));
}

sized_nonzero nonzero(const expr& a, std::int64_t size, std::int64_t fill_value) {
  check_not_0d(a);
  check_size(size);
  const array flat = full({size}, fill_value, int64);
  array count = select_into(flags_of(a), std::nullopt, flat, true);
  if (a.ndim() == 1) return {{flat}, count};
  // Past the count every axis has fill_value, not the fill value unraveled (nor checked).
  const expr found = arange(size) < count;
  std::vector<expr> axes = unravel_index(array(where(found, flat, 0)), a.shape());
  for (expr& e : axes) e = where(found, e, fill_value);
  const array rows = stack(axes);
  sized_nonzero out{{}, count};
  for (int d = 0; d < a.ndim(); ++d) out.indices.push_back(rows(d));
  return out;
}

sized_extract extract(const expr& condition, const expr& a, std::int64_t size,
                      const expr& fill_value) {
  check_size(size);
  if (condition.size() != a.size())
    throw value_error("jet::extract with a size needs a condition of the array's size: " +
                      std::to_string(condition.size()) + " and " + std::to_string(a.size()));
  const array values = full({size}, fill_value, a.dtype());
  array count = select_into(flags_of(condition), flat_contiguous(a), values, true);
  return {values, count};
}

}  // namespace jet
