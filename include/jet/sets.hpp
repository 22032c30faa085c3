// Set routines with NumPy's names and results: unique (and NumPy 2's unique_all, _counts,
// _inverse, _values), isin, intersect1d, union1d, setdiff1d, setxor1d. Each is a sort (CUB's,
// through jet::sort or jet::argsort) followed by elementwise kernels over neighbours. Results
// whose length is a count (the unique values, an intersection) wait for the GPU once to read
// it; isin does not wait.
#pragma once

#include <cstdint>
#include <optional>

#include "jet/array.hpp"
#include "jet/expr.hpp"

namespace jet {

// numpy.unique's keyword arguments.
struct unique_options {
  bool return_index = false;    // the first position of each unique value
  bool return_inverse = false;  // each element's unique value, as its index into the values
  bool return_counts = false;   // how often each unique value occurs
  // none: of the flattened array, the inverse in a's shape. An axis: unique slices along it
  // (compared element by element in order, NaN never equal), the inverse 1-D.
  std::optional<std::int64_t> axis = std::nullopt;
  bool equal_nan = true;  // without an axis: all NaNs are one value, the first in sorted order
};
struct unique_result {
  array values;  // sorted: ascending values, or slices in lexicographic order
  std::optional<array> index, inverse, counts;  // int64, those the options ask for
};

// numpy.unique(a): the sorted unique values of the flattened a.
array unique(const expr& a);
unique_result unique(const expr& a, const unique_options& options);

// NumPy 2's forms (the array API's): of the flattened x, NaNs all distinct, inverse_indices in
// x's shape.
struct unique_all_result {
  array values, indices, inverse_indices, counts;
};
struct unique_counts_result {
  array values, counts;
};
struct unique_inverse_result {
  array values, inverse_indices;
};
unique_all_result unique_all(const expr& x);
unique_counts_result unique_counts(const expr& x);
unique_inverse_result unique_inverse(const expr& x);
array unique_values(const expr& x);

// numpy.isin: whether each element of `element` is among `test_elements` (compared in their
// promoted dtype; NaN is never found), as a lazy bool expression of element's shape; `invert`
// asks whether it is not.
expr isin(const expr& element, const expr& test_elements, bool invert = false);
// numpy.intersect1d: the sorted unique values in both (flattened) inputs, in their promoted
// dtype. `assume_unique` skips making each input unique (NumPy: results undefined otherwise).
array intersect1d(const expr& a, const expr& b, bool assume_unique = false);
// intersect1d with return_indices=True: the values, and the first position of each in the
// flattened a and b.
struct intersect1d_result {
  array values, indices1, indices2;
};
intersect1d_result intersect1d_indices(const expr& a, const expr& b, bool assume_unique = false);
// numpy.union1d: the sorted unique values in either input.
array union1d(const expr& a, const expr& b);
// numpy.setdiff1d: the sorted unique values of a that are not in b, in a's dtype.
array setdiff1d(const expr& a, const expr& b, bool assume_unique = false);
// numpy.setxor1d: the sorted unique values in exactly one of the inputs.
array setxor1d(const expr& a, const expr& b, bool assume_unique = false);

}  // namespace jet
