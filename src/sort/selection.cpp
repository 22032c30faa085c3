// partition, argpartition and topk: a radix select finds each row's key at one rank (CUB counts
// one byte of the keys a pass; the host picks the digit that holds the rank), then elementwise
// kernels and scans place or pick the elements around it.
#include <string>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/indexing.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "jet/sorting.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/sort/radix_select.hpp"
#include "src/sort/sort_rows.hpp"

namespace jet {
namespace {

using detail::sort_rows;

// Each row's key at the selected rank (rows x 1, the keys' dtype), and how many of the row's
// keys are below it and equal to it (rows x 1, int64).
struct selected_rank {
  array pivot, below, equal;
  std::vector<std::int64_t> below_counts, equal_counts;  // below and equal on the host
};

// The radix select over `keys` (rows x length, unsigned): a pass a byte, most significant
// first, each counting the digits of the keys that share the digits chosen so far.
selected_rank select_rank(const array& keys, std::int64_t rank) {
  const std::int64_t rows = keys.shape()[0];
  std::vector<std::uint64_t> prefix(rows, 0);
  std::vector<std::int64_t> left(rows, rank), below(rows, 0), equal(rows, 0);
  const array counts = empty({rows * 256}, uint64);
  for (int shift = 8 * static_cast<int>(keys.itemsize()) - 8; shift >= 0; shift -= 8) {
    const array prefixes = asarray(prefix);
    detail::digit_count_job job;
    job.key_bytes = static_cast<int>(keys.itemsize());
    job.keys = keys.data();
    job.n = keys.size();
    job.rows = rows;
    job.prefixes = static_cast<const std::uint64_t*>(prefixes.data());
    job.shift = shift;
    job.counts = static_cast<unsigned long long*>(counts.data());
    detail::run(job, detail::count_digits);
    const std::vector<std::uint64_t> c = counts.to_vector<std::uint64_t>();  // waits
    for (std::int64_t r = 0; r < rows; ++r) {
      const std::uint64_t* row = c.data() + 256 * r;
      int d = 0;
      std::int64_t before = 0;
      while (d < 255 && before + static_cast<std::int64_t>(row[d]) <= left[r]) before += row[d++];
      left[r] -= before;
      below[r] += before;
      equal[r] = static_cast<std::int64_t>(row[d]);
      prefix[r] |= std::uint64_t(d) << shift;
    }
  }
  return {asarray(prefix).astype(keys.dtype()).reshape({rows, 1}),
          asarray(below).reshape({rows, 1}), asarray(equal).reshape({rows, 1}), below, equal};
}

// Whether a radix select serves: keys of 8 bytes or fewer (complex128's are 16), and rows that
// one count takes.
bool selects(dtype t, std::int64_t rows) {
  return t != complex128 && rows <= detail::max_select_rows;
}

// `a` laid out as `r` says, as rows x length.
array in_rows(const expr& a, const sort_rows& r) {
  return detail::laid_out(a, r).reshape({r.rows, r.length});
}

// The same to read from: a view of a's array where it is one laid out so, else in_rows.
array as_rows(const expr& a, const sort_rows& r) {
  if (a.node()->op == detail::op_code::input) {
    const array& v = a.node()->value();
    const array moved = r.axis ? moveaxis(v, *r.axis, -1) : v;
    if (moved.is_c_contiguous()) return moved.reshape({r.rows, r.length});
  }
  return in_rows(a, r);
}

std::int64_t checked_kth(std::int64_t kth, std::int64_t length) {
  const std::int64_t k = kth < 0 ? kth + length : kth;
  if (k < 0 || k >= length)
    throw value_error("kth(=" + std::to_string(k) + ") out of bounds (" + std::to_string(length) +
                      ")");
  return k;
}

// Partitions `values` (laid out as `r` says, rows x length) at rank kth of `a`'s keys: the
// elements below the selected key first, then those equal to it, then the rest, each in order,
// written back in a's layout (1-D without an axis).
array partitioned(const expr& a, const sort_rows& r, std::int64_t kth, const array& values) {
  const array keys = detail::keys_of(a, r, true).reshape({r.rows, r.length});
  const selected_rank s = select_rank(keys, kth);
  const expr less = keys < s.pivot, same = keys == s.pivot;
  const array place(where(less, cumsum(less, -1) - 1,
                          where(same, s.below + cumsum(same, -1) - 1,
                                s.below + s.equal + cumsum(keys > s.pivot, -1) - 1)));
  const array out = empty({r.rows, r.length}, values.dtype());
  put_along_axis(out, place, values, 1);
  return detail::in_result_layout(expr(out.reshape(r.moved)), r, a.shape(), values.dtype());
}

array partition_or_sort(const expr& a, const std::vector<std::int64_t>& kth,
                        std::optional<std::int64_t> axis, bool positions) {
  // A 0-d array: NumPy's partition takes it only without an axis, its argpartition as 1-D.
  if (a.ndim() == 0 && positions && axis) normalize_axis(*axis, 1);
  const expr x = a.ndim() == 0 && (positions || !axis) ? expr(detail::as_array(a).reshape({1})) : a;
  const sort_rows r =
      detail::rows_of(x, x.ndim() == a.ndim() ? axis : std::optional<std::int64_t>());
  std::vector<std::int64_t> ranks;
  for (std::int64_t k : kth) ranks.push_back(r.rows ? checked_kth(k, r.length) : k);
  if (a.size() == 0 || ranks.size() != 1 || !selects(a.dtype(), r.rows))
    return positions ? argsort(x, axis) : sort(x, axis);
  const array values =
      positions ? detail::positions_of(r, int64).reshape({r.rows, r.length}) : as_rows(x, r);
  return partitioned(x, r, ranks.front(), values);
}

// The positions of the k largest (or smallest) keys of one row (1 x length) around the
// selected one: those beyond it, then the first of those equal to it, as many as are needed
// (one pass where all of them are).
array taken_from_row(const array& keys, const selected_rank& s, std::int64_t k, bool largest) {
  const std::int64_t length = keys.shape()[1];
  const std::int64_t below = s.below_counts[0], equal = s.equal_counts[0];
  const std::int64_t beyond = largest ? length - below - equal : below;
  const array flat = keys.reshape({length});
  const array pivot = s.pivot.reshape({});
  if (beyond + equal == k)
    return nonzero(largest ? flat >= pivot : flat <= pivot, k).indices[0].reshape({1, k});
  std::vector<array> parts;
  if (beyond > 0)
    parts.push_back(nonzero(largest ? flat > pivot : flat < pivot, beyond).indices[0]);
  parts.push_back(nonzero(flat == pivot, k - beyond).indices[0]);
  return concatenate(parts).reshape({1, k});
}

// The same for rows: each element's slot among its row's taken ones, or k where not taken.
array taken_from_rows(const array& keys, const selected_rank& s, std::int64_t k, bool largest) {
  const std::int64_t rows = keys.shape()[0], length = keys.shape()[1];
  const expr same = keys == s.pivot;
  const expr beyond = largest ? keys > s.pivot : keys < s.pivot;
  const expr count_beyond = largest ? expr(length - s.below - s.equal) : expr(s.below);
  const array taken(beyond || (same && cumsum(same, -1) <= k - count_beyond));
  const array slot(where(taken, cumsum(taken, -1) - 1, k));
  const array out = empty({rows, k + 1}, int64);  // column k: where nothing taken lands
  put_along_axis(out, slot,
                 detail::positions_of(sort_rows{{1}, {rows, length}, rows, length}, int64), 1);
  return out(slice(), slice(0, k));
}

}  // namespace

array partition(const expr& a, std::int64_t kth, std::optional<std::int64_t> axis) {
  return partition_or_sort(a, {kth}, axis, false);
}
array partition(const expr& a, const std::vector<std::int64_t>& kth,
                std::optional<std::int64_t> axis) {
  return partition_or_sort(a, kth, axis, false);
}
array argpartition(const expr& a, std::int64_t kth, std::optional<std::int64_t> axis) {
  return partition_or_sort(a, {kth}, axis, true);
}
array argpartition(const expr& a, const std::vector<std::int64_t>& kth,
                   std::optional<std::int64_t> axis) {
  return partition_or_sort(a, kth, axis, true);
}

topk_result topk(const expr& x, std::int64_t k, std::int64_t axis, bool largest) {
  const sort_rows r = detail::rows_of(x, axis);
  if (k < 0 || k > r.length)
    throw value_error("k(=" + std::to_string(k) + ") out of bounds (" + std::to_string(r.length) +
                      ")");
  shape kept = r.moved;
  kept[kept.size() - 1] = k;
  const array values = as_rows(x, r);
  array picked;
  if (k == 0 || r.rows == 0) {
    picked = empty({r.rows, k}, int64);
  } else if (!selects(x.dtype(), r.rows)) {
    const array order = argsort(values, 1);
    picked = largest ? array(order(slice(), slice(r.length - k, none)))
                     : array(order(slice(), slice(0, k)));
  } else {
    const array keys = detail::keys_of(x, r, true).reshape({r.rows, r.length});
    const selected_rank s = select_rank(keys, largest ? r.length - k : k - 1);
    picked =
        r.rows == 1 ? taken_from_row(keys, s, k, largest) : taken_from_rows(keys, s, k, largest);
  }
  // The k taken, in order: ascending, reversed for the largest.
  const array chosen = take_along_axis(values, picked, 1);
  array order = argsort(chosen, 1);
  if (largest) order = flip(order, 1);
  const auto back = [&](const array& m) { return moveaxis(m.reshape(kept), -1, *r.axis); };
  return {back(take_along_axis(chosen, order, 1)), back(take_along_axis(picked, order, 1))};
}

}  // namespace jet
