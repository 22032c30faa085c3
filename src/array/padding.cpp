// Padding and resizing as gathers: pad reads through host positions along each axis (constant
// mode selects its value outside a's region in the same kernel), resize through the flat index.
#include <string>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "src/array/edit_positions.hpp"
#include "src/array/gathers.hpp"

namespace jet {
namespace {

// `value` cast to `t` at every element of shape `s`, computed where it is read.
expr filled(const shape& s, const expr& value, dtype t) {
  const expr v = value.astype(t);
  return where(expr(detail::make_index(s)) >= 0, v, v);
}

// numpy.pad's (before, after) for each axis, checked in its words.
std::vector<pad_pair> widths_per_axis(const std::vector<pad_pair>& pad_width, int ndim) {
  if (pad_width.empty())  // NumPy's empty list is of floats
    throw dtype_error("`pad_width` must be of integral type.");
  for (const pad_pair& p : pad_width)
    if (p.first < 0 || p.second < 0) throw value_error("index can't contain negative values");
  if (pad_width.size() == 1)
    return std::vector<pad_pair>(static_cast<std::size_t>(ndim), pad_width[0]);
  if (static_cast<int>(pad_width.size()) != ndim)
    throw value_error(
        "operands could not be broadcast together with remapped shapes [original->remapped]: (" +
        std::to_string(pad_width.size()) + ",2)  and requested shape (" + std::to_string(ndim) +
        ",2)");
  return pad_width;
}

std::int64_t floor_mod(std::int64_t j, std::int64_t n) { return ((j % n) + n) % n; }

// The element of an axis of n that position j of the padded axis reads (j counts from a's first
// element): each mode is periodic, with period n (wrap), 2n (symmetric) or 2n - 2 (reflect,
// where an axis of one element repeats it).
std::int64_t pad_source(std::int64_t j, std::int64_t n, pad_mode mode) {
  if (j >= 0 && j < n) return j;
  switch (mode) {
    case pad_mode::constant: return -1;
    case pad_mode::edge: return j < 0 ? 0 : n - 1;
    case pad_mode::wrap: return floor_mod(j, n);
    case pad_mode::symmetric: {
      const std::int64_t k = floor_mod(j, 2 * n);
      return k < n ? k : 2 * n - 1 - k;
    }
    case pad_mode::reflect: {
      if (n == 1) return 0;
      const std::int64_t k = floor_mod(j, 2 * n - 2);
      return k < n ? k : 2 * n - 2 - k;
    }
  }
  return -1;
}

// Where every axis's position is one of a's: a's region of the padded array.
expr in_region(const std::vector<array>& mesh) {
  expr inside = expr(mesh[0]) >= 0;
  for (std::size_t d = 1; d < mesh.size(); ++d) inside = inside && expr(mesh[d]) >= 0;
  return inside;
}

}  // namespace

detail::positions detail::pad_positions(std::int64_t n, pad_pair widths, pad_mode mode) {
  positions out;
  for (std::int64_t j = -widths.first; j < n + widths.second; ++j)
    out.push_back(pad_source(j, n, mode));
  return out;
}

expr pad(const array& a, const std::vector<pad_pair>& pad_width, pad_mode mode,
         const expr& constant_value) {
  const std::vector<pad_pair> widths = widths_per_axis(pad_width, a.ndim());
  if (constant_value.ndim() != 0)
    throw value_error("jet::pad takes one constant value (a scalar or a 0-d array)");
  if (a.ndim() == 0) return expr(a);
  std::vector<detail::positions> per_axis;
  shape padded;
  for (int d = 0; d < a.ndim(); ++d) {
    const std::int64_t n = a.shape()[d];
    const pad_pair w = widths[static_cast<std::size_t>(d)];
    if (n == 0 && w.first + w.second > 0 && mode != pad_mode::constant)
      throw value_error("can't extend empty axis " + std::to_string(d) +
                        " using modes other than 'constant' or 'empty'");
    per_axis.push_back(detail::pad_positions(n, w, mode));
    padded.push_back(n + w.first + w.second);
  }
  if (mode != pad_mode::constant) return detail::gather_per_axis(a, per_axis);
  if (a.size() == 0) return filled(padded, constant_value, a.dtype());
  // The pads' positions are -1, which the gather reads as a's last element and the where
  // replaces.
  const std::vector<array> mesh = detail::open_mesh(per_axis);
  return where(in_region(mesh), detail::gather_mesh(a, mesh), constant_value.astype(a.dtype()));
}

expr pad(const array& a, std::int64_t pad_width, pad_mode mode, const expr& constant_value) {
  return pad(a, {pad_pair{pad_width, pad_width}}, mode, constant_value);
}

expr resize(const array& a, const shape& new_shape) {
  for (std::int64_t extent : new_shape)
    if (extent < 0) throw value_error("all elements of `new_shape` must be non-negative");
  if (a.size() == 0 || new_shape.product() == 0) return filled(new_shape, 0, a.dtype());
  return detail::gather_flat(a, expr(detail::make_index(new_shape)) % a.size());
}

}  // namespace jet
