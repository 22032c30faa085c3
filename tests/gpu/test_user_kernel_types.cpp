// User kernels over float16, bfloat16, complex64 and complex128 on the device: CUDA's __half
// and __nv_bfloat16 and libcu++'s complex in elementwise kernels (a strided and a broadcast
// operand, scalars of each type, a raw complex operand), raw_kernel scalars of each type, and
// reductions in complex128 and in float32 over float16 inputs.
#include <cmath>
#include <complex>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpu/comparison.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

using jet_test::download;
using jet_test::host_values;
using wide_complex = std::complex<long double>;

// A host value as a complex long double: exact for every type here.
template <class T>
wide_complex exact(T x) {
  if constexpr (jet_test::is_complex_v<T>)
    return {x.real(), x.imag()};
  else
    return {static_cast<float>(x), 0.0L};
}

// The gap between 1 and the next value of T's precision, and T's smallest normal magnitude.
template <class T>
long double epsilon_of() {
  if constexpr (std::is_same_v<T, jet::float16_t>)
    return std::ldexp(1.0L, -10);
  else if constexpr (std::is_same_v<T, jet::bfloat16_t>)
    return std::ldexp(1.0L, -7);
  else
    return std::numeric_limits<typename T::value_type>::epsilon();
}
template <class T>
long double smallest_normal() {
  if constexpr (std::is_same_v<T, jet::float16_t>)
    return std::ldexp(1.0L, -14);
  else if constexpr (std::is_same_v<T, jet::bfloat16_t>)
    return std::numeric_limits<float>::min();
  else
    return std::numeric_limits<typename T::value_type>::min();
}

// "" when ok(k) holds for every k < n; else how many fail and the first, shown by show(k).
std::string failures(std::int64_t n, const std::function<bool(std::int64_t)>& ok,
                     const std::function<std::string(std::int64_t)>& show) {
  std::int64_t bad = 0, first = -1;
  for (std::int64_t k = 0; k < n; ++k)
    if (!ok(k) && bad++ == 0) first = k;
  if (bad == 0) return {};
  return std::to_string(bad) + " of " + std::to_string(n) + " elements differ; the first, " +
         std::to_string(first) + ": " + show(first);
}

std::string shown(const wide_complex& z) {
  return "(" + jet_test::show(static_cast<double>(z.real())) + ", " +
         jet_test::show(static_cast<double>(z.imag())) + ")";
}

// z = x * a + y over a (37, 129) result: x a transposed (strided) view, y a row broadcast down
// the columns, `a` a scalar. Each operation rounds once in T (twice when not contracted into
// an FMA; a complex product within sqrt(5) units of its magnitude), so the error stays within
// 4 epsilons of |x||a| + |y|; the smallest normal covers results among T's subnormals.
template <class T>
void check_axpy(const jet::elementwise_kernel& k, const jet::kernel_arg& a,
                const wide_complex& a_value) {
  constexpr jet::dtype type = jet::dtype_of<T>();
  const std::int64_t rows = 37, cols = 129;
  std::mt19937 rng = jet_test::seeded("user kernel axpy", type);
  const host_values<T> hx = jet_test::random_values<T>(rng, rows * cols),
                       hy = jet_test::random_values<T>(rng, cols);
  const jet::array x = jet_test::upload(hx, {cols, rows}).T(), y = jet_test::upload(hy, {cols});
  const jet::array out = jet::full({rows, cols}, jet::expr(-12345.0), type);
  const jet::array given = k(x, y, a, out)[0];
  CHECK(given.shares_buffer_with(out));
  const jet::array allocated = k(x, y, a);
  REQUIRE(allocated.dtype() == type);
  REQUIRE(allocated.shape() == jet::shape{rows, cols});
  for (const jet::array& z : {given, allocated}) {
    const host_values<T> got = download<T>(z);
    const auto x_at = [&](std::int64_t i) {
      return exact(hx[(i % cols) * rows + i / cols]);
    };  // x[i / cols, i % cols]
    const auto want = [&](std::int64_t i) { return x_at(i) * a_value + exact(hy[i % cols]); };
    const auto ok = [&](std::int64_t i) {
      const long double scale = std::abs(x_at(i)) * std::abs(a_value) +
                                std::abs(exact(hy[i % cols])) + smallest_normal<T>();
      return std::abs(exact(got[i]) - want(i)) <= 4 * epsilon_of<T>() * scale;
    };
    const std::string m = failures(rows * cols, ok, [&](std::int64_t i) {
      return "got " + shown(exact(got[i])) + ", want " + shown(want(i));
    });
    INFO(jet::name(type) << ": " << m);
    CHECK(m.empty());
  }
}

}  // namespace

TEST_CASE("elementwise_kernel over float16 and bfloat16 with scalars of their type",
          "[gpu][user_kernels]") {
  const jet::elementwise_kernel k("T x, T y, T a", "T z", "z = x * a + y", "axpy_16");
  const jet::float16_t half(-1.3f);
  const jet::bfloat16_t brain(-1.3f);
  check_axpy<jet::float16_t>(k, half, exact(half));
  check_axpy<jet::bfloat16_t>(k, brain, exact(brain));
  // A double where the arrays fix T: rounded once to T.
  check_axpy<jet::float16_t>(k, 0.7, exact(jet::float16_t(0.7f)));
  check_axpy<jet::bfloat16_t>(k, 0.7, exact(jet::bfloat16_t(0.7f)));
  // A 16-bit scalar fixes T as an array does: float32 arrays and a float16 scalar disagree.
  const jet::array single = jet::asarray(std::vector<float>{1, 2});
  CHECK_THROWS_WITH(k(single, single, half),
                    jet_test::contains("input 'a' is float16 but type T is float32 from 'x'"));
}

TEST_CASE("elementwise_kernel over complex64 and complex128 with complex scalars",
          "[gpu][user_kernels]") {
  const jet::elementwise_kernel k("T x, T y, T a", "T z", "z = x * a + y", "axpy_complex");
  const std::complex<float> single(0.6f, -1.3f);
  const std::complex<double> twice(0.6, -1.3);
  check_axpy<std::complex<float>>(k, single, exact(single));
  check_axpy<std::complex<double>>(k, twice, exact(twice));
  check_axpy<std::complex<float>>(k, 0.7, exact(std::complex<float>(0.7f)));
  // A complex scalar cannot go where the arrays make T real.
  const jet::array reals = jet::asarray(std::vector<double>{1, 2});
  CHECK_THROWS_AS(k(reals, reals, twice), jet::dtype_error);
}

TEST_CASE("elementwise_kernel: typed 16-bit and complex scalars beside a raw complex operand",
          "[gpu][user_kernels]") {
  const jet::elementwise_kernel k("raw T r, float16 h, bfloat16 b, complex64 c", "T z",
                                  "z = r[r.size() - 1 - i] * T((double)h, (double)b) + (T)c",
                                  "scalar_slots");
  const std::int64_t n = 1000;
  std::mt19937 rng = jet_test::seeded("user kernel scalar slots", jet::complex128);
  const host_values<std::complex<double>> hr =
      jet_test::random_values<std::complex<double>>(rng, n);
  const jet::float16_t h(-0.3f);
  const jet::bfloat16_t b(2.7f);
  const std::complex<float> c(0.25f, -0.1f);
  const jet::array out = jet::full({n}, jet::expr(-12345.0), jet::complex128);
  k(jet_test::upload(hr, {n}), h, b, c, out);
  const host_values<std::complex<double>> got = download<std::complex<double>>(out);
  const wide_complex factor(static_cast<float>(h), static_cast<float>(b));
  const auto want = [&](std::int64_t i) { return exact(hr[n - 1 - i]) * factor + exact(c); };
  const auto ok = [&](std::int64_t i) {
    const long double scale =
        std::abs(exact(hr[n - 1 - i])) * std::abs(factor) + std::abs(exact(c));
    return std::abs(exact(got[i]) - want(i)) <= 4 * epsilon_of<std::complex<double>>() * scale;
  };
  const std::string m = failures(n, ok, [&](std::int64_t i) {
    return "got " + shown(exact(got[i])) + ", want " + shown(want(i));
  });
  INFO(m);
  CHECK(m.empty());
}

TEST_CASE("raw_kernel takes float16, bfloat16 and complex scalars", "[gpu][user_kernels]") {
  const jet::raw_kernel k(R"(
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#include <cuda/std/complex>
extern "C" __global__ void unpack(__half h, cuda::std::complex<double> z, __nv_bfloat16 b,
                                  cuda::std::complex<float> c, double* out) {
  out[0] = __half2float(h);
  out[1] = z.real();
  out[2] = z.imag();
  out[3] = __bfloat162float(b);
  out[4] = c.real();
  out[5] = c.imag();
}
)",
                          "unpack");
  const jet::float16_t h(-0.3f);
  const jet::bfloat16_t b(2.7f);
  const std::complex<double> z(0.1, -1e300);
  const std::complex<float> c(0.25f, -0.1f);
  const jet::array out = jet::full({6}, jet::expr(-12345.0));
  k(1, 1, h, z, b, c, out);
  const std::vector<double> want = {static_cast<float>(h), 0.1,  -1e300,
                                    static_cast<float>(b), 0.25, -0.1f};
  CHECK(out.to_vector<double>() == want);
}

TEST_CASE("reduction_kernel sums complex128 over axes, exactly", "[gpu][user_kernels]") {
  const jet::reduction_kernel sum("T x", "T y", "x", "a + b", "y = a", "0", "complex_sum");
  // Parts are multiples of 2^-20 in [-1, 1]: every partial sum is exact in double, so any order
  // of additions gives the exact sum, computed here from the integers.
  const std::int64_t rows = 3, cols = 100003;
  std::mt19937 rng = jet_test::seeded("user complex sum", jet::complex128);
  std::uniform_int_distribution<std::int64_t> part(-(1 << 20), 1 << 20);
  std::vector<std::int64_t> re(rows * cols), im(rows * cols);
  host_values<std::complex<double>> hx(rows * cols);
  for (std::int64_t i = 0; i < rows * cols; ++i) {
    re[i] = part(rng);
    im[i] = part(rng);
    hx[i] = {std::ldexp(static_cast<double>(re[i]), -20),
             std::ldexp(static_cast<double>(im[i]), -20)};
  }
  const jet::array x = jet_test::upload(hx, {rows, cols});
  // The exact sums of the elements `at(0..count)`.
  const auto exact_sum = [&](std::int64_t count,
                             const std::function<std::int64_t(std::int64_t)>& at) {
    std::int64_t r = 0, i = 0;
    for (std::int64_t k = 0; k < count; ++k) {
      r += re[at(k)];
      i += im[at(k)];
    }
    return std::complex<double>(std::ldexp(static_cast<double>(r), -20),
                                std::ldexp(static_cast<double>(i), -20));
  };
  // Along rows: few outputs, so the rows are cut into chunks merged through the work buffer.
  const jet::array by_row = jet::full({rows}, jet::expr(-12345.0), jet::complex128);
  sum.call({x, by_row}, 1);
  const host_values<std::complex<double>> rows_got = download<std::complex<double>>(by_row);
  for (std::int64_t r = 0; r < rows; ++r)
    CHECK(rows_got[r] == exact_sum(cols, [&](std::int64_t k) { return r * cols + k; }));
  // Along columns: a thread per output.
  const jet::array by_col = sum.call({x}, 0, true)[0];
  REQUIRE(by_col.shape() == jet::shape{1, cols});
  const host_values<std::complex<double>> cols_got = download<std::complex<double>>(by_col);
  const std::string m = failures(
      cols,
      [&](std::int64_t c) {
        return cols_got[c] == exact_sum(rows, [&](std::int64_t k) { return k * cols + c; });
      },
      [&](std::int64_t c) { return "got " + shown(exact(cols_got[c])); });
  INFO(m);
  CHECK(m.empty());
  CHECK(sum(x)[0].item<std::complex<double>>() ==
        exact_sum(rows * cols, [](std::int64_t k) { return k; }));
}

TEST_CASE("reduction_kernel sums float16 in float32, rounding once", "[gpu][user_kernels]") {
  const jet::reduction_kernel sum("T x", "T y", "x", "a + b", "y = a", "0", "half_sum", "float32");
  // Elements are multiples of 2^-8 in [-0.5, 1]: partial sums stay below 2^16 in magnitude, so
  // float32 holds each exactly, and the result is the exact sum rounded once to float16. Sums
  // kept in float16 would lose the low bits of every element once they pass 4.
  const std::int64_t rows = 6, cols = 4096;
  std::mt19937 rng = jet_test::seeded("user half sum", jet::float16);
  std::uniform_int_distribution<int> steps(-128, 256);
  std::vector<int> units(rows * cols);
  host_values<jet::float16_t> hx(rows * cols);
  for (std::int64_t i = 0; i < rows * cols; ++i) {
    units[i] = steps(rng);
    hx[i] = jet::float16_t(std::ldexp(static_cast<float>(units[i]), -8));
  }
  const jet::array x = jet_test::upload(hx, {rows, cols});
  const auto rounded_sum = [&](std::int64_t count,
                               const std::function<std::int64_t(std::int64_t)>& at) {
    std::int64_t total = 0;
    for (std::int64_t k = 0; k < count; ++k) total += units[at(k)];
    return jet::float16_t(std::ldexp(static_cast<float>(total), -8)).bits;
  };
  const auto bits_of = [](const jet::array& a) {
    const host_values<jet::float16_t> h = download<jet::float16_t>(a);
    std::vector<std::uint16_t> bits(static_cast<std::size_t>(h.size()));
    for (std::int64_t k = 0; k < h.size(); ++k) bits[k] = h[k].bits;
    return bits;
  };
  // Along rows (a block per output), poisoned output passed in.
  const jet::array by_row = jet::full({rows}, jet::expr(-12345.0), jet::float16);
  sum.call({x, by_row}, 1);
  const std::vector<std::uint16_t> rows_got = bits_of(by_row);
  for (std::int64_t r = 0; r < rows; ++r)
    CHECK(rows_got[r] == rounded_sum(cols, [&](std::int64_t k) { return r * cols + k; }));
  // Along columns (a thread per output), and everything (chunks through a float32 work buffer).
  const jet::array by_col = sum.call({x}, 0)[0];
  REQUIRE(by_col.dtype() == jet::float16);
  const std::vector<std::uint16_t> cols_got = bits_of(by_col);
  const std::string m = failures(
      cols,
      [&](std::int64_t c) {
        return cols_got[c] == rounded_sum(rows, [&](std::int64_t k) { return k * cols + c; });
      },
      [&](std::int64_t c) { return "got bits " + std::to_string(cols_got[c]); });
  INFO(m);
  CHECK(m.empty());
  CHECK(bits_of(sum(x)[0]) ==
        std::vector<std::uint16_t>{rounded_sum(rows * cols, [](std::int64_t k) { return k; })});
}
