// sort, argsort, sort_complex and lexsort: a Jet kernel writes each element's sort key (the
// input's expression fused into it) with the sorted axis laid out last, row after row; CUB
// sorts the keys, with positions beside them where the result is positions; a second kernel
// writes the result back in the input's layout.
#include "jet/sorting.hpp"

#include <limits>
#include <string>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/indexing.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "src/device/memory.hpp"
#include "src/device/placement.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/sort/radix_sort.hpp"
#include "src/sort/sort_rows.hpp"

namespace jet {
namespace {

using detail::in_result_layout;
using detail::keys_of;
using detail::positions_of;
using detail::rows_of;
using detail::run;
using detail::sort_rows;

void check_index_dtype(dtype t, std::int64_t length) {
  if (t != int64 && t != int32)
    throw dtype_error("index_dtype must be int64 or int32, not " + std::string(name(t)));
  if (t == int32 && length > std::numeric_limits<std::int32_t>::max())
    throw value_error("index_dtype int32 cannot hold positions in rows of " +
                      std::to_string(length) + " elements");
}

// `keys` sorted, and with them `positions` (of r.moved's shape, int32 or int64) into a new
// array: the positions in sorted order.
array sort_positions(const array& keys, const array& positions, const sort_rows& r) {
  return detail::radix_sorted(keys, r.rows, positions).values;
}

// One row of a real dtype, sorted by CUB in the dtype's own order into `out`: from `a` itself
// when it is a contiguous array, else from its values written with every NaN's sign cleared.
void sort_one_row(const expr& a, const sort_rows& r, const array& out) {
  detail::value_sort_job job;
  job.type = a.dtype();
  job.n = a.size();
  job.out = out.data();
  const bool floating = is_inexact(a.dtype());
  const bool plain = a.node()->op == detail::op_code::input;
  array values = plain ? detail::as_array(a) : array();
  array spare, count;
  if (plain && values.is_c_contiguous()) {
    detail::check_on_current_device(values, "sort");
    if (floating) {
      spare = empty({job.n}, a.dtype());
      count = empty({}, int64);
      job.spare = spare.data();
      job.count = static_cast<std::int64_t*>(count.data());
    }
  } else {
    values = detail::laid_out(floating ? where(isnan(a), abs(a), a) : a, r);
  }
  job.in = values.data();
  run(job, detail::sort_values);
}

dtype sort_complex_dtype(dtype t) {
  if (is_complex(t)) return t;
  return t == int8 || t == int16 || t == uint8 || t == uint16 ? complex64 : complex128;
}

}  // namespace

array argsort(const expr& a, std::optional<std::int64_t> axis, dtype index_dtype) {
  // NumPy sorts a 0-d array as the 1-D array of its element, along any axis that one has.
  if (a.ndim() == 0 && axis) normalize_axis(*axis, 1);
  const sort_rows r = rows_of(a, a.ndim() == 0 ? std::nullopt : axis);
  check_index_dtype(index_dtype, r.length);
  if (a.size() == 0) return empty(r.axis ? a.shape() : shape{0}, index_dtype);
  // Positions that fit in int32 sort as int32 whatever the index dtype (4 bytes less read and
  // written per element in each radix pass) and widen as they are written out.
  const dtype sorted_as = r.length <= std::numeric_limits<std::int32_t>::max() ? int32 : int64;
  const array order = sort_positions(keys_of(a, r, true), positions_of(r, sorted_as), r);
  if (sorted_as == index_dtype && (!r.axis || *r.axis == a.ndim() - 1))
    return order.reshape(r.axis ? a.shape() : shape{a.size()});
  return in_result_layout(expr(order).astype(index_dtype), r, a.shape(), index_dtype);
}

array sort(const expr& a, std::optional<std::int64_t> axis) {
  const sort_rows r = rows_of(a, axis);
  if (a.size() == 0) return empty(axis ? a.shape() : shape{0}, a.dtype());
  if (is_complex(a.dtype())) {  // complex keys keep no value: the sorted positions, gathered
    const array x = detail::as_array(a);
    const array order = argsort(x, axis);
    return axis ? array(take_along_axis(x, order, axis)) : array(take(x, order));
  }
  if (r.rows == 1) {
    array out = empty(axis ? a.shape() : shape{a.size()}, a.dtype());
    sort_one_row(a, r, out);
    return out;
  }
  // Rows: their keys, which CUB sorts row by row in one segmented sort, then their values.
  const array sorted = detail::radix_sorted(keys_of(a, r, false), r.rows).keys;
  return in_result_layout(expr(detail::make_sort_value(expr(sorted).node(), a.dtype())), r,
                          a.shape(), a.dtype());
}

array sort_complex(const expr& a) { return sort(a.astype(sort_complex_dtype(a.dtype())), -1); }

array lexsort(const std::vector<expr>& keys, std::int64_t axis) {
  if (keys.empty()) throw dtype_error("need sequence of keys with len > 0 in lexsort");
  for (const expr& k : keys)
    if (!(k.shape() == keys.front().shape()))
      throw value_error("all keys need to be the same shape");
  const expr& first = keys.front();
  if (first.ndim() == 0) return argsort(first, axis);
  const sort_rows r = rows_of(first, axis);
  if (first.size() == 0) return empty(first.shape(), int64);
  // Least significant key first; each later sort is stable, so it keeps the earlier order
  // among its ties. A key is read through the order so far, in the kernel writing its keys.
  array order = sort_positions(keys_of(first, r, true), positions_of(r, int64), r);
  for (std::size_t k = 1; k < keys.size(); ++k) {
    const array through = r.in_input_shape(order);
    const expr key = take_along_axis(detail::as_array(keys[k]), through, *r.axis);
    order = sort_positions(keys_of(key, r, true), order, r);
  }
  return *r.axis == first.ndim() - 1 ? order : in_result_layout(order, r, first.shape(), int64);
}

}  // namespace jet
