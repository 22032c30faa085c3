// Shared by the linear-algebra GPU tests: operands laid out as cuBLAS meets them (C, F,
// transposed, padded, strided, broadcast batches), numpy.matmul on the host in double (complex
// double for complex, exact wrapping arithmetic for integers), and comparisons whose tolerance
// scales with sum |a||b| over the products summed, per dtype.
#pragma once

#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "gpu/comparison.hpp"
#include "support/matmul_indexing.hpp"

namespace jet_test {

enum class matrix_layout { c, f, transposed, padded, strided, batch_broadcast };
inline constexpr matrix_layout all_matrix_layouts[] = {
    matrix_layout::c,      matrix_layout::f,       matrix_layout::transposed,
    matrix_layout::padded, matrix_layout::strided, matrix_layout::batch_broadcast};

inline const char* name(matrix_layout l) {
  switch (l) {
    case matrix_layout::c: return "C order";
    case matrix_layout::f: return "F order (a.T of a C-ordered array)";
    case matrix_layout::transposed: return "last two axes a transposed view";
    case matrix_layout::padded: return "padded rows (a[..., 2:2+n] of a wider array)";
    case matrix_layout::strided: return "every other column (a[..., 1::2])";
    case matrix_layout::batch_broadcast: return "first axis broadcast (stride 0)";
  }
  return "?";
}

// Whether cuBLAS cannot read an operand of shape s laid out as l, so that matmul copies it: an
// F-ordered stack has its batch axis fastest and no unit stride inside its matrices; every other
// column leaves a matrix no unit stride (a vector, 1-D or a single row, takes increment 2); a
// broadcast axis inside a matrix or vector has stride 0.
inline bool needs_copy(matrix_layout l, const jet::shape& s) {
  const int n = s.size();
  const bool matrix = n >= 2 && s[n - 1] > 1 && s[n - 2] > 1;
  std::int64_t stacked = 1;
  for (int d = 0; d + 2 < n; ++d) stacked *= s[d];
  switch (l) {
    case matrix_layout::f: return matrix && stacked > 1;
    case matrix_layout::strided: return matrix;
    case matrix_layout::batch_broadcast: return n < 3;
    default: return false;
  }
}

// A random operand of shape s laid out as l, viewing a larger random device array.
template <class T>
operand<T> matrix_operand(std::mt19937& rng, const jet::shape& s, matrix_layout l,
                          const domain& d = {}) {
  const int n = s.size(), last = n - 1;
  jet::shape base = s;
  switch (l) {
    case matrix_layout::f: std::reverse(base.begin(), base.end()); break;
    case matrix_layout::transposed:
      if (n >= 2) std::swap(base[last], base[last - 1]);
      break;
    case matrix_layout::padded: base[last] += 5; break;
    case matrix_layout::strided: base[last] *= 2; break;
    case matrix_layout::batch_broadcast: base.erase(0); break;
    case matrix_layout::c: break;
  }
  const host_values<T> host = random_values<T>(rng, base.product(), d);
  const jet::array device = upload(host, base);
  jet::array view = device;
  switch (l) {
    case matrix_layout::f: view = device.T(); break;
    case matrix_layout::transposed:
      if (n >= 2) view = device.swapaxes(-1, -2);
      break;
    case matrix_layout::padded: view = device(jet::ellipsis, jet::slice(2, 2 + s[last])); break;
    case matrix_layout::strided: view = device(jet::ellipsis, jet::slice(1, jet::none, 2)); break;
    case matrix_layout::batch_broadcast: view = device.broadcast_to(s); break;
    case matrix_layout::c: break;
  }
  REQUIRE(jet::to_string(view.shape()) == jet::to_string(s));
  REQUIRE(view.shares_buffer_with(device));
  return {view, gather(host, s, view.strides(), view.offset())};
}

// numpy.matmul on the host, and per element sum |a||b| over the products it adds.
template <class R>
struct product_reference {
  std::vector<wide_t<R>> values;
  std::vector<double> magnitudes;
};

// Sums products as a result of dtype R takes them: in complex double (conjugating as asked),
// in wrapping 64-bit integers, or as an OR of ANDs for bool; sum |a||b| alongside.
template <class R>
struct product_sum {
  cdouble sum = 0;
  std::uint64_t wrapped = 0;
  bool any = false;
  double magnitude = 0;

  template <class X, class Y>
  void add(X x, Y y, bool conj_x = false, bool conj_y = false) {
    if constexpr (std::is_integral_v<R>) {
      wrapped += static_cast<std::uint64_t>(x) * static_cast<std::uint64_t>(y);
      any = any || (x && y);
    } else {
      const cdouble cx = conj_x ? std::conj(cdouble(x)) : cdouble(x);
      const cdouble cy = conj_y ? std::conj(cdouble(y)) : cdouble(y);
      sum += cx * cy;
      magnitude += std::abs(cx) * std::abs(cy);
    }
  }
  void append_to(product_reference<R>& out) const {
    if constexpr (std::is_same_v<R, bool>)
      out.values.push_back(any);
    else if constexpr (std::is_integral_v<R>)
      out.values.push_back(static_cast<R>(wrapped));
    else if constexpr (is_complex_v<R>)
      out.values.push_back(sum);
    else
      out.values.push_back(sum.real());
    out.magnitudes.push_back(magnitude);
  }
};

template <class R, class A, class B>
product_reference<R> matmul_reference(const operand<A>& a, const operand<B>& b, bool conj_a = false,
                                      bool conj_b = false) {
  const matmul_indexing at(a.device.shape(), b.device.shape());
  product_reference<R> out;
  for (std::int64_t p = 0; p < at.batch.product(); ++p)
    for (std::int64_t i = 0; i < at.m; ++i)
      for (std::int64_t j = 0; j < at.n; ++j) {
        product_sum<R> s;
        for (std::int64_t l = 0; l < at.k; ++l)
          s.add(widen(a.values[at.a_index(p, i, l)]), widen(b.values[at.b_index(p, l, j)]), conj_a,
                conj_b);
        s.append_to(out);
      }
  return out;
}

// The bound on |got - want| / sum |a||b| for a product of k terms computed in dtype t: the
// result's rounding plus a worst-case float32 (float64) accumulation; TF32 rounds each input
// to 10 mantissa bits (truncating, at worst). Complex products add a few more roundings.
inline double product_tolerance(jet::dtype t, std::int64_t k, bool tf32 = false) {
  const double kk = static_cast<double>(k + 2);
  switch (t) {
    case jet::dtype::float16: return 2 * (4.9e-4 + kk * 6e-8);
    case jet::dtype::bfloat16: return 2 * (3.9e-3 + kk * 6e-8);
    case jet::dtype::float32: return tf32 ? 4e-3 + kk * 1.2e-7 : kk * 1.2e-7;
    case jet::dtype::complex64: return tf32 ? 8e-3 + kk * 2.4e-7 : kk * 2.4e-7;
    case jet::dtype::float64: return kk * 2.3e-16;
    case jet::dtype::complex128: return kk * 4.6e-16;
    default: return 0.0;
  }
}

// "" when `got` matches the reference within product_tolerance; else the first mismatch.
template <class R>
std::string product_mismatch(const jet::array& got, const product_reference<R>& want,
                             std::int64_t k, bool tf32 = false) {
  if (std::string m = dtype_or_size_mismatch<R>(got, want.values.size()); !m.empty()) return m;
  const host_values<R> host = download<R>(got);
  const double rtol = product_tolerance(got.dtype(), k, tf32);
  std::int64_t bad = 0, first = -1;
  for (std::int64_t i = 0; i < host.size(); ++i) {
    const auto& w = want.values[static_cast<std::size_t>(i)];
    bool ok;
    if constexpr (std::is_integral_v<R>)
      ok = host[i] == w;
    else
      ok = std::abs(cdouble(widen(host[i])) - cdouble(w)) <=
           rtol * want.magnitudes[static_cast<std::size_t>(i)];
    if (!ok && bad++ == 0) first = i;
  }
  if (bad == 0) return {};
  std::ostringstream s;
  s << bad << " of " << host.size() << " elements differ; the first at "
    << multi_index(got.shape(), first) << ": got " << show(widen(host[first])) << ", want "
    << show(want.values[static_cast<std::size_t>(first)]) << " (" << jet::name(got.dtype())
    << ", bound " << rtol << " x " << want.magnitudes[static_cast<std::size_t>(first)] << ")";
  return s.str();
}

template <class R>
void check_product(const jet::array& got, const product_reference<R>& want, std::int64_t k,
                   bool tf32 = false) {
  const std::string m = product_mismatch<R>(got, want, k, tf32);
  INFO(m);
  CHECK(m.empty());
}

// Counters of what the products did between construction and now.
struct linalg_delta {
  jet::linalg::statistics before = jet::linalg::stats();
  jet::linalg::statistics now() const {
    const jet::linalg::statistics after = jet::linalg::stats();
    jet::linalg::statistics d;
    d.gemm = after.gemm - before.gemm;
    d.gemm_batched = after.gemm_batched - before.gemm_batched;
    d.gemv = after.gemv - before.gemv;
    d.integer_kernels = after.integer_kernels - before.integer_kernels;
    d.copies = after.copies - before.copies;
    return d;
  }
};

}  // namespace jet_test
