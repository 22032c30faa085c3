// Views: basic indexing, transposes, reshapes, squeezes, broadcasts. None copies data.
#include <algorithm>
#include <numeric>
#include <string>

#include "jet/array.hpp"
#include "jet/error.hpp"
#include "src/array/slices.hpp"
#include "src/device/device_errors.hpp"

namespace jet {

bool array::is_c_contiguous() const {
  std::int64_t expected = 1;
  for (int d = ndim() - 1; d >= 0; --d) {
    if (shape_[d] == 1) continue;
    if (shape_[d] == 0) return true;
    if (strides_[d] != expected) return false;
    expected *= shape_[d];
  }
  return true;
}

bool array::is_f_contiguous() const {
  std::int64_t expected = 1;
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] == 1) continue;
    if (shape_[d] == 0) return true;
    if (strides_[d] != expected) return false;
    expected *= shape_[d];
  }
  return true;
}

array array::index(std::span<const index_item> items) const {
  int consumed = 0, ellipses = 0;
  for (const index_item& it : items) {
    if (it.what == index_item::kind::integer || it.what == index_item::kind::range) ++consumed;
    if (it.what == index_item::kind::rest) ++ellipses;
  }
  if (ellipses > 1) throw index_error("an index can only have a single ellipsis ('...')");
  if (consumed > ndim())
    throw index_error("too many indices for array: array is " + std::to_string(ndim()) +
                      "-dimensional, but " + std::to_string(consumed) + " were indexed");
  jet::shape new_shape, new_strides;
  std::int64_t offset = offset_;
  int axis = 0;
  auto keep_axes = [&](int count) {
    for (int i = 0; i < count; ++i, ++axis) {
      new_shape.push_back(shape_[axis]);
      new_strides.push_back(strides_[axis]);
    }
  };
  for (const index_item& it : items) {
    switch (it.what) {
      case index_item::kind::integer: {
        const std::int64_t n = shape_[axis];
        if (it.integer < -n || it.integer >= n)
          throw index_error(detail::out_of_bounds_text(it.integer, axis, n));
        offset += (it.integer < 0 ? it.integer + n : it.integer) * strides_[axis];
        ++axis;
        break;
      }
      case index_item::kind::range: {
        const auto [start, length] = detail::resolve_slice(it.range, shape_[axis]);
        if (length > 0) offset += start * strides_[axis];
        new_shape.push_back(length);
        new_strides.push_back(strides_[axis] * it.range.step);
        ++axis;
        break;
      }
      case index_item::kind::new_axis:
        new_shape.push_back(1);
        new_strides.push_back(0);
        break;
      case index_item::kind::rest: keep_axes(ndim() - consumed); break;
    }
  }
  keep_axes(ndim() - axis);
  return array(buffer_, dtype_, new_shape, new_strides, offset);
}

array array::T() const {
  jet::shape axes;
  for (int d = ndim() - 1; d >= 0; --d) axes.push_back(d);
  return transpose(axes);
}

array array::transpose(const jet::shape& axes) const {
  if (axes.size() != ndim()) throw value_error("axes don't match array");
  jet::shape new_shape, new_strides;
  bool seen[max_ndim] = {};
  for (std::int64_t a : axes) {
    const int d = normalize_axis(a, ndim());
    if (seen[d]) throw value_error("repeated axis in transpose");
    seen[d] = true;
    new_shape.push_back(shape_[d]);
    new_strides.push_back(strides_[d]);
  }
  return array(buffer_, dtype_, new_shape, new_strides, offset_);
}

array array::swapaxes(std::int64_t a, std::int64_t b) const {
  jet::shape axes;
  for (int d = 0; d < ndim(); ++d) axes.push_back(d);
  std::swap(axes[normalize_axis(a, ndim())], axes[normalize_axis(b, ndim())]);
  return transpose(axes);
}

array array::reshape(const jet::shape& requested) const {
  jet::shape target = requested;
  int unknown = -1;
  std::int64_t known = 1;
  for (int d = 0; d < target.size(); ++d) {
    if (target[d] == -1) {
      if (unknown >= 0) throw value_error("can only specify one unknown dimension");
      unknown = d;
    } else if (target[d] < 0) {
      throw value_error("negative dimensions not allowed");
    } else {
      known *= target[d];
    }
  }
  if (unknown >= 0 && known != 0 && size() % known == 0) target[unknown] = size() / known;
  if ((unknown >= 0 && (known == 0 || size() % known != 0)) || target.product() != size())
    throw value_error("cannot reshape array of size " + std::to_string(size()) + " into shape " +
                      to_string(requested));
  // NumPy's no-copy reshape: match groups of old and new axes with equal products; each old
  // group must be contiguous within itself.
  jet::shape old_shape, old_strides;
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] == 1) continue;
    old_shape.push_back(shape_[d]);
    old_strides.push_back(strides_[d]);
  }
  if (size() == 0) return array(buffer_, dtype_, target, contiguous_strides(target), offset_);
  jet::shape new_strides = jet::shape::filled(target.size(), 0);
  bool viewable = true;
  int oi = 0, ni = 0;
  while (viewable && oi < old_shape.size() && ni < target.size()) {
    int oj = oi + 1, nj = ni + 1;
    std::int64_t op = old_shape[oi], np = target[ni];
    while (op != np) {
      if (np < op)
        np *= target[nj++];
      else
        op *= old_shape[oj++];
    }
    for (int k = oi; k + 1 < oj; ++k)
      if (old_strides[k] != old_strides[k + 1] * old_shape[k + 1]) viewable = false;
    new_strides[nj - 1] = old_strides[oj - 1];
    for (int k = nj - 1; k > ni; --k) new_strides[k - 1] = new_strides[k] * target[k];
    oi = oj;
    ni = nj;
  }
  if (viewable) {
    for (int d = ni; d < target.size(); ++d) new_strides[d] = 1;  // trailing extent-1 axes
    return array(buffer_, dtype_, target, new_strides, offset_);
  }
  return copy().reshape(target);
}

array array::squeeze() const {
  jet::shape new_shape, new_strides;
  for (int d = 0; d < ndim(); ++d) {
    if (shape_[d] == 1) continue;
    new_shape.push_back(shape_[d]);
    new_strides.push_back(strides_[d]);
  }
  return array(buffer_, dtype_, new_shape, new_strides, offset_);
}

array array::squeeze(std::int64_t axis) const {
  const int d = normalize_axis(axis, ndim());
  if (shape_[d] != 1)
    throw value_error("cannot select an axis to squeeze out which has size not equal to one");
  jet::shape new_shape = shape_, new_strides = strides_;
  new_shape.erase(d);
  new_strides.erase(d);
  return array(buffer_, dtype_, new_shape, new_strides, offset_);
}

array array::expand_dims(std::int64_t axis) const {
  const int d = normalize_axis(axis, ndim() + 1);
  jet::shape new_shape = shape_, new_strides = strides_;
  new_shape.insert(d, 1);
  new_strides.insert(d, 0);
  return array(buffer_, dtype_, new_shape, new_strides, offset_);
}

array array::broadcast_to(const jet::shape& target) const {
  const int lead = target.size() - ndim();
  bool ok = lead >= 0;
  jet::shape new_strides = jet::shape::filled(target.size(), 0);
  for (int d = 0; ok && d < ndim(); ++d) {
    if (shape_[d] == target[lead + d])
      new_strides[lead + d] = strides_[d];
    else if (shape_[d] != 1)
      ok = false;
  }
  if (!ok)
    throw shape_error(
        "operands could not be broadcast together with remapped shapes "
        "[original->remapped]: " +
        to_string(shape_) + " and requested shape " + to_string(target));
  return array(buffer_, dtype_, target, new_strides, offset_);
}

array array::ravel() const { return reshape({-1}); }

array array::diagonal_view(std::int64_t k) const {
  if (ndim() != 2) throw value_error("diag requires an array of at least two dimensions");
  const std::int64_t row = k < 0 ? -k : 0, col = k > 0 ? k : 0;
  const std::int64_t length = std::max<std::int64_t>(0, std::min(shape_[0] - row, shape_[1] - col));
  const std::int64_t offset =
      length > 0 ? offset_ + row * strides_[0] + col * strides_[1] : offset_;
  return array(buffer_, dtype_, {length}, {strides_[0] + strides_[1]}, offset);
}

}  // namespace jet
