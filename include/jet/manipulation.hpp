// NumPy's array manipulation: joining (concatenate, stack and its forms, append), splitting
// (split, array_split, hsplit, vsplit, dsplit), the atleast_*d views, and rearranging and
// building (flip, rot90, moveaxis, roll, tile, repeat, tril, triu, diag, meshgrid, ...). Parts
// may be arrays or expressions; each part's producer is fused into the kernel that writes it.
// Where NumPy returns a view, so does Jet; what moves elements is a lazy gather.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <vector>

#include "jet/expr.hpp"

namespace jet {

// The parts of a join: a braced list of arrays and expressions (`{a * 2, b}`), or a vector of
// either.
class parts {
 public:
  parts(std::initializer_list<expr> list) : list_(list) {}  // NOLINT: `jet::stack({a, b})`
  parts(const std::vector<expr>& list) : list_(list) {}     // NOLINT
  parts(const std::vector<array>& list) : list_(list.begin(), list.end()) {}  // NOLINT
  std::span<const expr> items() const { return list_; }
  // Part k as an array: the array itself (no copy) if it is one, else evaluated.
  array array_at(std::size_t k) const;

 private:
  std::vector<expr> list_;
};

// Joins along an existing axis (none: each part flattened first), in the parts' promoted
// dtype unless `t` is given; NumPy's errors name the first part that does not fit.
array concatenate(const parts& p, std::optional<std::int64_t> axis = 0,
                  std::optional<dtype> t = std::nullopt);
// Joins parts of one shape along a new axis.
array stack(const parts& p, std::int64_t axis = 0);
// Joins along axis 0 after atleast_2d (rows), along axis 1 (axis 0 for 1-D parts), along
// axis 2 after atleast_3d; column_stack makes 1-D parts columns.
array vstack(const parts& p);
array hstack(const parts& p);
array dstack(const parts& p);
array column_stack(const parts& p);
// `values` appended to `a` along `axis` (none: both flattened).
array append(const expr& a, const expr& values, std::optional<std::int64_t> axis = std::nullopt);

// Views of `a` cut along `axis` into `sections` equal parts (split raises when they cannot be
// equal; array_split makes the first n % sections parts one longer), or at the `indices`.
std::vector<array> split(const array& a, std::int64_t sections, std::int64_t axis = 0);
std::vector<array> split(const array& a, const std::vector<std::int64_t>& indices,
                         std::int64_t axis = 0);
std::vector<array> array_split(const array& a, std::int64_t sections, std::int64_t axis = 0);
std::vector<array> array_split(const array& a, const std::vector<std::int64_t>& indices,
                               std::int64_t axis = 0);
// split along axis 1 (axis 0 of 1-D arrays), 0 and 2.
std::vector<array> hsplit(const array& a, std::int64_t sections);
std::vector<array> hsplit(const array& a, const std::vector<std::int64_t>& indices);
std::vector<array> vsplit(const array& a, std::int64_t sections);
std::vector<array> vsplit(const array& a, const std::vector<std::int64_t>& indices);
std::vector<array> dsplit(const array& a, std::int64_t sections);
std::vector<array> dsplit(const array& a, const std::vector<std::int64_t>& indices);

// Views with at least 1, 2 or 3 axes, as NumPy adds them: (n,) is (1, n) and (1, n, 1);
// (m, n) is (m, n, 1).
array atleast_1d(const array& a);
array atleast_2d(const array& a);
array atleast_3d(const array& a);

// ---- Rearranging: views where NumPy gives views

// Reverses the order along `axis` (none: every axis); fliplr reverses axis 1, flipud axis 0.
array flip(const array& a, std::optional<std::int64_t> axis = std::nullopt);
array fliplr(const array& a);
array flipud(const array& a);
// Rotates by 90 degrees `k` times in the plane of `axes`, from the first toward the second.
array rot90(const array& a, std::int64_t k = 1, std::int64_t axis1 = 0, std::int64_t axis2 = 1);
// Moves axis `source` to `destination`, the others keeping their order.
array moveaxis(const array& a, std::int64_t source, std::int64_t destination);
// Views of every part broadcast to their common shape.
std::vector<array> broadcast_arrays(const parts& p);
// C-contiguous: `a` itself when it is, else a copy.
array ascontiguousarray(const array& a);

// ---- Rearranging: lazy gathers

// Elements shifted by `shift` along `axis`, those past the end coming in at the start (none:
// over the flattened array, in a's shape).
expr roll(const array& a, std::int64_t shift, std::optional<std::int64_t> axis = std::nullopt);
// a repeated `reps` times along each axis (reps shorter than a's axes repeats the last ones;
// longer adds leading axes).
expr tile(const array& a, const std::vector<std::int64_t>& reps);
// Each element repeated `repeats` times along `axis` (none: of the flattened array), or each
// its own number of times.
expr repeat(const array& a, std::int64_t repeats, std::optional<std::int64_t> axis = std::nullopt);
expr repeat(const array& a, const std::vector<std::int64_t>& repeats,
            std::optional<std::int64_t> axis = std::nullopt);
// n-th discrete difference along `axis`: a[1:] - a[:-1], n times (bool: not_equal).
expr diff(const array& a, int n = 1, std::int64_t axis = -1);

// ---- Building

// The lower (tril) or upper (triu) triangle of the last two axes from diagonal k, zeros
// elsewhere; tri is an n x m array of ones at and below diagonal k.
expr tril(const expr& a, std::int64_t k = 0);
expr triu(const expr& a, std::int64_t k = 0);
array tri(std::int64_t n, std::optional<std::int64_t> m = std::nullopt, std::int64_t k = 0,
          dtype t = float64);
// A 1-D `v` on diagonal k of a square array, or the k-th diagonal of a 2-D `v` (a copy);
// diagflat puts the flattened `v` on the diagonal.
array diag(const array& v, std::int64_t k = 0);
array diagflat(const array& v, std::int64_t k = 0);
// Coordinate arrays of 1-D `xs`: "xy" (Cartesian: the first two axes swapped) or "ij"
// (matrix) indexing; sparse gives broadcastable views instead of full copies.
enum class mesh_indexing : std::uint8_t { xy, ij };
std::vector<array> meshgrid(const parts& xs, mesh_indexing indexing = mesh_indexing::xy,
                            bool sparse = false);
// The grid of indices of `dims`: shape (len(dims), *dims).
array indices(const shape& dims, dtype t = int64);
// 1-D arrays as an open mesh for indexing: the k-th of n has shape 1 but on axis k.
std::vector<array> ix_(const parts& xs);
// Writes src into dst (broadcast, cast), where `where` holds when it is given.
void copyto(const array& dst, const expr& src);
void copyto(const array& dst, const expr& src, const expr& where);

}  // namespace jet
