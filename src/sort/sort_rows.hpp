// How sorts and selections lay out their input: rows along the sorted axis, the axis last,
// each element's key or position written row after row; and running one of CUB's jobs on the
// current stream.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <memory>
#include <optional>

#include "jet/array.hpp"
#include "jet/expr.hpp"
#include "jet/manipulation.hpp"
#include "src/device/memory.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {

// How a sort lays out `a`: along `axis`, rows of `length` elements with the axis last in
// `moved`; with no axis, all of `a` as one row in its own shape (C order is the flattened
// order).
struct sort_rows {
  std::optional<int> axis;
  shape moved;
  std::int64_t rows = 0, length = 0;

  // A view of `buffer` (of shape `moved`) in a's shape, through which a kernel writing a's
  // elements lays them out row after row.
  array in_input_shape(const array& buffer) const {
    return axis ? moveaxis(buffer, -1, *axis) : buffer;
  }
};

sort_rows rows_of(const expr& a, std::optional<std::int64_t> axis);
// `a` evaluated into a new array of shape r.moved, its rows laid out as `r` says.
array laid_out(const expr& a, const sort_rows& r);
// The keys of `a` laid out as `r` says: sort keys, or with `comparing` keys in which -0.0 and
// 0.0 are equal.
array keys_of(const expr& a, const sort_rows& r, bool comparing);
// Each element's position in its row, laid out as `r` says, as `t`.
array positions_of(const sort_rows& r, dtype t);
// `sorted`, laid out as `r` says, in a's layout: a's shape (written through a view of it with
// the axis last), or 1-D with no axis.
array in_result_layout(const expr& sorted, const sort_rows& r, const shape& a_shape, dtype t);

// `keys` (contiguous, laid out as `rows` rows) sorted stably row by row by CUB's radix sort,
// and `values` (as many, int32 or int64) moved with them where given: new arrays of both.
struct sorted_pairs {
  array keys, values;
};
sorted_pairs radix_sorted(const array& keys, std::int64_t rows, const array& values = array());

// Runs `job` by `runner` (radix_sort, sort_values, count_digits) on the current stream, in
// its order, with scratch from Jet's pool.
template <class Job>
void run(const Job& job, std::size_t (*runner)(void*, std::size_t, const Job&, cudaStream_t)) {
  const cudaStream_t stream = current_stream();
  std::shared_ptr<buffer> scratch = allocate(runner(nullptr, 0, job, stream));
  in_order(stream,
           [job, scratch, stream, runner] { runner(scratch->data, scratch->bytes, job, stream); });
}

}  // namespace jet::detail
