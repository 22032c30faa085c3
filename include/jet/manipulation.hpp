// NumPy's array manipulation: joining (concatenate, stack and its forms, append), splitting
// (split, array_split, hsplit, vsplit, dsplit), the atleast_*d views, rearranging and
// building (flip, rot90, moveaxis, roll, tile, repeat, tril, triu, diag, meshgrid, ...), padding
// and editing (pad, resize, delete_, insert, ediff1d), and index arithmetic (unravel_index,
// ravel_multi_index, choose). Parts may be arrays or expressions: a join of up to four cheap
// elementwise parts is one kernel, each part's producer fused into it; more parts, or parts
// with a reduction, an index array, a transposed array or a costly op (division,
// transcendentals), take a kernel each. Where NumPy returns a view, so does Jet; what moves
// elements is a lazy gather.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "jet/expr.hpp"
#include "jet/indexing.hpp"

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

// ---- Padding and resizing: lazy gathers

// How numpy.pad fills what it adds: a constant; the edge element; the mirror image without
// (reflect) or with (symmetric) the edge; or the other end (wrap). A pad wider than the axis
// goes on reflecting or wrapping, as NumPy's does.
enum class pad_mode : std::uint8_t { constant, edge, reflect, symmetric, wrap };
// The elements added before and after one axis.
using pad_pair = std::pair<std::int64_t, std::int64_t>;
// numpy.pad: `a` with pad_width[d] added around axis d (one pair: around every axis; an integer:
// that many on both sides of every axis), in a's dtype; constant mode fills with `constant_value`
// cast to it (`jet::pad(a, {{1, 2}, {0, 3}}, jet::pad_mode::reflect)`).
expr pad(const array& a, const std::vector<pad_pair>& pad_width, pad_mode mode = pad_mode::constant,
         const expr& constant_value = 0);
expr pad(const array& a, std::int64_t pad_width, pad_mode mode = pad_mode::constant,
         const expr& constant_value = 0);
// numpy.resize: a's elements in C order, repeated cyclically to fill `new_shape` (zeros when a
// is empty).
expr resize(const array& a, const shape& new_shape);

// ---- Deleting and inserting: lazy gathers along `axis` (none: of the flattened array)

// numpy.delete, named delete_ as `delete` is a C++ keyword: `a` without the slices at `index`,
// at each of `indices` (negatives count from the end), in the slice `s`, or where `mask` (as
// long as the axis) holds. `obj`, a device array of integers (indices, flattened) or bools (a
// mask), is read to the host first, which waits for the GPU.
expr delete_(const array& a, std::int64_t index, std::optional<std::int64_t> axis = std::nullopt);
expr delete_(const array& a, const std::vector<std::int64_t>& indices,
             std::optional<std::int64_t> axis = std::nullopt);
expr delete_(const array& a, std::initializer_list<std::int64_t> indices,
             std::optional<std::int64_t> axis = std::nullopt);
expr delete_(const array& a, slice s, std::optional<std::int64_t> axis = std::nullopt);
expr delete_(const array& a, const std::vector<bool>& mask,
             std::optional<std::int64_t> axis = std::nullopt);
expr delete_(const array& a, const array& obj, std::optional<std::int64_t> axis = std::nullopt);
// numpy.insert: `values`, cast to a's dtype, inserted before `index` as slices along `axis`
// (values broadcast to them; their first axis becomes `axis`, so that a 1-D `values` is one
// column of a 2-D `a` at axis 1), or one slice before each of `indices`, which count in the
// original array (slices at one index keep their order). A braced list is a list, even of one
// index: `{1}` is NumPy's [1], `1` its 1. A slice inserts before each position it names, a
// mask before each position where it holds (NumPy 2); `obj`, a device array of integers (0-d:
// one index, 1-D: a list) or bools (a mask), is read to the host first, which waits for the
// GPU.
expr insert(const array& a, std::int64_t index, const expr& values,
            std::optional<std::int64_t> axis = std::nullopt);
expr insert(const array& a, const std::vector<std::int64_t>& indices, const expr& values,
            std::optional<std::int64_t> axis = std::nullopt);
expr insert(const array& a, std::initializer_list<std::int64_t> indices, const expr& values,
            std::optional<std::int64_t> axis = std::nullopt);
expr insert(const array& a, slice s, const expr& values,
            std::optional<std::int64_t> axis = std::nullopt);
expr insert(const array& a, const std::vector<bool>& mask, const expr& values,
            std::optional<std::int64_t> axis = std::nullopt);
expr insert(const array& a, const array& obj, const expr& values,
            std::optional<std::int64_t> axis = std::nullopt);
// numpy.ediff1d: differences of consecutive elements of the flattened `a`, in a's dtype, with
// the flattened `to_begin` before them and `to_end` after (each cast to a's dtype, which it
// must reach under 'same_kind').
expr ediff1d(const array& a, const std::optional<expr>& to_end = std::nullopt,
             const std::optional<expr>& to_begin = std::nullopt);
// A view with axis `axis` moved to stand before axis `start` (numpy.rollaxis; moveaxis is the
// clearer form).
array rollaxis(const array& a, std::int64_t axis, std::int64_t start = 0);

// ---- Index arithmetic: elementwise integer expressions

// Whether a flat index counts its last axis fastest (C, row-major) or its first (F).
enum class index_order : std::uint8_t { C, F };
// numpy.unravel_index: the coordinates in an array of shape `dims` of each flat index in
// `indices` (integers), as one int64 expression per axis. An index outside [0, size) raises
// jet::value_error at the next synchronization.
std::vector<expr> unravel_index(const expr& indices, const shape& dims,
                                index_order order = index_order::C);
// numpy.ravel_multi_index: the flat index in an array of shape `dims` of the coordinates
// multi_index[d] along each axis d, broadcast together, as int64. A coordinate out of bounds
// raises jet::value_error at the next synchronization (mode raise), wraps or clips, by one mode
// for every axis or one each.
expr ravel_multi_index(const parts& multi_index, const shape& dims,
                       index_mode mode = index_mode::raise, index_order order = index_order::C);
expr ravel_multi_index(const parts& multi_index, const shape& dims,
                       const std::vector<index_mode>& modes, index_order order = index_order::C);
// numpy.choose: choices[k] where `indices` is k, elementwise with `indices` and all choices
// broadcast together, in the choices' promoted dtype: one expression that fuses into what reads
// it. An index outside [0, choices) raises jet::value_error at the next synchronization (mode
// raise), wraps or clips.
expr choose(const expr& indices, const parts& choices, index_mode mode = index_mode::raise);

}  // namespace jet
