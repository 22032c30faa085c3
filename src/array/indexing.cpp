// Advanced indexing: NumPy's rules turned into a gather node (a view of the indexed array over
// the result's shape plus an offset computed from the index arrays) and its scatter.
#include "jet/indexing.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "src/array/assignment.hpp"
#include "src/device/device_errors.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

using detail::node_ptr;

// An advanced item: an integer or an index array, on axis `axis` of x and `view_axis` of the
// view the basic items make.
struct advanced_item {
  int axis = 0, view_axis = 0;
  std::optional<array> positions;
  std::int64_t integer = 0;
};

void check_positions(const array& positions) {
  if (positions.dtype() == bool_)
    throw index_error("boolean index arrays are handled by jet::nonzero first");
  if (!is_integer(positions.dtype()))
    throw index_error("arrays used as indices must be of integer (or boolean) type");
}

// The broadcast shape of the index arrays, in NumPy's words when they do not broadcast.
shape broadcast_positions(const std::vector<advanced_item>& items) {
  shape b;
  for (const advanced_item& it : items)
    if (it.positions) b = broadcast_shapes(b, it.positions->shape());
  return b;
}

shape broadcast_or_raise(const std::vector<advanced_item>& items) {
  try {
    return broadcast_positions(items);
  } catch (const shape_error&) {
    std::string shapes;
    for (const advanced_item& it : items)
      if (it.positions) shapes += (shapes.empty() ? "" : " ") + to_string(it.positions->shape());
    throw index_error(
        "shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
  }
}

// `a` with unit axes added: `before` in front, `after` behind (views, stride 0).
array with_unit_axes(const array& a, int before, int after) {
  shape s, st;
  for (int i = 0; i < before; ++i) s.push_back(1), st.push_back(0);
  for (int d = 0; d < a.ndim(); ++d) s.push_back(a.shape()[d]), st.push_back(a.strides()[d]);
  for (int i = 0; i < after; ++i) s.push_back(1), st.push_back(0);
  return array(a.buffer(), a.dtype(), s, st, a.offset());
}

// positions * stride as an int64 node, each position checked on an axis of `size` by `how`.
node_ptr position_term(const array& positions, std::int64_t size, std::int64_t how,
                       std::int64_t stride) {
  node_ptr term = detail::make_checked_index(detail::make_input(positions), size, how);
  if (stride == 1) return term;
  return detail::make_op(detail::op_code::multiply, std::move(term),
                         detail::make_scalar(detail::to_scalar_value(stride)));
}

node_ptr plus(node_ptr sum, node_ptr term) {
  return sum ? detail::make_op(detail::op_code::add, std::move(sum), std::move(term)) : term;
}

// The items as the basic index of a view, the advanced items recorded with their axes.
array basic_view(const array& x, std::span<const index_arg> items,
                 std::vector<advanced_item>& advanced) {
  int consumed = 0, ellipses = 0;
  for (const index_arg& it : items) {
    const auto k = it.item().what;
    if (it.positions() || k == index_item::kind::integer || k == index_item::kind::range)
      ++consumed;
    if (!it.positions() && k == index_item::kind::rest) ++ellipses;
  }
  if (ellipses > 1) throw index_error("an index can only have a single ellipsis ('...')");
  if (consumed > x.ndim())
    throw index_error("too many indices for array: array is " + std::to_string(x.ndim()) +
                      "-dimensional, but " + std::to_string(consumed) + " were indexed");
  std::vector<index_item> basic;
  int axis = 0, view_axis = 0;
  for (const index_arg& it : items) {
    if (it.positions()) {
      check_positions(*it.positions());
      advanced.push_back({axis++, view_axis++, it.positions(), 0});
      basic.emplace_back(slice());
      continue;
    }
    const index_item& item = it.item();
    switch (item.what) {
      case index_item::kind::integer: {
        const std::int64_t n = x.shape()[axis];
        if (item.integer < -n || item.integer >= n)
          throw index_error(detail::out_of_bounds_text(item.integer, axis, n));
        advanced.push_back({axis++, view_axis++, std::nullopt,
                            item.integer < 0 ? item.integer + n : item.integer});
        basic.emplace_back(slice());
        break;
      }
      case index_item::kind::range: ++axis, ++view_axis, basic.push_back(item); break;
      case index_item::kind::new_axis: ++view_axis, basic.push_back(item); break;
      case index_item::kind::rest: {
        const int rest = x.ndim() - consumed;
        axis += rest;
        view_axis += rest;
        basic.push_back(item);
        break;
      }
    }
  }
  return x.index(basic);
}

// x(items) with each index array's positions checked as on its axis, or by `how` when given
// (make_checked_index).
indexed index_with(const array& x, std::span<const index_arg> items,
                   std::optional<std::int64_t> how) {
  std::vector<advanced_item> advanced;
  const array view = basic_view(x, items, advanced);
  const shape b = broadcast_or_raise(advanced);
  // NumPy puts the broadcast axes where the advanced items are when they are next to each
  // other, else first.
  bool adjacent = true;
  for (std::size_t k = 1; k < advanced.size(); ++k)
    adjacent = adjacent && advanced[k].view_axis == advanced[k - 1].view_axis + 1;
  const int first = adjacent ? advanced.front().view_axis : 0;
  std::vector<bool> is_advanced(static_cast<std::size_t>(view.ndim()));
  for (const advanced_item& it : advanced) is_advanced[it.view_axis] = true;
  shape result, strides;
  auto add_broadcast_axes = [&] {
    for (std::int64_t e : b) result.push_back(e), strides.push_back(0);
  };
  if (!adjacent) add_broadcast_axes();
  std::int64_t offset = view.offset();
  for (int d = 0; d < view.ndim(); ++d) {
    if (adjacent && d == first) add_broadcast_axes();
    if (is_advanced[d]) continue;
    result.push_back(view.shape()[d]);
    strides.push_back(view.strides()[d]);
  }
  const int after = result.size() - first - b.size();
  node_ptr positions;
  for (const advanced_item& it : advanced) {
    const std::int64_t stride = view.strides()[it.view_axis];
    if (!it.positions) {
      offset += it.integer * stride;
      continue;
    }
    const array& p = *it.positions;
    positions = plus(std::move(positions),
                     position_term(with_unit_axes(p, b.size() - p.ndim(), after),
                                   view.shape()[it.view_axis], how.value_or(it.axis), stride));
  }
  return indexed(x, array(view.buffer(), view.dtype(), result, strides, offset),
                 std::move(positions));
}

}  // namespace

indexed advanced_index(const array& x, std::span<const index_arg> items) {
  if (std::none_of(items.begin(), items.end(), [](const index_arg& it) { return it.positions(); }))
    throw internal_error("advanced indexing without an index array");
  return index_with(x, items, std::nullopt);
}

indexed::indexed(array x, array source, detail::node_ptr offset)
    : expr(detail::make_gather(source, offset)),
      x_(std::move(x)),
      source_(std::move(source)),
      offset_(std::move(offset)) {}

void indexed::operator=(const expr& values) && { assign(values); }
void indexed::operator=(const indexed& values) && { assign(values); }
void indexed::operator+=(const expr& e) && { update(*this + e); }
void indexed::operator-=(const expr& e) && { update(*this - e); }
void indexed::operator*=(const expr& e) && { update(*this * e); }
void indexed::operator/=(const expr& e) && { update(*this / e); }
void indexed::operator%=(const expr& e) && { update(*this % e); }
void indexed::operator&=(const expr& e) && { update(*this & e); }
void indexed::operator|=(const expr& e) && { update(*this | e); }
void indexed::operator^=(const expr& e) && { update(*this ^ e); }
void indexed::operator<<=(const expr& e) && { update(*this << e); }
void indexed::operator>>=(const expr& e) && { update(*this >> e); }

void indexed::update(const expr& result) const {
  detail::check_same_kind(*result.node(), x_.dtype());
  assign(result);
}

void indexed::assign(const expr& values) const {
  detail::check_assignable(values.shape(), source_.shape(), x_);
  // Every position is read before any is written, as NumPy's buffered assignment: what reads
  // x's memory is computed first.
  auto staged = [&](const node_ptr& n) {
    return detail::reads_memory_of(*n, x_) ? detail::make_input(array(expr(n))) : n;
  };
  detail::evaluate_scatter(*staged(values.node()), *staged(offset_), source_);
}

expr take(const array& a, const array& indices, std::optional<std::int64_t> axis, index_mode mode) {
  const array source = axis ? a : a.ravel();
  const int d = normalize_axis(axis.value_or(0), source.ndim());
  const std::int64_t n = source.shape()[d];
  if (mode != index_mode::raise && n == 0 && indices.size() > 0)
    throw index_error("cannot do a non-empty take from an empty axes.");
  std::vector<index_arg> items(static_cast<std::size_t>(d), index_arg(slice()));
  items.emplace_back(indices);
  const std::int64_t how = mode == index_mode::wrap   ? detail::index_wraps
                           : mode == index_mode::clip ? detail::index_clips
                                                      : d;
  return index_with(source, items, how);
}

indexed take_along_axis(const array& a, const array& indices, std::optional<std::int64_t> axis) {
  if (!is_integer(indices.dtype())) throw index_error("`indices` must be an integer array");
  if (!axis && indices.ndim() != 1)
    throw value_error("when axis=None, `indices` must have a single dimension.");
  const array source = axis ? a : a.ravel();
  if (indices.ndim() != source.ndim())
    throw value_error("`indices` and `arr` must have the same number of dimensions");
  const int d = normalize_axis(axis.value_or(0), source.ndim());
  shape others = source.shape();
  others[d] = 1;
  shape result = broadcast_shapes(others, indices.shape());
  result[d] = indices.shape()[d];
  shape strides = shape::filled(result.size(), 0);
  for (int k = 0; k < result.size(); ++k)
    if (k != d && source.shape()[k] != 1) strides[k] = source.strides()[k];
  return indexed(source, array(source.buffer(), source.dtype(), result, strides, source.offset()),
                 position_term(indices, source.shape()[d], d, source.strides()[d]));
}

void put_along_axis(const array& a, const array& indices, const expr& values,
                    std::optional<std::int64_t> axis) {
  if (!axis && !a.is_c_contiguous())
    throw value_error("jet::put_along_axis with axis=none writes a C-contiguous array only");
  take_along_axis(a, indices, axis) = values;
}

}  // namespace jet
