// The host side of padding, deleting and inserting: along one axis, the position in the source
// that each element of the result reads. padding.cpp and editing.cpp gather through them; the
// host tests check them against NumPy's answers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "jet/manipulation.hpp"
#include "src/array/gathers.hpp"

namespace jet::detail {

// What each element of an axis of n padded by `widths` reads: NumPy 2 goes on reflecting or
// wrapping across pads wider than the axis, which makes the padded axis periodic. The constant
// mode's pads read -1 (an empty axis is nothing but pads).
positions pad_positions(std::int64_t n, pad_pair widths, pad_mode mode);

// What numpy.delete keeps of an axis of n: all but `indices` (negatives count from the end; one
// out of bounds raises NumPy's IndexError, which names axis 0), or all but the slice's.
positions kept_positions(std::int64_t n, const std::vector<std::int64_t>& indices);
positions kept_positions(std::int64_t n, const slice& s);
// All but where the mask, which must be n long, holds.
positions kept_unmasked(std::int64_t n, const std::vector<bool>& mask);
// NumPy's ValueError for a mask that is not 1-D of the axis' length n.
std::string delete_mask_text(std::int64_t n);

// What numpy.insert's result reads along its axis: at each position, the position in the
// original array (from_a) or the slice of the inserted values (from_values), -1 in the other.
struct insertion {
  positions from_a, from_values;
};
// `count` slices before position `index` of an axis of n (0 <= index <= n).
insertion insert_positions(std::int64_t n, std::int64_t index, std::int64_t count);
// The k-th slice before position indices[k] of the original axis of n (negatives count from its
// end), those at one position in their order, as NumPy places them. A position outside the
// result raises NumPy's IndexError (naming axis 0 and the result's length). NumPy counts one
// below -n from the end twice, of the axis and then of the result, so two can meet: then fewer
// than n positions read the original, which the caller reports.
insertion insert_positions(std::int64_t n, const std::vector<std::int64_t>& indices);

}  // namespace jet::detail
