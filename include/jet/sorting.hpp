// Sorting, selecting and searching with NumPy's names and order: NaN last, complex numbers by
// real then imaginary part with NumPy's NaN classes, every dtype. Each sort is CUB's radix sort
// (stable) over keys that one of Jet's kernels writes, with the input's expression fused into
// it: sort(abs(x)) reads x once. Rows of an n-d array (any axis) sort as one segmented sort.
// Results are arrays; the sorts do not wait for the GPU (the selections do, and say so).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "jet/array.hpp"
#include "jet/expr.hpp"

namespace jet {

// A sorted copy along `axis` (none: of the flattened array). Equal elements keep their order,
// as with NumPy's stable sort, but for zeros in the rows of an n-d array, where -0.0 sorts
// before 0.0 (NumPy leaves the order of equal elements to the sort kind).
array sort(const expr& a, std::optional<std::int64_t> axis = -1);
// The positions that sort `a` along `axis` (none: flattened), stably (numpy.argsort with
// kind="stable"): equal elements, -0.0 and 0.0, and NaNs keep their order. `index_dtype`
// int64 (NumPy's) or int32, which halves the positions' memory traffic.
array argsort(const expr& a, std::optional<std::int64_t> axis = -1, dtype index_dtype = int64);
// numpy.sort_complex: sorted along the last axis as complex numbers (int8, int16, uint8 and
// uint16 give complex64, other real dtypes complex128).
array sort_complex(const expr& a);
// numpy.lexsort: the positions that sort by the last key, ties broken by the one before, and
// so on; every key has one shape, and each sorts along `axis`.
array lexsort(const std::vector<expr>& keys, std::int64_t axis = -1);

// numpy.partition: a copy of `a` in which the element at position `kth` along `axis` (none:
// of the flattened array; a negative kth counts from the end) is the one a sort puts there,
// those before it no greater and those after it no smaller, in NumPy's order. A selection, not
// a sort: CUB counts the digits of each row's keys, a byte a pass, reading 256 counts a row
// back to the host after each (so it waits), until the key at rank kth is known; then scans
// place each element: the smaller ones, the equal ones, the greater ones, each kept in order.
// Several kth at once, complex128 (whose keys are 16 bytes) and more than 2^23 rows sort
// instead.
array partition(const expr& a, std::int64_t kth, std::optional<std::int64_t> axis = -1);
array partition(const expr& a, const std::vector<std::int64_t>& kth,
                std::optional<std::int64_t> axis = -1);
// numpy.argpartition: the positions (int64) that partition `a` so.
array argpartition(const expr& a, std::int64_t kth, std::optional<std::int64_t> axis = -1);
array argpartition(const expr& a, const std::vector<std::int64_t>& kth,
                   std::optional<std::int64_t> axis = -1);
// Jet's topk: the k largest (or with `largest` false, smallest) elements along `axis` and
// their positions (int64), in order from the largest (or smallest), NaN counting as the
// largest; of equal elements at the cut, the first ones. The same selection as partition, then
// the k taken (positions gathered where a mask holds: a fixed-size result, for one row) and
// sorted.
struct topk_result {
  array values, indices;
};
topk_result topk(const expr& x, std::int64_t k, std::int64_t axis = -1, bool largest = true);

// numpy.searchsorted: where each element of `v` goes in the 1-D `a` to keep it sorted, as an
// int64 expression of v's shape (lazy: a binary search in the kernel that reads it). `side`
// "left" gives the first such position, "right" the one after the elements equal to it. `a`
// must be sorted in NumPy's order (NaN last), or a[sorter] with a `sorter`; otherwise the
// positions are undefined, as in NumPy. The two compare in their promoted dtype.
expr searchsorted(const expr& a, const expr& v, std::string_view side = "left",
                  const std::optional<array>& sorter = std::nullopt);
// numpy.digitize: the index of the bin each element of `x` falls in, bins being 1-D and
// monotonic (increasing: bins[i-1] <= x < bins[i]; `right`: bins[i-1] < x <= bins[i]). Reads
// whether the bins increase or decrease on the host, so it waits for the GPU once.
expr digitize(const expr& x, const expr& bins, bool right = false);

}  // namespace jet
