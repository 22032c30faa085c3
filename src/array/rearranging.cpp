// Rearranging and building arrays: views where NumPy gives views, and gathers through small
// per-axis position arrays (computed here, on the host) where elements move.
#include <string>
#include <vector>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/linalg.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "src/array/assignment.hpp"
#include "src/array/gathers.hpp"

namespace jet {
namespace {

using detail::along_axis;
using detail::as_shape;
using detail::gather_along;
using detail::gather_per_axis;
using detail::positions;

array reversed(const array& a, int axis) {
  std::vector<index_item> items(static_cast<std::size_t>(axis), index_item(slice()));
  items.emplace_back(slice(none, none, -1));
  return a.index(items);
}

expr zero_of(dtype t) { return expr(0).astype(t); }

// The mask of tril (lower) or triu over the last two axes of `s`.
expr triangle(const shape& s, std::int64_t k, bool lower) {
  const std::int64_t rows = s.size() >= 2 ? s[s.size() - 2] : s.back();
  const std::int64_t cols = s.back();
  const array r = arange(rows).reshape({rows, 1}), c = arange(cols);
  return lower ? c - r <= k : c - r >= k;
}

}  // namespace

array flip(const array& a, std::optional<std::int64_t> axis) {
  if (axis) return reversed(a, normalize_axis(*axis, a.ndim()));
  array out = a;
  for (int d = 0; d < a.ndim(); ++d) out = reversed(out, d);
  return out;
}

array fliplr(const array& a) {
  if (a.ndim() < 2) throw value_error("Input must be >= 2-d.");
  return reversed(a, 1);
}

array flipud(const array& a) {
  if (a.ndim() < 1) throw value_error("Input must be >= 1-d.");
  return reversed(a, 0);
}

array rot90(const array& a, std::int64_t k, std::int64_t axis1, std::int64_t axis2) {
  const int n = a.ndim();
  if (axis1 == axis2 || (n > 0 && (axis1 - axis2 == n || axis2 - axis1 == n)))
    throw value_error("Axes must be different.");
  if (axis1 >= n || axis1 < -n || axis2 >= n || axis2 < -n)
    throw value_error("Axes=(" + std::to_string(axis1) + ", " + std::to_string(axis2) +
                      ") out of range for array of ndim=" + std::to_string(n) + ".");
  const int d1 = normalize_axis(axis1, n), d2 = normalize_axis(axis2, n);
  shape order;
  for (int d = 0; d < n; ++d) order.push_back(d == d1 ? d2 : d == d2 ? d1 : d);
  switch (((k % 4) + 4) % 4) {
    case 0: return a;
    case 1: return reversed(a, d2).transpose(order);
    case 2: return reversed(reversed(a, d1), d2);
    default: return reversed(a.transpose(order), d2);
  }
}

array moveaxis(const array& a, std::int64_t source, std::int64_t destination) {
  auto axis_of = [&](std::int64_t axis, const char* which) {
    try {
      return normalize_axis(axis, a.ndim());
    } catch (const index_error& e) {
      throw index_error(std::string(which) + ": " + e.what());
    }
  };
  const int s = axis_of(source, "source"), d = axis_of(destination, "destination");
  shape order;
  for (int k = 0; k < a.ndim(); ++k)
    if (k != s) order.push_back(k);
  order.insert(d, s);
  return a.transpose(order);
}

std::vector<array> broadcast_arrays(const parts& p) {
  std::vector<shape> shapes;
  for (const expr& e : p.items()) shapes.push_back(e.shape());
  detail::check_broadcast_objects(shapes);
  shape common;
  for (const shape& s : shapes) common = broadcast_shapes(common, s);
  std::vector<array> out;
  for (std::size_t k = 0; k < p.items().size(); ++k)
    out.push_back(p.array_at(k).broadcast_to(common));
  return out;
}

array ascontiguousarray(const array& a) {
  const array c = a.is_c_contiguous() ? a : a.copy();
  return c.ndim() == 0 ? c.reshape({1}) : c;
}

expr roll(const array& a, std::int64_t shift, std::optional<std::int64_t> axis) {
  const int d = axis ? normalize_axis(*axis, a.ndim()) : 0;
  if (a.size() == 0) return expr(a);
  if (!axis)  // over the flattened array: each element reads the one `shift` before it
    return detail::gather_flat(a, (expr(detail::make_index(a.shape())) - shift) % a.size());
  const std::int64_t n = a.shape()[d];
  positions along(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i)
    along[static_cast<std::size_t>(i)] = (((i - shift) % n) + n) % n;
  return gather_along(a, d, along);
}

expr tile(const array& a, const std::vector<std::int64_t>& reps) {
  const int n = std::max(a.ndim(), static_cast<int>(reps.size()));
  shape s = shape::filled(n - a.ndim(), 1);
  for (std::int64_t e : a.shape()) s.push_back(e);
  std::vector<positions> per_axis(static_cast<std::size_t>(n));
  for (int d = 0; d < n; ++d) {
    const int r = d - (n - static_cast<int>(reps.size()));
    const std::int64_t times = r >= 0 ? reps[static_cast<std::size_t>(r)] : 1;
    if (times < 0) throw value_error("negative dimensions are not allowed");
    for (std::int64_t i = 0; i < s[d] * times; ++i) per_axis[d].push_back(i % s[d]);
  }
  return gather_per_axis(as_shape(a, s), per_axis);
}

expr repeat(const array& a, std::int64_t repeats, std::optional<std::int64_t> axis) {
  const array source = axis && a.ndim() > 0 ? a : a.ravel();
  const int d = normalize_axis(axis.value_or(0), source.ndim());
  if (repeats < 0) throw value_error("negative dimensions are not allowed");
  return repeat(source, positions(static_cast<std::size_t>(source.shape()[d]), repeats), d);
}

expr repeat(const array& a, const std::vector<std::int64_t>& repeats,
            std::optional<std::int64_t> axis) {
  const array source = axis && a.ndim() > 0 ? a : a.ravel();
  const int d = normalize_axis(axis.value_or(0), source.ndim());
  const std::int64_t n = source.shape()[d];
  if (repeats.size() != 1 && static_cast<std::int64_t>(repeats.size()) != n)
    throw value_error("operands could not be broadcast together with shape (" + std::to_string(n) +
                      ",) (" + std::to_string(repeats.size()) + ",)");
  positions along;
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t times = repeats[repeats.size() == 1 ? 0 : static_cast<std::size_t>(i)];
    if (times < 0) throw value_error("repeats may not contain negative values.");
    along.insert(along.end(), static_cast<std::size_t>(times), i);
  }
  return gather_along(source, d, along);
}

expr diff(const array& a, int n, std::int64_t axis) {
  if (n < 0) throw value_error("order must be non-negative but got " + std::to_string(n));
  if (n == 0) return expr(a);
  if (a.ndim() == 0) throw value_error("diff requires input that is at least one dimensional");
  const int d = normalize_axis(axis, a.ndim());
  array current = a;
  for (int step = 1;; ++step) {
    std::vector<index_item> later(static_cast<std::size_t>(d), index_item(slice()));
    std::vector<index_item> earlier = later;
    later.emplace_back(slice(1, none));
    earlier.emplace_back(slice(none, -1));
    const expr next = current.dtype() == bool_
                          ? not_equal(current.index(later), current.index(earlier))
                          : current.index(later) - current.index(earlier);
    if (step == n) return next;
    current = next;  // NumPy subtracts step by step, rounding each
  }
}

expr tril(const expr& a, std::int64_t k) {
  if (a.ndim() == 0) throw value_error("tril requires input of at least one dimension");
  return where(triangle(a.shape(), k, true), a, zero_of(a.dtype()));
}

expr triu(const expr& a, std::int64_t k) {
  if (a.ndim() == 0) throw value_error("triu requires input of at least one dimension");
  return where(triangle(a.shape(), k, false), a, zero_of(a.dtype()));
}

array tri(std::int64_t n, std::optional<std::int64_t> m, std::int64_t k, dtype t) {
  return triangle(shape{n, m.value_or(n)}, k, true).astype(t);
}

array diag(const array& v, std::int64_t k) {
  if (v.ndim() == 2) return diagonal(v, k).copy();
  if (v.ndim() != 1) throw value_error("Input must be 1- or 2-d.");
  const std::int64_t n = v.size() + (k < 0 ? -k : k);
  array out = zeros({n, n}, v.dtype());
  diagonal(out, k) = v;
  return out;
}

array diagflat(const array& v, std::int64_t k) { return diag(v.ravel(), k); }

std::vector<array> meshgrid(const parts& xs, mesh_indexing indexing, bool sparse) {
  const int n = static_cast<int>(xs.items().size());
  std::vector<array> out;
  for (int k = 0; k < n; ++k) {
    // Cartesian indexing puts the first coordinate along axis 1, the second along axis 0.
    const int axis = indexing == mesh_indexing::xy && n > 1 && k < 2 ? 1 - k : k;
    out.push_back(along_axis(xs.array_at(static_cast<std::size_t>(k)).ravel(), axis, n));
  }
  if (sparse) return out;
  std::vector<array> full;
  for (const array& view : broadcast_arrays(std::vector<array>(out))) full.push_back(view.copy());
  return full;
}

array indices(const shape& dims, dtype t) {
  std::vector<expr> grids;
  for (int d = 0; d < dims.size(); ++d)
    grids.push_back(along_axis(arange(dims[d]).astype(t), d, dims.size()).broadcast_to(dims));
  if (grids.empty()) return empty({0}, t);
  return stack(grids);
}

std::vector<array> ix_(const parts& xs) {
  const int n = static_cast<int>(xs.items().size());
  std::vector<array> out;
  for (int k = 0; k < n; ++k) {
    const array given = xs.array_at(static_cast<std::size_t>(k));
    if (given.ndim() != 1) throw value_error("Cross index must be 1 dimensional");
    const array x = given.dtype() == bool_ ? flatnonzero(given) : given;  // where it holds
    out.push_back(along_axis(x, k, n));
  }
  return out;
}

void copyto(const array& dst, const expr& src) {
  detail::check_same_kind_cast(src.dtype(), dst.dtype());
  dst(ellipsis) = src;
}

void copyto(const array& dst, const expr& src, const expr& where_true) {
  copyto(dst, where(where_true, src, dst));
}

}  // namespace jet
