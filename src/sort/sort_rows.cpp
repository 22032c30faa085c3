// The layout of sorts and selections (sort_rows.hpp).
#include "src/sort/sort_rows.hpp"

#include "codegen/expr/node.hpp"
#include "jet/ops.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/sort/radix_sort.hpp"

namespace jet::detail {

sort_rows rows_of(const expr& a, std::optional<std::int64_t> axis) {
  sort_rows r;
  if (axis) {
    r.axis = normalize_axis(*axis, a.ndim());
    for (int d = 0; d < a.ndim(); ++d)
      if (d != *r.axis) r.moved.push_back(a.shape()[d]);
    r.moved.push_back(a.shape()[*r.axis]);
  } else {
    r.moved = a.shape();
  }
  r.length = r.axis ? a.shape()[*r.axis] : a.size();
  r.rows = r.length ? a.size() / r.length : 0;
  return r;
}

array laid_out(const expr& a, const sort_rows& r) {
  array out = empty(r.moved, a.dtype());
  evaluate(*a.node(), r.in_input_shape(out));
  return out;
}

array keys_of(const expr& a, const sort_rows& r, bool comparing) {
  return laid_out(expr(make_sort_key(a.node(), comparing)), r);
}

array positions_of(const sort_rows& r, dtype t) {
  expr position(make_index(r.moved));
  if (r.rows > 1) position = position % r.length;
  array out = empty(r.moved, t);
  evaluate(*position.astype(t).node(), out);
  return out;
}

array in_result_layout(const expr& sorted, const sort_rows& r, const shape& a_shape, dtype t) {
  array out = empty(r.axis ? a_shape : shape{a_shape.product()}, t);
  evaluate(*sorted.node(), r.axis ? moveaxis(out, *r.axis, -1) : out.reshape(r.moved));
  return out;
}

sorted_pairs radix_sorted(const array& keys, std::int64_t rows, const array& values) {
  sorted_pairs out{empty(keys.shape(), keys.dtype()), array()};
  radix_job job;
  job.key_bytes = keys.itemsize();
  job.keys_in = keys.data();
  job.keys_out = out.keys.data();
  job.n = keys.size();
  job.rows = rows;
  if (values.data()) {
    out.values = empty(values.shape(), values.dtype());
    job.value_bytes = values.itemsize();
    job.values_in = values.data();
    job.values_out = out.values.data();
  }
  run(job, radix_sort);
  return out;
}

}  // namespace jet::detail
