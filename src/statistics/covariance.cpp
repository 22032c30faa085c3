// cov and corrcoef as NumPy computes them: the rows centered on their (weighted) means, one
// product by cuBLAS, and the normalization.
#include <cmath>
#include <complex>
#include <string>
#include <vector>

#include "jet/error.hpp"
#include "jet/linalg.hpp"
#include "jet/manipulation.hpp"
#include "jet/ops.hpp"
#include "jet/reduce.hpp"
#include "jet/statistics.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

// The variables of `m` as rows (NumPy's array(m, ndmin=2), transposed without rowvar; y's
// only when it has more than one row), in dtype t.
array variables(const expr& m, bool rowvar, bool transpose_rows, dtype t, const char* name) {
  if (m.ndim() > 2) throw value_error(std::string(name) + " has more than 2 dimensions");
  array x = atleast_2d(detail::as_array(m.astype(t)));
  return !rowvar && transpose_rows ? x.T() : x;
}

// fweights or aweights as float64, checked as NumPy checks them (read on the host).
array observation_weights(const expr& w, std::int64_t observations, const char* kind,
                          bool integral) {
  const array f = detail::as_array(w.astype(float64));
  if (integral && !all(f == rint(f)).item<bool>())
    throw dtype_error(std::string(kind) + " must be integer");
  if (f.ndim() > 1) throw value_error(std::string("cannot handle multidimensional ") + kind);
  if (f.ndim() == 0 || f.shape()[0] != observations)
    throw value_error(std::string("incompatible numbers of samples and ") + kind);
  if (any(f < 0).item<bool>()) throw value_error(std::string(kind) + " cannot be negative");
  return f;
}

}  // namespace

array cov(const expr& m, const std::optional<expr>& y, const cov_options& o) {
  if (m.ndim() > 2) throw value_error("m has more than 2 dimensions");
  if (y && y->ndim() > 2) throw value_error("y has more than 2 dimensions");
  dtype t = o.t ? *o.t : promote_types(m.dtype(), float64);
  if (y && !o.t) t = promote_types(t, y->dtype());
  array x = variables(m, o.rowvar, m.ndim() != 1, t, "m");
  if (x.shape()[0] == 0) return empty({0, 0}, float64);
  if (y) {
    const array rows = variables(*y, o.rowvar, y->ndim() == 2 && y->shape()[0] != 1, t, "y");
    x = concatenate({x, rows}, 0);
  }
  const std::int64_t ddof = o.ddof ? *o.ddof : (o.bias ? 0 : 1);
  const std::int64_t observations = x.shape()[1];
  std::optional<array> w, aw;
  if (o.fweights) w = observation_weights(*o.fweights, observations, "fweights", true);
  if (o.aweights) {
    aw = observation_weights(*o.aweights, observations, "aweights", false);
    w = w ? (*w * *aw).eval() : *aw;
  }
  const auto [avg, weight_sums] =
      average_returned(x, 1, w ? std::optional<expr>(*w) : std::nullopt);
  const expr w_sum = weight_sums(0);
  // NumPy's normalization: N - ddof, the weights' sum, or with aweights their corrected sum;
  // none at all (0: infinities and NaN) where that is not positive.
  expr fact = expr(static_cast<double>(observations - ddof));
  if (w && ddof == 0)
    fact = w_sum;
  else if (w && !aw)
    fact = w_sum - static_cast<double>(ddof);
  else if (w)
    fact = w_sum - static_cast<double>(ddof) * sum(*w * *aw) / w_sum;
  fact = where(fact <= 0, 0.0, fact);
  // In place, as NumPy's: the centered rows and the scaled product keep their dtypes.
  const array centered = (x - avg(slice(), newaxis)).astype(t);
  const array weighted = w ? (centered * *w).eval() : centered;
  const array c = matmul(centered, conj(weighted.T()));
  return (c * true_divide(1, fact)).astype(c.dtype()).eval().squeeze();
}

array corrcoef(const expr& x, const std::optional<expr>& y, bool rowvar, std::optional<dtype> t) {
  cov_options o;
  o.rowvar = rowvar;
  o.t = t;
  const array c = cov(x, y, o);
  if (c.ndim() == 0) return (c / c).eval();
  const array stddev = sqrt(real(diagonal(c))).eval();
  const expr r = c / stddev(slice(), newaxis) / stddev(newaxis, slice());
  if (!is_complex(r.dtype())) return clip(r, -1, 1);
  return clip(real(r), -1, 1) + clip(imag(r), -1, 1) * std::complex<double>(0, 1);
}

}  // namespace jet
