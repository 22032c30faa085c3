// Dtype-erased samples for the GPU tests: tables that mix dtypes keep values as complex<double>.
#pragma once

#include <complex>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpu/comparison.hpp"

namespace jet_test {

// ---- Dtype-erased samples ----------------------------------------------------------------

// A device array and its elements as complex<double>: exact for bool, for integers of
// magnitude up to 2^53 and for every floating value. For tables of mixed dtypes.
struct sample {
  jet::array device;
  std::vector<cdouble> values;
};

inline sample sample_of(jet::dtype t, const jet::shape& s, const std::vector<double>& values) {
  sample out;
  visit_dtype(t, [&]<class T>(type_tag<T>) {
    host_values<T> h(static_cast<std::int64_t>(values.size()));
    for (std::size_t i = 0; i < values.size(); ++i) {
      h[static_cast<std::int64_t>(i)] = narrow<T>(values[i]);
      out.values.push_back(cdouble(widen(h[static_cast<std::int64_t>(i)])));
    }
    out.device = upload(h, s);
  });
  return out;
}

inline sample random_sample(std::mt19937& rng, jet::dtype t, const jet::shape& s,
                            const domain& d = {}) {
  sample out;
  visit_dtype(t, [&]<class T>(type_tag<T>) {
    const host_values<T> h = random_values<T>(rng, s.product(), d);
    for (std::int64_t i = 0; i < h.size(); ++i) out.values.push_back(cdouble(widen(h[i])));
    out.device = upload(h, s);
  });
  return out;
}

// x(::-1, :, 1:7:2) of a sample of shape (3, 5, 7), with its values: a reversed, strided view.
inline sample reversed_strided_view(const sample& x) {
  sample out{x.device(jet::slice(jet::none, jet::none, -1), jet::slice(), jet::slice(1, 7, 2)), {}};
  for (int i = 2; i >= 0; --i)
    for (int j = 0; j < 5; ++j)
      for (int k = 1; k < 7; k += 2) out.values.push_back(x.values[(i * 5 + j) * 7 + k]);
  return out;
}

// complex<double> references as R's wide type (bool: nonzero; integers: the real part).
template <class R>
std::vector<wide_t<R>> typed_reference(const std::vector<cdouble>& want) {
  std::vector<wide_t<R>> typed;
  for (const cdouble& w : want) {
    if constexpr (std::is_same_v<R, bool>)
      typed.push_back(w != 0.0);
    else if constexpr (is_integer_v<R>)
      typed.push_back(static_cast<R>(w.real()));
    else if constexpr (is_complex_v<R>)
      typed.push_back(w);
    else
      typed.push_back(w.real());
  }
  return typed;
}

inline std::string mismatch_any(const jet::array& got, const std::vector<cdouble>& want,
                                double floor = 1.0) {
  std::string m;
  visit_dtype(got.dtype(),
              [&]<class R>(type_tag<R>) { m = mismatch<R>(got, typed_reference<R>(want), floor); });
  return m;
}

// check_expression for an expression of any dtype.
inline void check_expression_any(const jet::expr& e, const std::vector<cdouble>& want,
                                 double floor = 1.0) {
  visit_dtype(e.dtype(), [&]<class R>(type_tag<R>) {
    check_expression<R>(e, typed_reference<R>(want), floor);
  });
}

inline void check_any(const jet::array& got, const std::vector<cdouble>& want, double floor = 1.0) {
  const std::string m = mismatch_any(got, want, floor);
  INFO(m);
  CHECK(m.empty());
}

// `w` as an element of dtype t holds it: bool as truth, integers wrapped, floating values
// rounded.
inline cdouble stored(jet::dtype t, cdouble w) {
  cdouble out;
  visit_dtype(t, [&]<class T>(type_tag<T>) {
    if constexpr (std::is_same_v<T, bool>)
      out = w != 0.0 ? 1.0 : 0.0;
    else if constexpr (is_complex_v<T>)
      out = cdouble(widen(narrow<T>(w.real(), w.imag())));
    else if constexpr (is_integer_v<T>)
      out = cdouble(static_cast<double>(static_cast<T>(static_cast<std::int64_t>(w.real()))));
    else
      out = cdouble(widen(narrow<T>(w.real())));
  });
  return out;
}

// The positions (C order over `s`) of each line along `axis`, or of all of `s` flattened.
inline std::vector<std::vector<std::int64_t>> lines_of(const jet::shape& s,
                                                       std::optional<int> axis) {
  const std::int64_t n = jet::shape(s).product();
  std::vector<std::vector<std::int64_t>> lines;
  if (!axis) {
    lines.emplace_back(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) lines[0][static_cast<std::size_t>(i)] = i;
    return lines;
  }
  const std::int64_t length = s[*axis];
  std::int64_t stride = 1;
  for (int d = s.size() - 1; d > *axis; --d) stride *= s[d];
  if (length == 0) return lines;
  for (std::int64_t line = 0; line < n / length; ++line) {
    const std::int64_t base = line / stride * stride * length + line % stride;
    std::vector<std::int64_t> p(static_cast<std::size_t>(length));
    for (std::int64_t k = 0; k < length; ++k) p[static_cast<std::size_t>(k)] = base + k * stride;
    lines.push_back(std::move(p));
  }
  return lines;
}

// The elements of `e`, evaluated, as complex<double>.
inline std::vector<cdouble> complex_values(const jet::expr& e) {
  const std::vector<std::complex<double>> v =
      e.eval().astype(jet::complex128).to_vector<std::complex<double>>();
  return {v.begin(), v.end()};
}

// Kernels built (compiled, loaded or found in memory) so far, once every queued launch has
// found its kernel (asynchronously they are counted as their compiles finish).
inline std::uint64_t kernels_run() {
  jet::synchronize();
  const jet::cache::statistics s = jet::cache::stats();
  return s.memory_hits + s.disk_hits + s.compiles;
}

}  // namespace jet_test
