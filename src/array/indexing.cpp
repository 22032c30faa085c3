// Advanced indexing: NumPy's rules turned into a gather node (a view of the indexed array over
// the result's shape plus an offset computed from the index arrays) and its scatter.
#include "jet/indexing.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "src/array/assignment.hpp"
#include "src/device/device_errors.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

using detail::node_ptr;

// An advanced item: an integer or an index array, on axis `axis` of x and `view_axis` of the
// view the basic items make; `group` counts the basic items before it (advanced items are
// next to each other when they share it, as NumPy has them: an ellipsis of no axes between
// two keeps them apart).
struct advanced_item {
  int axis = 0, view_axis = 0;
  std::optional<array> positions;
  std::int64_t integer = 0;
  int group = 0;
};

bool is_mask(const array& positions) { return positions.dtype() == bool_; }

void check_positions(const array& positions) {
  if (!is_integer(positions.dtype()) && !is_mask(positions))
    throw index_error("arrays used as indices must be of integer (or boolean) type");
}

// A mask's shape against the axes of x it covers, from `axis` on.
void check_mask(const array& mask, const array& x, int axis) {
  for (int j = 0; j < mask.ndim(); ++j)
    if (mask.shape()[j] != x.shape()[axis + j])
      throw index_error(
          "boolean index did not match indexed array along axis " + std::to_string(axis + j) +
          "; size of axis is " + std::to_string(x.shape()[axis + j]) +
          " but size of corresponding boolean axis is " + std::to_string(mask.shape()[j]));
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
      if (it.positions && it.positions->ndim() > 0)  // NumPy counts 0-d arrays as integers
        shapes += (shapes.empty() ? "" : " ") + to_string(it.positions->shape());
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

// How many of x's axes an item takes: a mask as many as it has.
int axes_taken(const index_arg& it) {
  if (it.positions()) return is_mask(*it.positions()) ? it.positions()->ndim() : 1;
  const auto k = it.item().what;
  return k == index_item::kind::integer || k == index_item::kind::range ? 1 : 0;
}

// Records an index array at x's `axis` and the view's `view_axis`, advancing both: a mask over
// as many axes as it has (one new axis for a 0-d mask), with its positions left to
// with_mask_positions.
void add_positions(const array& p, const array& x, int& axis, int& view_axis,
                   std::vector<advanced_item>& advanced, std::vector<index_item>& basic) {
  check_positions(p);
  if (is_mask(p)) check_mask(p, x, axis);
  advanced.push_back({axis, view_axis, p, 0, 0});
  const int axes = is_mask(p) ? std::max(p.ndim(), 1) : 1;
  for (int j = 0; j < axes; ++j)
    basic.emplace_back(is_mask(p) && p.ndim() == 0 ? index_item(newaxis) : index_item(slice()));
  axis += is_mask(p) ? p.ndim() : 1;
  view_axis += axes;
}

// The items as the basic index of a view, the advanced items recorded with their axes.
array basic_view(const array& x, std::span<const index_arg> items,
                 std::vector<advanced_item>& advanced) {
  int consumed = 0, ellipses = 0;
  for (const index_arg& it : items) {
    consumed += axes_taken(it);
    if (!it.positions() && it.item().what == index_item::kind::rest) ++ellipses;
  }
  if (ellipses > 1) throw index_error("an index can only have a single ellipsis ('...')");
  if (consumed > x.ndim())
    throw index_error("too many indices for array: array is " + std::to_string(x.ndim()) +
                      "-dimensional, but " + std::to_string(consumed) + " were indexed");
  std::vector<index_item> basic;
  int axis = 0, view_axis = 0, group = 0;
  for (const index_arg& it : items) {
    if (it.positions()) {
      add_positions(*it.positions(), x, axis, view_axis, advanced, basic);
      advanced.back().group = group;
      continue;
    }
    const index_item& item = it.item();
    switch (item.what) {
      case index_item::kind::integer: {
        const std::int64_t n = x.shape()[axis];
        if (item.integer < -n || item.integer >= n)
          throw index_error(detail::out_of_bounds_text(item.integer, axis, n));
        advanced.push_back({axis++, view_axis++, std::nullopt,
                            item.integer < 0 ? item.integer + n : item.integer, group});
        basic.emplace_back(slice());
        break;
      }
      case index_item::kind::range: ++group, ++axis, ++view_axis, basic.push_back(item); break;
      case index_item::kind::new_axis: ++group, ++view_axis, basic.push_back(item); break;
      case index_item::kind::rest: {
        const int rest = x.ndim() - consumed;
        ++group;
        axis += rest;
        view_axis += rest;
        basic.push_back(item);
        break;
      }
    }
  }
  return x.index(basic);
}

// The advanced items with each mask replaced by its positions (jet::nonzero's), one array per
// axis it covers: this waits for the GPU's count.
std::vector<advanced_item> with_mask_positions(const std::vector<advanced_item>& advanced) {
  std::vector<advanced_item> out;
  for (const advanced_item& it : advanced) {
    if (!it.positions || !is_mask(*it.positions)) {
      out.push_back(it);
      continue;
    }
    const array& mask = *it.positions;
    if (mask.ndim() == 0) {
      out.push_back(
          {it.axis, it.view_axis, zeros({mask.item<bool>() ? 1 : 0}, int64), 0, it.group});
      continue;
    }
    const std::vector<array> rows = nonzero(mask);
    for (int j = 0; j < mask.ndim(); ++j)
      out.push_back({it.axis + j, it.view_axis + j, rows[j], 0, it.group});
  }
  return out;
}

// x(items) with each index array's positions checked as on its axis, or by `how` when given
// (make_checked_index).
indexed index_with(const array& x, std::span<const index_arg> items,
                   std::optional<std::int64_t> how) {
  std::vector<advanced_item> found;
  const array view = basic_view(x, items, found);
  const std::vector<advanced_item> advanced = with_mask_positions(found);
  const shape b = broadcast_or_raise(advanced);
  // NumPy puts the broadcast axes where the advanced items are when they are next to each
  // other, else first.
  bool adjacent = true;
  for (std::size_t k = 1; k < advanced.size(); ++k)
    adjacent = adjacent && advanced[k].group == advanced[k - 1].group;
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

// `n` computed first when it reads x's memory: every position is read before any is written,
// as NumPy's buffered assignment.
node_ptr staged(const node_ptr& n, const array& x) {
  return detail::reads_memory_of(*n, x) ? detail::make_input(array(expr(n))) : n;
}

// `values` lined up with the view a mask indexes (the mask's `k` axes from `at`), when it
// broadcasts to what the mask selects without needing the count: it has no axis on the
// count's, or one of extent 1. None otherwise.
std::optional<expr> lined_up(const expr& values, const shape& view, int at, int k) {
  const int tail = view.size() - at - k;
  const int count_axis = values.ndim() - tail - 1;
  if (count_axis < 0)
    return detail::broadcasts_to(values.shape(), view) ? std::optional(values) : std::nullopt;
  if (values.shape()[count_axis] != 1) return std::nullopt;
  shape s;
  for (int d = 0; d < values.ndim(); ++d)
    if (d != count_axis)
      s.push_back(values.shape()[d]);
    else
      for (int j = 0; j < k; ++j) s.push_back(1);
  if (count_axis > at || !detail::broadcasts_to(s, view)) return std::nullopt;
  return detail::as_array(values).reshape(s);
}

// x(items) = values, or `op` of them and what is there, as one kernel writing x where the one
// mask among the items holds. False, doing nothing, when that needs the mask's count: other
// index arrays or integers among the items, or values with one value per selected element.
bool store_masked(const array& x, std::span<const index_arg> items, const expr& values,
                  expr (*op)(const expr&, const expr&)) {
  std::vector<advanced_item> advanced;
  array view = basic_view(x, items, advanced);
  if (advanced.size() != 1 || !advanced[0].positions || advanced[0].positions->ndim() == 0)
    return false;
  const array& mask = *advanced[0].positions;
  const int at = advanced[0].view_axis;
  const std::optional<expr> v = lined_up(values, view.shape(), at, mask.ndim());
  if (!v) return false;
  const expr result = op ? op(view, *v) : *v;
  if (op) detail::check_same_kind(*result.node(), x.dtype());
  const array where_true = with_unit_axes(mask, 0, view.ndim() - at - mask.ndim());
  std::move(view) = where(where_true, result.astype(x.dtype()), view);
  return true;
}

// What x(mask) reads: a compaction when the mask covers x, else the gather of its positions.
node_ptr read_masked(const array& x, const std::vector<index_arg>& items) {
  if (items.size() == 1 && x.ndim() > 0 && items[0].positions()->shape() == x.shape())
    return detail::make_input(extract(*items[0].positions(), x));
  return index_with(x, items, std::nullopt).node();
}

}  // namespace

indexed advanced_index(const array& x, std::span<const index_arg> items) {
  auto has_array = [](const index_arg& it) { return it.positions().has_value(); };
  if (std::none_of(items.begin(), items.end(), has_array))
    throw internal_error("advanced indexing without an index array");
  auto has_mask = [](const index_arg& it) { return it.positions() && is_mask(*it.positions()); };
  if (std::any_of(items.begin(), items.end(), has_mask)) {
    std::vector<advanced_item> checked;  // NumPy's errors now, before the mask is counted
    basic_view(x, items, checked);
    return indexed(x, std::vector<index_arg>(items.begin(), items.end()));
  }
  return index_with(x, items, std::nullopt);
}

indexed::indexed(array x, array source, detail::node_ptr offset)
    : expr(detail::make_gather(source, offset)),
      x_(std::move(x)),
      source_(std::move(source)),
      offset_(std::move(offset)) {}

indexed::indexed(array x, std::vector<index_arg> items)
    : expr(std::make_shared<detail::deferred_node>([x, items] { return read_masked(x, items); })),
      x_(std::move(x)),
      items_(std::move(items)) {}

void indexed::operator=(const expr& values) && { assign(values); }
void indexed::operator=(const indexed& values) && { assign(values); }
void indexed::operator+=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a + b; }, e);
}
void indexed::operator-=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a - b; }, e);
}
void indexed::operator*=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a * b; }, e);
}
void indexed::operator/=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a / b; }, e);
}
void indexed::operator%=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a % b; }, e);
}
void indexed::operator&=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a & b; }, e);
}
void indexed::operator|=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a | b; }, e);
}
void indexed::operator^=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a ^ b; }, e);
}
void indexed::operator<<=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a << b; }, e);
}
void indexed::operator>>=(const expr& e) && {
  update([](const expr& a, const expr& b) { return a >> b; }, e);
}

void indexed::combine(detail::scatter_op op, const expr& values) const {
  if (!items_.empty()) {
    index_with(x_, items_, std::nullopt).combine(op, values);
    return;
  }
  detail::check_assignable(values.shape(), source_.shape(), x_);
  const expr current(source_);
  detail::check_same_kind(
      *(op == detail::scatter_op::add ? current + values : maximum(current, values)).node(),
      x_.dtype());
  if (x_.dtype() == complex128 && op != detail::scatter_op::add && device::available() &&
      device::current().major < 9)
    throw dtype_error(std::string(op == detail::scatter_op::maximum ? "maximum" : "minimum") +
                      "_at of complex128 needs a 16-byte compare-and-swap, which GPUs of compute "
                      "capability 9.0 and newer have; this one is " +
                      std::to_string(device::current().major) + "." +
                      std::to_string(device::current().minor));
  detail::evaluate_scatter(*staged(values.node(), x_), *staged(offset_, x_), source_, op);
}

void indexed::update(combiner op, const expr& values) const {
  if (!items_.empty()) {
    if (!store_masked(x_, items_, values, op))
      index_with(x_, items_, std::nullopt).update(op, values);
    return;
  }
  const expr result = op(*this, values);
  detail::check_same_kind(*result.node(), x_.dtype());
  assign(result);
}

void indexed::assign(const expr& values) const {
  if (!items_.empty()) {
    if (!store_masked(x_, items_, values, nullptr))
      index_with(x_, items_, std::nullopt).assign(values);
    return;
  }
  detail::check_assignable(values.shape(), source_.shape(), x_);
  detail::evaluate_scatter(*staged(values.node(), x_), *staged(offset_, x_), source_);
}

indexed take(const array& a, const array& indices, std::optional<std::int64_t> axis,
             index_mode mode) {
  const array source = axis ? a : a.ravel();
  const int d = normalize_axis(axis.value_or(0), source.ndim());
  // NumPy casts the indices to int64 under 'same_kind': booleans are 0 and 1, not a mask.
  detail::check_same_kind_cast(indices.dtype(), int64);
  if (source.shape()[d] == 0 && indices.size() > 0)
    throw index_error("cannot do a non-empty take from an empty axes.");
  std::vector<index_arg> items(static_cast<std::size_t>(d), index_arg(slice()));
  items.emplace_back(indices.dtype() == bool_ ? indices.astype(int64) : indices);
  const std::int64_t how = mode == index_mode::wrap   ? detail::index_wraps
                           : mode == index_mode::clip ? detail::index_clips
                                                      : d;
  return index_with(source, items, how);
}

indexed take_along_axis(const array& a, const array& indices, std::optional<std::int64_t> axis) {
  const int d = axis ? normalize_axis(*axis, a.ndim()) : 0;
  if (!axis && indices.ndim() != 1)
    throw value_error("when axis=None, `indices` must have a single dimension.");
  if (!is_integer(indices.dtype())) throw index_error("`indices` must be an integer array");
  const array source = axis ? a : a.ravel();
  if (indices.ndim() != source.ndim())
    throw value_error("`indices` and `arr` must have the same number of dimensions");
  shape others = source.shape();
  others[d] = 1;
  shape result;
  try {
    result = broadcast_shapes(others, indices.shape());
  } catch (const shape_error&) {
    // NumPy's message lists what it indexes with, axis by axis: aranges and the indices.
    std::string shapes;
    for (int k = 0; k < source.ndim(); ++k) {
      shape along = shape::filled(source.ndim(), 1);
      along[k] = source.shape()[k];
      shapes += (k ? " " : "") + to_string(k == d ? indices.shape() : along);
    }
    throw index_error(
        "shape mismatch: indexing arrays could not be broadcast together with shapes " + shapes);
  }
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
