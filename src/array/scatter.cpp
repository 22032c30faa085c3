// Writing through positions: NumPy's ufunc.at (add_at and its kin, atomic combining scatters),
// put and putmask.
#include <algorithm>
#include <vector>

#include "jet/error.hpp"
#include "jet/indexing.hpp"
#include "jet/ops.hpp"
#include "src/array/assignment.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

using detail::scatter_op;

// What `op` makes of an element and a value, for an index without arrays (a view, where no
// position repeats).
expr combined(scatter_op op, const expr& current, const expr& value) {
  if (op == scatter_op::add) return current + value;
  return op == scatter_op::maximum ? maximum(current, value) : minimum(current, value);
}

void combine_at(const array& a, std::span<const index_arg> index, scatter_op op,
                const expr& values) {
  if (std::any_of(index.begin(), index.end(), [](const index_arg& it) { return it.positions(); })) {
    advanced_index(a, index).combine(op, values);
    return;
  }
  std::vector<index_item> basic;
  for (const index_arg& it : index) basic.push_back(it.item());
  array view = a.index(basic);
  const expr result = combined(op, view, values);
  detail::check_same_kind(*result.node(), a.dtype());
  std::move(view) = result;
}

// `values` flattened and repeated (cyclically) to fill shape `s`: NumPy's put and putmask.
expr repeated(const expr& values, const shape& s) {
  const array flat = detail::as_array(values).ravel();
  if (flat.size() == s.product()) return flat.reshape(s);
  return take(flat, array(arange(s.product()) % flat.size()).reshape(s));
}

}  // namespace

#define JET_UFUNC_AT(name, op, value)                                                     \
  void name(const array& a, const index_arg& index, const expr& values) {                 \
    combine_at(a, std::span<const index_arg>(&index, 1), op, value);                      \
  }                                                                                       \
  void name(const array& a, std::initializer_list<index_arg> index, const expr& values) { \
    combine_at(a, std::span<const index_arg>(index.begin(), index.size()), op, value);    \
  }
JET_UFUNC_AT(add_at, scatter_op::add, values)
JET_UFUNC_AT(subtract_at, scatter_op::add, -values)
JET_UFUNC_AT(maximum_at, scatter_op::maximum, values)
JET_UFUNC_AT(minimum_at, scatter_op::minimum, values)
#undef JET_UFUNC_AT

void put(const array& a, const array& indices, const expr& values, index_mode mode) {
  if (values.size() == 0 || indices.size() == 0) return;
  if (!a.is_c_contiguous()) {  // through a C-ordered copy, written back
    const array staged = a.copy();
    put(staged, indices, values, mode);
    array target = a;
    std::move(target) = staged;
    return;
  }
  take(a.reshape({a.size()}), indices.ravel(), 0, mode) = repeated(values, {indices.size()});
}

void putmask(const array& a, const expr& mask, const expr& values) {
  if (mask.shape() != a.shape()) throw value_error("putmask: mask and data must be the same size");
  if (a.size() == 0) return;
  if (values.size() == 0) throw value_error("putmask: values is empty and the array is not");
  const expr v =
      values.size() == 1 ? expr(detail::as_array(values).reshape({})) : repeated(values, a.shape());
  array target = a;
  std::move(target) = where(mask, v.astype(a.dtype()), a);
}

}  // namespace jet
