// jet::matmul on a GPU against numpy.matmul computed on the host: every cuBLAS dtype over every
// operand layout and product shape (matrices, stacks, broadcast stacks, matrix-vector, vectors),
// with the cuBLAS calls and copies each must make; integer and bool products exact; mixed
// dtypes; conjugated operands; the out argument; empty and 1x1 products; TF32; streams.
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpu/linalg_reference.hpp"

namespace {

using namespace jet_test;

const jet::dtype blas_dtypes[] = {jet::float16,  jet::float32,   jet::float64,
                                  jet::bfloat16, jet::complex64, jet::complex128};

struct product_shape {
  jet::shape a, b;
};
const product_shape product_shapes[] = {
    {{5, 7}, {7, 3}},       {{33, 64}, {64, 17}},   {{4, 5, 7}, {4, 7, 3}},
    {{1, 5, 7}, {4, 7, 3}}, {{5, 7}, {2, 4, 7, 3}}, {{5, 7}, {7}},
    {{7}, {7, 3}},          {{4, 5, 7}, {7}},       {{7}, {7}},
    {{3, 1, 4}, {3, 4, 6}},
};

jet::shape result_shape(const product_shape& s) {
  return jet::matmul(jet::placeholder(s.a), jet::placeholder(s.b)).shape();
}

// The calls numpy.matmul of these shapes must make: gemv when a side of the result's matrices
// is 1, else one gemm or `batched_calls` strided-batched gemms.
void check_calls(const linalg_delta& delta, const product_shape& s, std::int64_t copies,
                 std::int64_t batched_calls) {
  const jet::shape out = result_shape(s);
  const bool a_vector = s.a.size() == 1, b_vector = s.b.size() == 1;
  const std::int64_t rows = a_vector ? 1 : s.a[s.a.size() - 2], cols = b_vector ? 1 : s.b.back();
  const std::int64_t matrices = out.product() / (rows * cols);
  const jet::linalg::statistics d = delta.now();
  INFO("gemm " << d.gemm << ", batched " << d.gemm_batched << ", gemv " << d.gemv << ", copies "
               << d.copies);
  CHECK(d.copies == copies);
  CHECK(d.integer_kernels == 0);
  if (rows == 1 || cols == 1) {
    CHECK(d.gemv == 1);
    CHECK(d.gemm + d.gemm_batched == 0);
  } else {
    CHECK(d.gemv == 0);
    CHECK(d.gemm == (matrices == 1 ? 1 : 0));
    CHECK(d.gemm_batched == (matrices == 1 ? 0 : batched_calls));
  }
}

}  // namespace

TEST_CASE("matmul over every cuBLAS dtype, layout and product shape", "[gpu][linalg]") {
  for (jet::dtype t : blas_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      if constexpr (is_complex_v<T> || std::is_floating_point_v<T> || is_half_v<T>) {
        std::uint32_t salt = 0;
        for (const product_shape& s : product_shapes)
          for (matrix_layout la : all_matrix_layouts)
            for (matrix_layout lb : all_matrix_layouts) {
              INFO(jet::name(t) << " " << jet::to_string(s.a) << " " << name(la) << " @ "
                                << jet::to_string(s.b) << " " << name(lb));
              guarded([&] {
                std::mt19937 rng = seeded("matmul", t, ++salt);
                const operand<T> a = matrix_operand<T>(rng, s.a, la),
                                 b = matrix_operand<T>(rng, s.b, lb);
                const linalg_delta delta;
                const jet::array got = jet::matmul(a.device, b.device);
                // b's (2,4) batch axes broadcast from (4,) have strides (0, 21): no single stride
                // steps through both, so they take one strided-batched call per index of the first.
                const bool unmerged = lb == matrix_layout::batch_broadcast && s.b.size() == 4;
                check_calls(delta, s, needs_copy(la, s.a) + needs_copy(lb, s.b), unmerged ? 2 : 1);
                CHECK(jet::to_string(got.shape()) == jet::to_string(result_shape(s)));
                check_product<T>(got, matmul_reference<T>(a, b), s.a.back());
              });
            }
      }
    });
  }
}

TEST_CASE("integer and bool products are exact, in the operands' dtype, from one Jet kernel",
          "[gpu][linalg]") {
  const jet::dtype exact_dtypes[] = {jet::bool_, jet::int8,   jet::int16,  jet::int32, jet::int64,
                                     jet::uint8, jet::uint16, jet::uint32, jet::uint64};
  for (jet::dtype t : exact_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      if constexpr (std::is_integral_v<T>) {
        std::uint32_t salt = 0;
        for (const product_shape& s : product_shapes)
          for (matrix_layout l :
               {matrix_layout::c, matrix_layout::transposed, matrix_layout::strided}) {
            INFO(jet::name(t) << " " << jet::to_string(s.a) << " @ " << jet::to_string(s.b) << ", "
                              << name(l));
            guarded([&] {
              std::mt19937 rng = seeded("integer matmul", t, ++salt);
              // Values up to 100: int8 and int16 sums wrap (as NumPy's do, in the result dtype);
              // wider ones stay exact without relying on signed overflow on the device.
              const domain hundreds{.integers = int_range{-100, 100}};
              const operand<T> a = matrix_operand<T>(rng, s.a, l, hundreds),
                               b = matrix_operand<T>(rng, s.b, matrix_layout::c, hundreds);
              const linalg_delta delta;
              const jet::array got = jet::matmul(a.device, b.device);
              const jet::linalg::statistics d = delta.now();
              CHECK(d.integer_kernels == 1);
              CHECK(d.gemm + d.gemm_batched + d.gemv + d.copies == 0);
              check_product<T>(got, matmul_reference<T>(a, b), s.a.back());
            });
          }
      }
    });
  }
  // int8 with uint8 gives int16 (NumPy's promotion), not the widened int64 of a sum.
  std::mt19937 rng(5);
  const operand<std::int8_t> a = matrix_operand<std::int8_t>(rng, {6, 9}, matrix_layout::c);
  const operand<std::uint8_t> b = matrix_operand<std::uint8_t>(rng, {9, 4}, matrix_layout::f);
  const jet::array got = jet::matmul(a.device, b.device);
  check_product<std::int16_t>(got, matmul_reference<std::int16_t>(a, b), 9);
}

TEST_CASE("mixed dtypes are converted once to the promoted dtype", "[gpu][linalg]") {
  std::mt19937 rng(11);
  const operand<std::int32_t> i =
      matrix_operand<std::int32_t>(rng, {6, 8}, matrix_layout::c, small_integers);
  const operand<float> f = matrix_operand<float>(rng, {8, 5}, matrix_layout::transposed);
  linalg_delta delta;
  check_product<double>(jet::matmul(i.device, f.device), matmul_reference<double>(i, f), 8);
  CHECK(delta.now().copies == 2);  // int32 @ float32 is float64: both converted
  const operand<jet::float16_t> h = matrix_operand<jet::float16_t>(rng, {6, 8}, matrix_layout::c);
  const operand<jet::bfloat16_t> bf =
      matrix_operand<jet::bfloat16_t>(rng, {8, 5}, matrix_layout::c);
  check_product<float>(jet::matmul(h.device, bf.device), matmul_reference<float>(h, bf), 8);
  const operand<std::complex<float>> c =
      matrix_operand<std::complex<float>>(rng, {8, 5}, matrix_layout::c);
  delta = linalg_delta();
  const operand<float> g = matrix_operand<float>(rng, {6, 8}, matrix_layout::c);
  check_product<std::complex<float>>(jet::matmul(g.device, c.device),
                                     matmul_reference<std::complex<float>>(g, c), 8);
  CHECK(delta.now().copies == 1);
}

TEST_CASE("conjugated operands: conj of a transposed view is read as CUBLAS_OP_C",
          "[gpu][linalg]") {
  std::mt19937 rng(13);
  using C = std::complex<double>;
  const operand<C> a = matrix_operand<C>(rng, {6, 9}, matrix_layout::c);
  const operand<C> bt =
      matrix_operand<C>(rng, {9, 5}, matrix_layout::transposed);  // b.T of a (5,9) array
  const operand<C> bc = matrix_operand<C>(rng, {9, 5}, matrix_layout::c);
  linalg_delta delta;
  check_product<C>(jet::matmul(a.device, jet::conj(bt.device)),
                   matmul_reference<C>(a, bt, false, true), 9);
  CHECK(delta.now().copies == 0);
  delta = linalg_delta();
  check_product<C>(jet::matmul(a.device, jet::conj(bc.device)),
                   matmul_reference<C>(a, bc, false, true), 9);
  CHECK(delta.now().copies == 1);  // cuBLAS has no conjugate without a transpose
  delta = linalg_delta();
  check_product<C>(jet::matmul(jet::conj(a.device), bc.device),
                   matmul_reference<C>(a, bc, true, false), 9);
  CHECK(delta.now().copies == 1);
  // Any other expression is evaluated first, then multiplied.
  const jet::array doubled = jet::matmul(a.device * 2.0, bc.device);
  const product_reference<C> want = matmul_reference<C>(a, bc);
  product_reference<C> twice = want;
  for (C& v : twice.values) v *= 2.0;
  for (double& m : twice.magnitudes) m *= 2.0;
  check_product<C>(doubled, twice, 9);
}

TEST_CASE("matmul into an out array: any writable layout, poison overwritten", "[gpu][linalg]") {
  std::mt19937 rng(17);
  const operand<float> a = matrix_operand<float>(rng, {3, 6, 8}, matrix_layout::c);
  const operand<float> b = matrix_operand<float>(rng, {3, 8, 5}, matrix_layout::c);
  const product_reference<float> want = matmul_reference<float>(a, b);
  for (bool f_ordered : {false, true}) {
    INFO((f_ordered ? "F-ordered out" : "C-ordered out"));
    jet::array storage =
        jet::full(f_ordered ? jet::shape{5, 6, 3} : jet::shape{3, 6, 5}, -12345.0f, jet::float32);
    const jet::array out = f_ordered ? storage.T() : storage;
    const linalg_delta delta;
    const jet::array returned = jet::matmul(a.device, b.device, out);
    CHECK(returned.data() == out.data());
    CHECK(delta.now().copies ==
          (f_ordered ? 1 : 0));  // an F-ordered stack is batch-fastest: staged
    check_product<float>(out, want, 8);
  }
  // A single F-ordered matrix is written in place: cuBLAS computes out itself, not out^T.
  const operand<float> a2 = matrix_operand<float>(rng, {6, 8}, matrix_layout::c);
  const operand<float> b2 = matrix_operand<float>(rng, {8, 5}, matrix_layout::transposed);
  jet::array f_storage = jet::full({5, 6}, -12345.0f, jet::float32);
  linalg_delta delta_f;
  jet::matmul(a2.device, b2.device, f_storage.T());
  CHECK(delta_f.now().copies == 0);
  CHECK(delta_f.now().gemm == 1);
  check_product<float>(f_storage.T(), matmul_reference<float>(a2, b2), 8);
  // Rows padded within a wider array: written in place, the padding left alone.
  jet::array wide = jet::full({3, 6, 9}, -12345.0f, jet::float32);
  const jet::array padded = wide(jet::ellipsis, jet::slice(2, 7));
  linalg_delta delta;
  jet::matmul(a.device, b.device, padded);
  CHECK(delta.now().copies == 0);
  check_product<float>(padded, want, 8);
  const std::vector<float> all = wide.to_vector<float>();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (i % 9 < 2 || i % 9 >= 7) REQUIRE(all[i] == -12345.0f);
  // Every other column: computed aside, then copied in.
  jet::array spaced = jet::full({3, 6, 10}, -12345.0f, jet::float32);
  delta = linalg_delta();
  jet::matmul(a.device, b.device, spaced(jet::ellipsis, jet::slice(0, jet::none, 2)));
  CHECK(delta.now().copies == 1);
  check_product<float>(spaced(jet::ellipsis, jet::slice(0, jet::none, 2)), want, 8);
  // An out that is also an operand: NumPy reads before writing, and so does Jet.
  const operand<double> sq = matrix_operand<double>(rng, {7, 7}, matrix_layout::c);
  const product_reference<double> square = matmul_reference<double>(sq, sq);
  jet::matmul(sq.device, sq.device, sq.device);
  check_product<double>(sq.device, square, 7);
  CHECK_THROWS_AS(jet::matmul(a.device, b.device, jet::empty({3, 6, 5}, jet::float64)),
                  jet::dtype_error);
}

TEST_CASE("empty products, k = 0 (zeros) and 1x1", "[gpu][linalg]") {
  for (jet::dtype t : {jet::float32, jet::complex128, jet::float16, jet::int32}) {
    INFO(jet::name(t));
    const jet::array k0 = jet::matmul(jet::empty({4, 0}, t), jet::empty({0, 3}, t));
    CHECK(jet::to_string(k0.shape()) == "(4,3)");
    jet::array poisoned = jet::full({2, 4, 3}, 7, t);
    jet::matmul(jet::empty({2, 4, 0}, t), jet::empty({0, 3}, t), poisoned);
    CHECK(jet::array(jet::count_nonzero(poisoned)).item<std::int64_t>() == 0);
    CHECK(jet::array(jet::count_nonzero(k0)).item<std::int64_t>() == 0);
    CHECK(jet::array(jet::matmul(jet::empty({0}, t), jet::empty({0}, t)))
              .astype(jet::float64)
              .item<double>() == 0.0);
    CHECK(jet::matmul(jet::empty({0, 5}, t), jet::empty({5, 3}, t)).size() == 0);
    CHECK(jet::to_string(jet::matmul(jet::empty({2, 0, 5}, t), jet::empty({5}, t)).shape()) ==
          "(2,0)");
    const jet::array one = jet::matmul(jet::full({1, 1}, 3, t), jet::full({1, 1}, 2, t));
    CHECK(one.astype(jet::float64).item<double>() == 6.0);
    CHECK(jet::matmul(jet::full({1}, 3, t), jet::full({1}, 2, t))
              .astype(jet::float64)
              .item<double>() == 6.0);
  }
}

TEST_CASE("A @ B.T reads B in place: no copy, no allocation beyond the result", "[gpu][linalg]") {
  std::mt19937 rng(19);
  const operand<float> a = matrix_operand<float>(rng, {64, 48}, matrix_layout::c);
  const operand<float> b = matrix_operand<float>(rng, {32, 48}, matrix_layout::c);
  const operand<float> bt{b.device.T(), gather(b.values, {48, 32}, {1, 48}, 0)};
  jet::array warm = jet::matmul(a.device, bt.device);  // the handle and its workspace exist now
  const std::size_t in_use = jet::memory::stats().in_use;
  const linalg_delta delta;
  const jet::array got = jet::matmul(a.device, bt.device);
  CHECK(jet::memory::stats().in_use - in_use == static_cast<std::size_t>(got.nbytes()));
  const jet::linalg::statistics d = delta.now();
  CHECK(d.copies == 0);
  CHECK(d.gemm == 1);
  check_product<float>(got, matmul_reference<float>(a, bt), 48);
}

TEST_CASE("TF32 is opt-in: float32 products keep float32 accuracy unless allowed",
          "[gpu][linalg]") {
  std::mt19937 rng(23);
  const operand<float> a = matrix_operand<float>(rng, {256, 512}, matrix_layout::c);
  const operand<float> b = matrix_operand<float>(rng, {512, 256}, matrix_layout::c);
  const product_reference<float> want = matmul_reference<float>(a, b);
  const bool initial = jet::linalg::tf32_allowed();
  jet::linalg::allow_tf32(false);
  const jet::array exact = jet::matmul(a.device, b.device);
  check_product<float>(exact, want, 512);
  jet::linalg::allow_tf32(true);
  const jet::array fast = jet::matmul(a.device, b.device);
  jet::linalg::allow_tf32(initial);
  check_product<float>(fast, want, 512, true);
  // Inputs with full float32 mantissas: TF32's 10-bit products must show.
  CHECK(jet::array(jet::any(jet::not_equal(exact, fast))).item<bool>());
}

TEST_CASE("products on another stream use that stream's handle", "[gpu][linalg]") {
  std::mt19937 rng(29);
  const operand<double> a = matrix_operand<double>(rng, {40, 30}, matrix_layout::c);
  const operand<double> b = matrix_operand<double>(rng, {30, 20}, matrix_layout::transposed);
  const product_reference<double> want = matmul_reference<double>(a, b);
  jet::synchronize();  // the uploads ran on the default stream, which a non-blocking stream does
                       // not wait for
  jet::stream s;
  {
    const jet::stream_guard guard(s);
    const jet::array got = jet::matmul(a.device, b.device);
    s.synchronize();
    check_product<double>(got, want, 30);
  }
  check_product<double>(jet::matmul(a.device, b.device), want, 30);
}

TEST_CASE("matmul results feed fused expressions", "[gpu][linalg]") {
  std::mt19937 rng(31);
  const operand<float> a = matrix_operand<float>(rng, {16, 24}, matrix_layout::c);
  const operand<float> b = matrix_operand<float>(rng, {24, 12}, matrix_layout::f);
  const operand<float> bias = matrix_operand<float>(rng, {12}, matrix_layout::c);
  const jet::array got = jet::maximum(jet::matmul(a.device, b.device) + bias.device, 0.0f);
  const product_reference<float> product = matmul_reference<float>(a, b);
  product_reference<float> want = product;
  for (std::size_t i = 0; i < want.values.size(); ++i) {
    want.values[i] =
        std::max(product.values[i] + widen(bias.values[static_cast<std::int64_t>(i % 12)]), 0.0);
    want.magnitudes[i] += std::abs(widen(bias.values[static_cast<std::int64_t>(i % 12)]));
  }
  check_product<float>(got, want, 24);
}
