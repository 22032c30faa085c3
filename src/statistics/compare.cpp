// isclose, allclose, array_equal and array_equiv: elementwise expressions, reduced with all()
// where NumPy answers with one bool.
#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "jet/statistics.hpp"

namespace jet {
namespace {

// The host truth of all(e).
bool holds_everywhere(const expr& e) { return all(e).item<bool>(); }

}  // namespace

expr isclose(const expr& a, const expr& b, double rtol, double atol, bool equal_nan) {
  // NumPy makes b inexact first, so that abs() of the smallest integer does not overflow.
  const expr y = b.astype((b + 1.0).dtype());
  const expr close = less_equal(abs(a - y), atol + rtol * abs(y)) && isfinite(y);
  const expr result = close || a == y;
  return equal_nan ? result || (isnan(a) && isnan(y)) : result;
}

bool allclose(const expr& a, const expr& b, double rtol, double atol, bool equal_nan) {
  return holds_everywhere(isclose(a, b, rtol, atol, equal_nan));
}

bool array_equal(const expr& a, const expr& b, bool equal_nan) {
  if (!(a.shape() == b.shape())) return false;
  if (a.size() == 0) return true;
  const expr same = a == b;
  return holds_everywhere(equal_nan ? same || (isnan(a) && isnan(b)) : same);
}

bool array_equiv(const expr& a, const expr& b) {
  try {
    broadcast_shapes(a.shape(), b.shape());
  } catch (const shape_error&) {
    return false;
  }
  return holds_everywhere(a == b);
}

}  // namespace jet
