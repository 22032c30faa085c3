// Advanced indexing: x(idx) with integer index arrays, NumPy's rules in full, as a lazy gather
// that fuses into what reads it; assigning to it writes x through the same positions; and
// NumPy's functions built on it (take, take_along_axis, put_along_axis).
#pragma once

#include <concepts>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "jet/expr.hpp"

namespace jet {

// One item of an index that holds arrays: a basic item (an integer, a slice, newaxis or
// ellipsis) or an array of integer positions along one axis (an expression is evaluated).
class index_arg {
 public:
  template <class T>
  requires std::is_constructible_v<index_item, const T&> index_arg(const T& item)  // NOLINT
      : item_(item) {}
  index_arg(const array& positions) : item_(ellipsis), positions_(positions) {}  // NOLINT
  index_arg(const expr& positions) : index_arg(positions.eval()) {}              // NOLINT

  const index_item& item() const { return item_; }
  const std::optional<array>& positions() const { return positions_; }

 private:
  index_item item_;
  std::optional<array> positions_;
};

// x(idx, ...) where an item is an array: an expression that reads x at those positions (one
// kernel with whatever uses it), and a destination: `x(idx) = e` writes e (broadcast and cast
// as any assignment) at the positions, `x(idx) += e` adds as NumPy's buffered `x[idx] += e`
// does: every position is read before any is written, so one repeated in idx is written once,
// with one of its values (NumPy keeps the last; a GPU keeps any). Positions out of bounds raise
// jet::index_error at the next synchronization (docs: "Errors found on the device").
//
// A boolean array among the items is a mask over as many axes as it has, the same as the
// positions jet::nonzero gives for it. Reading `x(mask)` needs its count before its shape is
// known, so it waits for the GPU once, when the expression is first used. Assigning does not:
// `x(mask) = e` and `x(mask) += e`, with e a scalar or shaped like what one masked position
// selects, are one kernel that writes x where the mask holds. Only an e with one value per true
// element, or a mask combined with other index arrays, counts first.
class indexed : public expr {
 public:
  // For Jet's runtime: `x` read through `source`, a view of x's memory over the result's shape,
  // at each element's position plus `offset` (an int64 node of elements).
  indexed(array x, array source, detail::node_ptr offset);
  // x(items) with a boolean mask among the items.
  indexed(array x, std::vector<index_arg> items);
  // For Jet's runtime (jet::add_at and its kin): `values` combined by `op` into each position,
  // unbuffered, with atomics.
  void combine(detail::scatter_op op, const expr& values) const;

  void operator=(const expr& values) &&;
  void operator=(const indexed& values) &&;
  void operator+=(const expr& values) &&;
  void operator-=(const expr& values) &&;
  void operator*=(const expr& values) &&;
  void operator/=(const expr& values) &&;
  void operator%=(const expr& values) &&;
  void operator&=(const expr& values) &&;
  void operator|=(const expr& values) &&;
  void operator^=(const expr& values) &&;
  void operator<<=(const expr& values) &&;
  void operator>>=(const expr& values) &&;

 private:
  using combiner = expr (*)(const expr& current, const expr& values);
  void update(combiner op, const expr& values) const;
  void assign(const expr& values) const;
  array x_;       // the indexed array
  array source_;  // x's memory over the result's shape (without a mask)
  detail::node_ptr offset_;
  std::vector<index_arg> items_;  // with a mask: the items, turned into positions when needed
};

// x(items...) with arrays among the items (array::operator() calls it).
indexed advanced_index(const array& x, std::span<const index_arg> items);

namespace detail {
template <class... Items>
indexed advanced_index(const array& x, const Items&... items) {
  const index_arg list[] = {index_arg(items)...};
  return jet::advanced_index(x, std::span<const index_arg>(list, sizeof...(Items)));
}
}  // namespace detail

// What take and put do with positions out of bounds: raise jet::index_error (at the next
// synchronization), wrap around, or clip to the ends.
enum class index_mode : std::uint8_t { raise, wrap, clip };

// Elements of `a` at `indices` along `axis` (of the flattened array without one), as
// numpy.take: the result has a's shape with that axis replaced by indices' shape. The indices
// are cast to int64 under 'same_kind' (booleans are 0 and 1; floats raise jet::dtype_error).
indexed take(const array& a, const array& indices, std::optional<std::int64_t> axis = std::nullopt,
             index_mode mode = index_mode::raise);
// numpy.take_along_axis: `indices` has a's number of axes and picks along `axis` (none: of
// the flattened array); the other axes broadcast.
indexed take_along_axis(const array& a, const array& indices, std::optional<std::int64_t> axis);
// numpy.put_along_axis: writes `values` at the positions take_along_axis reads.
void put_along_axis(const array& a, const array& indices, const expr& values,
                    std::optional<std::int64_t> axis);

// ---- NumPy's ufunc.at: unbuffered, so a position that `index` names k times gets k values.
// `values` broadcasts to the shape of a(index) and is cast under the same_kind rule; each
// value is combined into a's element atomically (compare-and-swap where the GPU has no atomic
// for the dtype), in one kernel. An index is what a(...) takes: one item, or a braced list of
// items (`jet::add_at(a, {rows, cols}, v)`). maximum_at and minimum_at propagate NaN as
// NumPy's maximum and minimum do; for complex128 they need a GPU of compute capability 9.0 or
// newer (a 16-byte compare-and-swap) and raise jet::dtype_error on older ones.
void add_at(const array& a, const index_arg& index, const expr& values);
void add_at(const array& a, std::initializer_list<index_arg> index, const expr& values);
void subtract_at(const array& a, const index_arg& index, const expr& values);
void subtract_at(const array& a, std::initializer_list<index_arg> index, const expr& values);
void maximum_at(const array& a, const index_arg& index, const expr& values);
void maximum_at(const array& a, std::initializer_list<index_arg> index, const expr& values);
void minimum_at(const array& a, const index_arg& index, const expr& values);
void minimum_at(const array& a, std::initializer_list<index_arg> index, const expr& values);

// numpy.put: a's elements at the flat positions `indices` (C order) get `values`, repeated
// to indices' length when shorter; `mode` treats positions out of bounds.
void put(const array& a, const array& indices, const expr& values,
         index_mode mode = index_mode::raise);
// numpy.putmask: a's flat element n gets values' flat element n % values.size() where the
// flat mask holds; mask has a's shape. One kernel.
void putmask(const array& a, const expr& mask, const expr& values);

// ---- Where a condition holds. Each result's length is a count on the device, so these wait
// for the GPU once (jet::nonzero(a, size) and jet::extract(c, a, size) do not).

// The positions of a's nonzero (true) elements, one int64 array per axis, in C order.
std::vector<array> nonzero(const expr& a);
// numpy.where(condition) with one argument: jet::nonzero(condition).
std::vector<array> where(const expr& condition);
// The positions as rows: shape (count, a.ndim()).
array argwhere(const expr& a);
// The positions in the flattened array.
array flatnonzero(const expr& a);
// The slices of `a` along `axis` (none: of the flattened array) where the 1-D `condition` is
// nonzero; a condition shorter than the axis leaves out the rest.
array compress(const expr& condition, const array& a,
               std::optional<std::int64_t> axis = std::nullopt);
// The elements of the flattened `a` where the flattened `condition` is nonzero: `a(mask)` for
// a mask of a's shape.
array extract(const expr& condition, const expr& a);

// Without waiting: results of a fixed `size`, as JAX's `size=` gives them. The first
// min(count, size) entries are the ones above and the rest are `fill_value`; `count`, a 0-d
// int64 array on the device, says how many there are in all (it may be above `size`).
struct sized_nonzero {
  std::vector<array> indices;
  array count;
};
sized_nonzero nonzero(const expr& a, std::int64_t size, std::int64_t fill_value = 0);
struct sized_extract {
  array values;
  array count;
};
sized_extract extract(const expr& condition, const expr& a, std::int64_t size,
                      const expr& fill_value = 0);

}  // namespace jet
