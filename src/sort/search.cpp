// searchsorted and digitize: a binary search in the kernel that reads each value (make_search),
// over compare keys, so that the order searched is the one sort gives.
#include <string>

#include "codegen/expr/node.hpp"
#include "jet/error.hpp"
#include "jet/indexing.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "jet/sorting.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

// The dtype NumPy compares `a`'s elements and `v` in: the loop dtype of a comparison of the
// two, weak scalars taking a's kind.
dtype compared_as(const array& a, const expr& v) {
  const array first(a.buffer(), a.dtype(), shape{}, shape{}, a.offset());
  return detail::make_op(detail::op_code::less, detail::make_input(first), v.node())->operand_type;
}

void check_one_axis(const expr& a) {
  if (a.ndim() > 1) throw value_error("object too deep for desired array");
  if (a.ndim() == 0) throw value_error("object of too small depth for desired array");
}

}  // namespace

expr searchsorted(const expr& a, const expr& v, std::string_view side,
                  const std::optional<array>& sorter) {
  if (side != "left" && side != "right")
    throw value_error("search side must be 'left' or 'right' (got '" + std::string(side) + "')");
  check_one_axis(a);
  array sorted = detail::as_array(a);
  if (sorter) {
    if (!is_integer(sorter->dtype())) throw dtype_error("sorter must only contain integers");
    if (sorter->size() != sorted.size()) throw value_error("sorter.size must equal a.size");
    sorted = take(sorted, *sorter);
  }
  const dtype t = compared_as(sorted, v);
  // Nothing to search (and no memory to read): every value goes first.
  if (sorted.size() == 0) return expr(detail::make_index(v.shape())) * 0;
  return expr(detail::make_search(sorted, v.astype(t).node(), side == "right"));
}

expr digitize(const expr& x, const expr& bins, bool right) {
  if (is_complex(x.dtype())) throw dtype_error("x may not be complex");
  check_one_axis(bins);
  const array b = detail::as_array(bins);
  // NumPy's _monotonicity: increasing, decreasing, or neither (an error). One wait, for both.
  bool increasing = true, decreasing = false;
  if (b.size() > 1) {
    const array steps = diff(b);
    const std::vector<bool> found = stack({all(steps >= 0), all(steps <= 0)}).to_vector<bool>();
    increasing = found[0];
    decreasing = found[1];
    if (!increasing && !decreasing)
      throw value_error("bins must be monotonically increasing or decreasing");
  }
  // Swapped sides, as NumPy: digitize's right edge is searchsorted's left side.
  const char* side = right ? "left" : "right";
  if (increasing) return searchsorted(b, x, side);
  return b.size() - searchsorted(flip(b), x, side);
}

}  // namespace jet
