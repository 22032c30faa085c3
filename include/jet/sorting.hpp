// Sorting and searching with NumPy's names and order: NaN last, complex numbers by real then
// imaginary part with NumPy's NaN classes, every dtype. Each sort is CUB's radix sort (stable)
// over keys that one of Jet's kernels writes, with the input's expression fused into it:
// sort(abs(x)) reads x once. Rows of an n-d array (any axis) sort as one segmented sort.
// Results are arrays; nothing here waits for the GPU.
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
