// Contractions as matrix products, with NumPy's checks in NumPy's order and words.
#include "codegen/linalg/contraction.hpp"

#include <algorithm>
#include <string>

#include "jet/error.hpp"

namespace jet::codegen {
namespace {

bool has_duplicates(const shape& axes) {
  for (int i = 0; i < axes.size(); ++i)
    for (int j = 0; j < i; ++j)
      if (axes[i] == axes[j]) return true;
  return false;
}

// "shapes (2,3) and (4,5) not aligned: 3 (dim 1) != 4 (dim 0)", as numpy.dot says it.
[[noreturn]] void not_aligned(const shape& a, int a_dim, const shape& b, int b_dim) {
  throw value_error("shapes " + to_string(a) + " and " + to_string(b) +
                    " not aligned: " + std::to_string(a[a_dim]) + " (dim " + std::to_string(a_dim) +
                    ") != " + std::to_string(b[b_dim]) + " (dim " + std::to_string(b_dim) + ")");
}

bool contains(const shape& axes, int d) {
  return std::find(axes.begin(), axes.end(), d) != axes.end();
}

}  // namespace

contraction tensordot_contraction(const shape& a, const shape& b, const shape& a_axes,
                                  const shape& b_axes) {
  if (has_duplicates(a_axes) || has_duplicates(b_axes))
    throw value_error("duplicate axes are not allowed in tensordot");
  if (a_axes.size() != b_axes.size()) throw value_error("shape-mismatch for sum");
  shape summed_a, summed_b;
  for (int i = 0; i < a_axes.size(); ++i) {
    const int da = normalize_axis(a_axes[i], a.size()), db = normalize_axis(b_axes[i], b.size());
    if (a[da] != b[db]) throw value_error("shape-mismatch for sum");
    summed_a.push_back(da);
    summed_b.push_back(db);
  }
  // -1 and the last axis name one axis twice, which NumPy finds only when it transposes.
  if (has_duplicates(summed_a) || has_duplicates(summed_b))
    throw value_error("duplicate axes are not allowed in tensordot");
  contraction c;
  for (int d = 0; d < a.size(); ++d) {
    if (contains(summed_a, d)) continue;
    c.a_order.push_back(d);
    c.m *= a[d];
    c.result.push_back(a[d]);
  }
  for (int i = 0; i < summed_a.size(); ++i) {
    c.a_order.push_back(summed_a[i]);
    c.b_order.push_back(summed_b[i]);
    c.k *= a[summed_a[i]];
  }
  for (int d = 0; d < b.size(); ++d) {
    if (contains(summed_b, d)) continue;
    c.b_order.push_back(d);
    c.n *= b[d];
    c.result.push_back(b[d]);
  }
  return c;
}

contraction tensordot_contraction(const shape& a, const shape& b, std::int64_t axes) {
  if (axes < 0)
    throw value_error("tensordot: axes must be a non-negative count, not " + std::to_string(axes));
  // More axes than an operand has: jet::index_error from the axis lists, as NumPy's IndexError.
  shape a_axes, b_axes;
  for (std::int64_t i = 0; i < std::min<std::int64_t>(axes, max_ndim); ++i) {
    a_axes.push_back(i - axes);
    b_axes.push_back(i);
  }
  return tensordot_contraction(a, b, a_axes, b_axes);
}

contraction dot_contraction(const shape& a, const shape& b) {
  const int a_dim = a.size() - 1, b_dim = std::max(b.size() - 2, 0);
  if (a[a_dim] != b[b_dim]) not_aligned(a, a_dim, b, b_dim);
  return tensordot_contraction(a, b, shape{a_dim}, shape{b_dim});
}

contraction inner_contraction(const shape& a, const shape& b) {
  const int a_dim = a.size() - 1, b_dim = b.size() - 1;
  if (a[a_dim] != b[b_dim]) {
    // NumPy reports b with its last two axes swapped, as its dot sees it.
    shape shown = b;
    if (b.size() >= 2) std::swap(shown[b.size() - 1], shown[b.size() - 2]);
    not_aligned(a, a_dim, shown, std::max(b.size() - 2, 0));
  }
  return tensordot_contraction(a, b, shape{a_dim}, shape{b_dim});
}

}  // namespace jet::codegen
