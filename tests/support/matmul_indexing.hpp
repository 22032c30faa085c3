// numpy.matmul's pairing of elements, for host references in the host and GPU tests: 1-D
// operands promoted, batch axes broadcast, and where (batch p, row, col) of an operand sits in
// its C-ordered values.
#pragma once

#include <algorithm>
#include <cstdint>

#include "jet/shape.hpp"

namespace jet_test {

struct matmul_indexing {
  jet::shape a, b;   // the operands' shapes, 1-D ones promoted to (1, k) and (k, 1)
  jet::shape batch;  // the broadcast batch axes
  std::int64_t m, k, n;

  matmul_indexing(const jet::shape& a_shape, const jet::shape& b_shape)
      : a(a_shape.size() == 1 ? jet::shape{1, a_shape[0]} : a_shape),
        b(b_shape.size() == 1 ? jet::shape{b_shape[0], 1} : b_shape) {
    const int batch_ndim = std::max(a.size(), b.size()) - 2;
    batch = jet::shape::filled(batch_ndim, 1);
    for (int d = 0; d < batch_ndim; ++d) {
      const int da = d - (batch_ndim - (a.size() - 2)), db = d - (batch_ndim - (b.size() - 2));
      if (da >= 0 && a[da] != 1) batch[d] = a[da];
      if (db >= 0 && b[db] != 1) batch[d] = b[db];
    }
    m = a[a.size() - 2];
    k = a.back();
    n = b.back();
  }

  std::int64_t a_index(std::int64_t p, std::int64_t row, std::int64_t col) const {
    return index(a, p, row, col);
  }
  std::int64_t b_index(std::int64_t p, std::int64_t row, std::int64_t col) const {
    return index(b, p, row, col);
  }

 private:
  std::int64_t index(const jet::shape& s, std::int64_t p, std::int64_t row,
                     std::int64_t col) const {
    std::int64_t at = row * s.back() + col, scale = s[s.size() - 2] * s.back();
    for (int d = batch.size() - 1, e = s.size() - 3; e >= 0; --d, --e) {
      const std::int64_t i = p % batch[d];
      p /= batch[d];
      if (s[e] != 1) at += i * scale;
      scale *= s[e];
    }
    return at;
  }
};

}  // namespace jet_test
