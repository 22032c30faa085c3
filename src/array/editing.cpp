// Deleting and inserting (gathers along one axis through host positions), ediff1d and rollaxis,
// and the index arithmetic of unravel_index, ravel_multi_index and choose: elementwise integer
// expressions that report indexes out of bounds through the device error channel.
#include <algorithm>
#include <numeric>
#include <span>
#include <string>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "src/array/assignment.hpp"
#include "src/array/edit_positions.hpp"
#include "src/array/gathers.hpp"
#include "src/array/slices.hpp"
#include "src/device/device_errors.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

using detail::positions;

// The array numpy.delete and numpy.insert edit and its axis: a's own, or the flattened a's one
// axis when none is given.
struct edited {
  array source;
  int axis;
};

edited edited_along(const array& a, std::optional<std::int64_t> axis) {
  if (!axis) return {a.ravel(), 0};
  return {a, normalize_axis(*axis, a.ndim())};
}

positions where_kept(const std::vector<bool>& kept) {
  positions out;
  for (std::size_t i = 0; i < kept.size(); ++i)
    if (kept[i]) out.push_back(static_cast<std::int64_t>(i));
  return out;
}

// A 1-D bool array as NumPy's str() spells it: ' True' and 'False', lines wrapped before 75
// characters, the middle of more than 1000 elements left out.
std::string numpy_str(const std::vector<bool>& mask) {
  const std::size_t n = mask.size();
  const bool summarized = n > 1000;
  std::vector<std::string> words;
  for (std::size_t i = 0; i < n; ++i) {
    if (summarized && i >= 3 && i + 3 < n) {
      if (i == 3) words.emplace_back("...");
      continue;
    }
    words.emplace_back(mask[i] ? " True" : "False");
  }
  std::string s, line = " ";
  for (std::size_t k = 0; k < words.size(); ++k) {
    if (line.size() > 1 && line.size() + words[k].size() > 75) {
      s += line.substr(0, line.find_last_not_of(' ') + 1) + "\n";
      line = " ";
    }
    line += words[k];
    if (k + 1 < words.size()) line += ' ';
  }
  return "[" + (s + line).substr(1) + "]";
}

// An index array given to numpy.delete or numpy.insert as `obj`, on the host (this waits for
// the GPU): integers, which must be the array's dtype kind (NumPy's IndexError otherwise).
std::vector<std::int64_t> host_indices(const array& obj) {
  if (!is_integer(obj.dtype()))
    throw index_error("arrays used as indices must be of integer (or boolean) type");
  return obj.to_vector<std::int64_t>();
}

// `v` with unit axes in front up to `ndim` axes (NumPy's ndmin), or without those beyond `ndim`
// (which NumPy's assignment ignores): views.
array with_leading_axes(array v, int ndim) {
  while (v.ndim() < ndim) v = v.expand_dims(0);
  return v;
}
array without_leading_axes(array v, int ndim) {
  while (v.ndim() > ndim && v.shape()[0] == 1) v = v.squeeze(0);
  return v;
}

// numpy.insert's result: `values` (broadcast to `slices`, the inserted slices along `axis`)
// where plan.from_values reads them, `source` elsewhere, in source's dtype.
expr assemble(const array& source, int axis, const expr& values, const shape& slices,
              const detail::insertion& plan) {
  if (slices[axis] == 0) return expr(source);
  const std::int64_t n = source.shape()[axis];
  const array from_values = asarray(plan.from_values);
  // A 0-d value is broadcast by the where, unless nothing of source is there to give the shape.
  const expr inserted =
      values.ndim() == 0 && n > 0
          ? values.astype(source.dtype())
          : detail::gather_along(detail::as_array(values).broadcast_to(slices), axis, from_values)
                .astype(source.dtype());
  if (n == 0) return inserted;
  // Each side's positions are -1 where the other side is read: its last slice, which the
  // where drops.
  const expr is_inserted = expr(detail::along_axis(from_values, axis, source.ndim())) >= 0;
  return where(is_inserted, inserted, detail::gather_along(source, axis, plan.from_a));
}

// numpy.insert at one index, spelled as NumPy's error spells it (`12`, or `[12]` for a list of
// one). Only a scalar index moves the values' first axis to `axis`.
expr insert_at(const array& a, std::int64_t index, const std::string& spelled, const expr& values,
               std::optional<std::int64_t> axis, bool scalar_index) {
  const auto [source, d] = edited_along(a, axis);
  const std::int64_t n = source.shape()[d];
  if (index < -n || index > n)
    throw index_error("index " + spelled + " is out of bounds for axis " + std::to_string(d) +
                      " with size " + std::to_string(n));
  shape slices = source.shape();
  slices[d] = 1;
  expr fitted = values;
  if (values.ndim() > 0) {
    array v = with_leading_axes(detail::as_array(values), source.ndim());
    if (scalar_index) v = moveaxis(v, 0, d);
    slices[d] = v.shape()[d];
    v = without_leading_axes(v, source.ndim());
    if (!detail::broadcasts_to(v.shape(), slices))
      throw shape_error("could not broadcast input array from shape " + to_string(v.shape()) +
                        " into shape " + to_string(slices));
    fitted = v;
  }
  return assemble(source, d, fitted, slices,
                  detail::insert_positions(n, index < 0 ? index + n : index, slices[d]));
}

// NumPy's error when two inserted slices meet (see insert_positions), so that fewer positions
// than the original has would read it.
void check_reads_all(const detail::insertion& plan, const shape& s, int axis) {
  const auto reading = std::count(plan.from_values.begin(), plan.from_values.end(), -1);
  if (reading == s[axis]) return;
  if (s.size() == 1)
    throw value_error("NumPy boolean array indexing assignment cannot assign " +
                      std::to_string(s[0]) + " input values to the " + std::to_string(reading) +
                      " output values where the mask is true");
  shape selected = s;
  selected[axis] = reading;
  throw shape_error("shape mismatch: value array of shape " + to_string(s) +
                    " could not be broadcast to indexing result of shape " + to_string(selected));
}

// numpy.ediff1d's check of a part it joins to the differences.
void check_joined(const std::optional<expr>& part, const char* name, dtype t) {
  if (part && !detail::same_kind(part->dtype(), t))
    throw dtype_error(std::string("dtype of `") + name +
                      "` must be compatible with input `ary` under the `same_kind` rule.");
}

// Integer or bool indexes, which NumPy takes as intp ('same_kind'), or its TypeError.
void check_integer(dtype t) {
  if (!is_integer(t) && t != bool_) throw dtype_error("only int indices permitted");
}

// `index` as a position in [0, size), one outside (negatives too) reported as `how` says.
expr strict_position(const expr& index, std::int64_t size, std::int64_t how) {
  return expr(detail::make_checked_index(index.astype(uint64).node(), size, how));
}

// `index` as a position in [0, size) by `mode`; raise mode reports as `how` says.
expr position(const expr& index, std::int64_t size, index_mode mode, std::int64_t how) {
  if (mode == index_mode::raise) return strict_position(index, size, how);
  const std::int64_t wraps_or_clips =
      mode == index_mode::wrap ? detail::index_wraps : detail::index_clips;
  return expr(detail::make_checked_index(index.astype(int64).node(), size, wraps_or_clips));
}

// The size of `dims`, checked as numpy.unravel_index checks it (0 at the first extent 0).
std::int64_t flat_size(const shape& dims) {
  std::int64_t size = 1;
  for (std::int64_t extent : dims) {
    if (extent == 0) return 0;
    if (__builtin_mul_overflow(size, extent, &size))
      throw value_error(
          "dimensions are too large; arrays and shapes with a total size greater than 'intp' are "
          "not supported.");
  }
  return size;
}

// The element strides of an array of shape `dims` laid out in `order`, checked as
// numpy.ravel_multi_index checks them.
shape strides_of(const shape& dims, index_order order) {
  shape strides = shape::filled(dims.size(), 0);
  std::int64_t size = 1;
  for (int k = 0; k < dims.size(); ++k) {
    const int d = order == index_order::C ? dims.size() - 1 - k : k;
    strides[d] = size;
    if (__builtin_mul_overflow(size, dims[d], &size))
      throw value_error(
          "invalid dims: array size defined by dims is larger than the maximum possible size.");
  }
  return strides;
}

// The shape the coordinates broadcast to, or NumPy's error naming them all.
shape broadcast_coordinates(std::span<const expr> coordinates) {
  shape b;
  try {
    for (const expr& c : coordinates) b = broadcast_shapes(b, c.shape());
  } catch (const shape_error&) {
    std::string shapes;
    for (const expr& c : coordinates) shapes += (shapes.empty() ? "" : " ") + to_string(c.shape());
    throw shape_error("operands could not be broadcast together with shapes " + shapes);
  }
  return b;
}

// The dtype NumPy converts the choices to: the promoted dtype of the arrays and expressions,
// which the weak scalars (C++ scalars) keep unless they are of a higher kind (NEP 50).
dtype common_dtype(std::span<const expr> choices) {
  std::optional<dtype> strong;
  weak_kind weak = weak_kind::none;
  for (const expr& e : choices) {
    const detail::node& n = *e.node();
    if (n.is_weak())
      weak = std::max(weak, n.scalar().kind);
    else
      strong = strong ? promote_types(*strong, n.type) : n.type;
  }
  return strong ? promote_weak(*strong, weak) : default_dtype(weak);
}

}  // namespace

detail::positions detail::kept_positions(std::int64_t n, const std::vector<std::int64_t>& indices) {
  std::vector<bool> kept(static_cast<std::size_t>(n), true);
  for (std::int64_t i : indices) {
    if (i < -n || i >= n) throw index_error(out_of_bounds_text(i, 0, n));
    kept[static_cast<std::size_t>(i < 0 ? i + n : i)] = false;
  }
  return where_kept(kept);
}

detail::positions detail::kept_unmasked(std::int64_t n, const std::vector<bool>& mask) {
  if (static_cast<std::int64_t>(mask.size()) != n) throw value_error(delete_mask_text(n));
  std::vector<bool> kept(mask.size());
  for (std::size_t i = 0; i < mask.size(); ++i) kept[i] = !mask[i];
  return where_kept(kept);
}

std::string detail::delete_mask_text(std::int64_t n) {
  return "boolean array argument obj to delete must be one dimensional and match the axis "
         "length of " +
         std::to_string(n);
}

detail::positions detail::kept_positions(std::int64_t n, const slice& s) {
  const auto [start, length] = resolve_slice(s, n);
  std::vector<bool> kept(static_cast<std::size_t>(n), true);
  for (std::int64_t k = 0; k < length; ++k)
    kept[static_cast<std::size_t>(start + k * s.step)] = false;
  return where_kept(kept);
}

detail::insertion detail::insert_positions(std::int64_t n, std::int64_t index, std::int64_t count) {
  insertion out;
  for (std::int64_t j = 0; j < n + count; ++j) {
    const bool inserted = j >= index && j < index + count;
    out.from_a.push_back(inserted ? -1 : j < index ? j : j - count);
    out.from_values.push_back(inserted ? j - index : -1);
  }
  return out;
}

detail::insertion detail::insert_positions(std::int64_t n,
                                           const std::vector<std::int64_t>& indices) {
  const auto count = static_cast<std::int64_t>(indices.size());
  const std::int64_t m = n + count;
  positions at;
  for (std::int64_t i : indices) at.push_back(i < 0 ? i + n : i);
  // Each moves past the slices inserted before it, in NumPy's stable order of the positions.
  std::vector<std::size_t> order(at.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t x, std::size_t y) { return at[x] < at[y]; });
  for (std::size_t r = 0; r < order.size(); ++r) at[order[r]] += static_cast<std::int64_t>(r);
  insertion out{positions(static_cast<std::size_t>(m), -1),
                positions(static_cast<std::size_t>(m), -1)};
  for (std::int64_t k = 0; k < count; ++k) {
    const std::int64_t p = at[static_cast<std::size_t>(k)];
    if (p < -m || p >= m) throw index_error(out_of_bounds_text(p, 0, m));
    out.from_values[static_cast<std::size_t>(p < 0 ? p + m : p)] = k;  // the last of two wins
  }
  std::int64_t next = 0;
  for (std::int64_t j = 0; j < m; ++j)
    if (out.from_values[static_cast<std::size_t>(j)] < 0)
      out.from_a[static_cast<std::size_t>(j)] = next++;
  return out;
}

expr delete_(const array& a, std::int64_t index, std::optional<std::int64_t> axis) {
  const auto [source, d] = edited_along(a, axis);
  const std::int64_t n = source.shape()[d];
  if (index < -n || index >= n) throw index_error(detail::out_of_bounds_text(index, d, n));
  return detail::gather_along(source, d, detail::kept_positions(n, {index}));
}

expr delete_(const array& a, const std::vector<std::int64_t>& indices,
             std::optional<std::int64_t> axis) {
  if (indices.size() == 1) return delete_(a, indices[0], axis);  // NumPy's path for one index
  const auto [source, d] = edited_along(a, axis);
  return detail::gather_along(source, d, detail::kept_positions(source.shape()[d], indices));
}

expr delete_(const array& a, std::initializer_list<std::int64_t> indices,
             std::optional<std::int64_t> axis) {
  return delete_(a, std::vector<std::int64_t>(indices), axis);
}

expr delete_(const array& a, slice s, std::optional<std::int64_t> axis) {
  const auto [source, d] = edited_along(a, axis);
  return detail::gather_along(source, d, detail::kept_positions(source.shape()[d], s));
}

expr delete_(const array& a, const std::vector<bool>& mask, std::optional<std::int64_t> axis) {
  const auto [source, d] = edited_along(a, axis);
  return detail::gather_along(source, d, detail::kept_unmasked(source.shape()[d], mask));
}

expr delete_(const array& a, const array& obj, std::optional<std::int64_t> axis) {
  if (obj.dtype() == bool_) {
    if (obj.ndim() != 1) {
      const auto [source, d] = edited_along(a, axis);
      throw value_error(detail::delete_mask_text(source.shape()[d]));
    }
    return delete_(a, obj.to_vector<bool>(), axis);
  }
  return delete_(a, host_indices(obj), axis);
}

expr insert(const array& a, std::int64_t index, const expr& values,
            std::optional<std::int64_t> axis) {
  return insert_at(a, index, std::to_string(index), values, axis, true);
}

expr insert(const array& a, const std::vector<std::int64_t>& indices, const expr& values,
            std::optional<std::int64_t> axis) {
  if (indices.size() == 1)  // NumPy's path for one index, without moving the values' axes
    return insert_at(a, indices[0], "[" + std::to_string(indices[0]) + "]", values, axis, false);
  const auto [source, d] = edited_along(a, axis);
  const detail::insertion plan = detail::insert_positions(source.shape()[d], indices);
  shape slices = source.shape();
  slices[d] = static_cast<std::int64_t>(indices.size());
  expr fitted = values;
  if (values.ndim() > 0) {
    const array v = without_leading_axes(detail::as_array(values), source.ndim());
    if (!detail::broadcasts_to(v.shape(), slices))
      throw shape_error("shape mismatch: value array of shape " + to_string(values.shape()) +
                        " could not be broadcast to indexing result of shape " + to_string(slices));
    fitted = v;
  }
  check_reads_all(plan, source.shape(), d);
  return assemble(source, d, fitted, slices, plan);
}

expr insert(const array& a, std::initializer_list<std::int64_t> indices, const expr& values,
            std::optional<std::int64_t> axis) {
  return insert(a, std::vector<std::int64_t>(indices), values, axis);
}

expr insert(const array& a, slice s, const expr& values, std::optional<std::int64_t> axis) {
  const auto [source, d] = edited_along(a, axis);
  const auto [start, length] = detail::resolve_slice(s, source.shape()[d]);
  std::vector<std::int64_t> indices;
  for (std::int64_t k = 0; k < length; ++k) indices.push_back(start + k * s.step);
  return insert(a, indices, values, axis);
}

expr insert(const array& a, const std::vector<bool>& mask, const expr& values,
            std::optional<std::int64_t> axis) {
  // NumPy 2 inserts before the positions where the mask holds; one position takes the path of
  // a list of one, whose error spells the mask.
  const positions at = where_kept(mask);
  if (at.size() == 1) return insert_at(a, at[0], numpy_str(mask), values, axis, false);
  return insert(a, at, values, axis);
}

expr insert(const array& a, const array& obj, const expr& values,
            std::optional<std::int64_t> axis) {
  if (obj.dtype() == bool_) {
    if (obj.ndim() != 1)
      throw value_error("boolean array argument obj to insert must be one dimensional");
    return insert(a, obj.to_vector<bool>(), values, axis);
  }
  if (obj.ndim() > 1)
    throw value_error("index array argument obj to insert must be one dimensional or scalar");
  if (!is_integer(obj.dtype()) && obj.size() == 1)
    throw dtype_error("slice indices must be integers or None or have an __index__ method");
  const std::vector<std::int64_t> indices = host_indices(obj);
  return obj.ndim() == 0 ? insert(a, indices[0], values, axis) : insert(a, indices, values, axis);
}

expr ediff1d(const array& a, const std::optional<expr>& to_end,
             const std::optional<expr>& to_begin) {
  const array flat = a.ravel();
  auto differences = [&] { return flat(slice(1, none)) - flat(slice(none, -1)); };
  if (!to_end && !to_begin) return differences();
  check_joined(to_begin, "to_begin", a.dtype());
  check_joined(to_end, "to_end", a.dtype());
  std::vector<expr> joined;
  if (to_begin) joined.push_back(*to_begin);
  joined.push_back(differences());
  if (to_end) joined.push_back(*to_end);
  return concatenate(joined, std::nullopt, a.dtype());
}

array rollaxis(const array& a, std::int64_t axis, std::int64_t start) {
  const int n = a.ndim();
  const int d = normalize_axis(axis, n);
  if (start < 0) start += n;
  if (start < 0 || start > n)
    throw index_error("'start' arg requires " + std::to_string(-n) + " <= start < " +
                      std::to_string(n + 1) + ", but " + std::to_string(start) + " was passed in");
  return moveaxis(a, d, d < start ? start - 1 : start);
}

std::vector<expr> unravel_index(const expr& indices, const shape& dims, index_order order) {
  const std::int64_t size = flat_size(dims);
  check_integer(indices.dtype());
  if (dims.empty()) {
    if (indices.ndim() > 0) throw value_error("multiple indices are not supported for 0d arrays");
    return {};
  }
  const expr flat = strict_position(indices, size, detail::index_in_flat_array);
  // An extent of 0 leaves no index in bounds: each coordinate is the index that reports it.
  if (size == 0) return std::vector<expr>(static_cast<std::size_t>(dims.size()), flat);
  const shape strides = strides_of(dims, order);
  std::vector<expr> out;
  for (int d = 0; d < dims.size(); ++d) out.push_back(floor_divide(flat, strides[d]) % dims[d]);
  return out;
}

expr ravel_multi_index(const parts& multi_index, const shape& dims, index_mode mode,
                       index_order order) {
  return ravel_multi_index(multi_index, dims,
                           std::vector<index_mode>(static_cast<std::size_t>(dims.size()), mode),
                           order);
}

expr ravel_multi_index(const parts& multi_index, const shape& dims,
                       const std::vector<index_mode>& modes, index_order order) {
  const std::span<const expr> coordinates = multi_index.items();
  const auto axes = static_cast<std::size_t>(dims.size());
  if (modes.size() != axes)
    throw value_error("list of clipmodes has wrong length (" + std::to_string(modes.size()) +
                      " instead of " + std::to_string(axes) + ")");
  const shape strides = strides_of(dims, order);
  if (coordinates.size() != axes)
    throw value_error("parameter multi_index must be a sequence of length " + std::to_string(axes));
  for (const expr& c : coordinates) check_integer(c.dtype());
  const shape b = broadcast_coordinates(coordinates);
  if (b.product() > 0 && std::find(dims.begin(), dims.end(), 0) != dims.end())
    throw value_error("cannot unravel if shape has zero entries (is empty).");
  expr flat = expr(0).astype(int64);  // the flat index of no coordinates, as NumPy's
  for (std::size_t d = 0; d < axes; ++d) {
    const int axis = static_cast<int>(d);
    flat = flat + position(coordinates[d], dims[axis], modes[d], detail::index_in_coordinates) *
                      strides[axis];
  }
  return flat;
}

expr choose(const expr& indices, const parts& choices, index_mode mode) {
  const std::span<const expr> c = choices.items();
  if (c.empty()) throw value_error("0-length sequence.");
  if (!can_cast(indices.dtype(), int64))
    throw dtype_error("Cannot cast array data from dtype('" + std::string(name(indices.dtype())) +
                      "') to dtype('int64') according to the rule 'safe'");
  if (c.size() > 63) throw value_error("Need at least 0 and at most 64 array objects.");
  std::vector<shape> shapes;  // as NumPy's broadcast takes them: the choices, then the indices
  for (const expr& e : c) shapes.push_back(e.shape());
  shapes.push_back(indices.shape());
  detail::check_broadcast_objects(shapes);
  const expr k =
      position(indices, static_cast<std::int64_t>(c.size()), mode, detail::index_in_choices);
  // A chain of wheres on k, which fuses with the choices and with what reads the result. The
  // choices are cast as NumPy's are, unsafely: a weak 500 among int8 choices is -12.
  const dtype t = common_dtype(c);
  expr out = c.back().astype(t);
  for (std::size_t j = c.size() - 1; j-- > 0;)
    out = where(k == static_cast<std::int64_t>(j), c[j].astype(t), out);
  // One choice makes no where: one is added for k's check and shape.
  return c.size() == 1 ? where(k == 0, out, out) : out;
}

}  // namespace jet
