// Gathers through positions computed on the host, shared by the functions that move elements
// (rearranging.cpp, padding.cpp, editing.cpp): a small array of positions per axis is copied to
// the device and read by an advanced-indexing gather, which fuses into what reads it.
#pragma once

#include <cstdint>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/indexing.hpp"
#include "jet/manipulation.hpp"

namespace jet::detail {

using positions = std::vector<std::int64_t>;

// `a` viewed as `target`, which has a's elements with extent-1 axes added or removed.
inline array as_shape(const array& a, const shape& target) {
  return a.is_c_contiguous() ? a.reshape(target) : a.copy().reshape(target);
}

// The elements of a 1-D view of `x`, viewed with all axes 1 but `axis` of `count` axes.
inline array along_axis(const array& x, int axis, int count) {
  shape s = shape::filled(count, 1);
  s[axis] = x.size();
  return as_shape(x, s);
}

// The positions of each axis on the device, as an open mesh (as ix_ makes it): the k-th has
// all axes 1 but k.
inline std::vector<array> open_mesh(const std::vector<positions>& per_axis) {
  const int n = static_cast<int>(per_axis.size());
  std::vector<array> mesh;
  for (int d = 0; d < n; ++d) mesh.push_back(along_axis(asarray(per_axis[d]), d, n));
  return mesh;
}

// a gathered along every axis through the positions of an open mesh.
inline expr gather_mesh(const array& a, const std::vector<array>& mesh) {
  return jet::advanced_index(a, std::vector<index_arg>(mesh.begin(), mesh.end()));
}

inline expr gather_per_axis(const array& a, const std::vector<positions>& per_axis) {
  return gather_mesh(a, open_mesh(per_axis));
}

// a gathered along `axis` through the 1-D `along`, the other axes whole.
inline expr gather_along(const array& a, int axis, const array& along) {
  std::vector<index_arg> items(static_cast<std::size_t>(axis), index_arg(slice()));
  items.emplace_back(along);
  return jet::advanced_index(a, items);
}

inline expr gather_along(const array& a, int axis, const positions& along) {
  return gather_along(a, axis, asarray(along));
}

// a's elements in C order, read at `flat` (an int64 expression of the result's shape).
inline expr gather_flat(const array& a, const expr& flat) {
  const array c = ascontiguousarray(a);
  const shape& s = flat.shape();
  return expr(make_gather(array(c.buffer(), c.dtype(), s, shape::filled(s.size(), 0), c.offset()),
                          flat.node()));
}

}  // namespace jet::detail
