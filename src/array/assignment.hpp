// What writing into existing memory checks and decides, for assignment into arrays and views
// (array.cpp) and for advanced indexing's scatter (indexing.cpp).
#pragma once

#include <cstddef>
#include <span>

#include "codegen/expr/node.hpp"
#include "jet/array.hpp"

namespace jet::detail {

// NumPy's 'same_kind' rule: `from` casts safely to `to`, or to a lower kind of dtype.
bool same_kind(dtype from, dtype to);
// Throws NumPy's "Cannot cast array data ..." (or "scalar", for a 0-d one) unless `from`
// casts to `to` under 'same_kind' (copyto, concatenate with a dtype).
void check_same_kind_cast(dtype from, dtype to, bool scalar = false);
// Throws NumPy's casting error unless `result`, of an operation, may be written into an array
// of dtype `to` under the 'same_kind' rule (in-place operators).
void check_same_kind(const node& result, dtype to);
// Raises NumPy's "objects cannot be broadcast to a single shape" (np.broadcast's: choose,
// broadcast_arrays) unless `shapes` broadcast together. Its broadcast goes axis by axis
// (aligned at the end), each extent set by the first operand whose extent is not 1.
void check_broadcast_objects(const std::vector<shape>& shapes);
// True when `from` broadcasts to exactly `to` (NumPy's rule for assignment).
bool broadcasts_to(const shape& from, const shape& to);
// Throws unless values of shape `values` broadcast to `target` (the shape written) and
// `destination`, the array whose memory is written, is not a broadcast view.
void check_assignable(const shape& values, const shape& target, const array& destination);
// True when an operand of `root` reads memory of one of `targets`, other than its own target
// (`targets[own]`, if any) element for element: whether writing the targets while computing
// `root` could change what it reads. One walk of the tree for them all.
bool reads_targets(const node& root, std::span<const array> targets, std::size_t own);
// True when an operand of `root` reads `a`'s memory other than element for element.
bool overlaps(const node& root, const array& a);
// True when an operand of `root` reads any of `a`'s memory.
bool reads_memory_of(const node& root, const array& a);

}  // namespace jet::detail
