// Advanced indexing: x(idx) with integer index arrays, NumPy's rules in full, as a lazy gather
// that fuses into what reads it; assigning to it writes x through the same positions; and
// NumPy's functions built on it (take, take_along_axis, put_along_axis).
#pragma once

#include <concepts>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

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
class indexed : public expr {
 public:
  // For Jet's runtime: `x` read through `source`, a view of x's memory over the result's shape,
  // at each element's position plus `offset` (an int64 node of elements).
  indexed(array x, array source, detail::node_ptr offset);

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
  void update(const expr& result) const;
  void assign(const expr& values) const;
  array x_;       // the indexed array
  array source_;  // x's memory over the result's shape
  detail::node_ptr offset_;
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
// numpy.take: the result has a's shape with that axis replaced by indices' shape.
expr take(const array& a, const array& indices, std::optional<std::int64_t> axis = std::nullopt,
          index_mode mode = index_mode::raise);
// numpy.take_along_axis: `indices` has a's number of axes and picks along `axis` (none: of
// the flattened array); the other axes broadcast.
indexed take_along_axis(const array& a, const array& indices, std::optional<std::int64_t> axis);
// numpy.put_along_axis: writes `values` at the positions take_along_axis reads.
void put_along_axis(const array& a, const array& indices, const expr& values,
                    std::optional<std::int64_t> axis);

}  // namespace jet
