// dot, vdot, inner, outer, tensordot, matrix_power, trace and diagonal on a GPU against host
// contractions in double (complex double, exact integers), over dtypes and operand layouts.
#include <complex>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "gpu/linalg_reference.hpp"

namespace {

using namespace jet_test;

const jet::dtype function_dtypes[] = {jet::float32, jet::float64, jet::complex64, jet::complex128,
                                      jet::float16, jet::int32,   jet::int64,     jet::bool_};

// The sum over a's axes a_axes[i] against b's b_axes[i] (a conjugated if asked), in the order
// numpy.tensordot gives: a's free axes, then b's.
template <class R, class A, class B>
product_reference<R> tensordot_reference(const jet::shape& as, const host_values<A>& a_values,
                                         const jet::shape& bs, const host_values<B>& b_values,
                                         const std::vector<int>& a_axes,
                                         const std::vector<int>& b_axes, bool conj_a = false) {
  const jet::shape a_strides = c_strides(as), b_strides = c_strides(bs);
  std::vector<int> a_free, b_free;
  auto summed = [](const std::vector<int>& axes, int d) {
    return std::find(axes.begin(), axes.end(), d) != axes.end();
  };
  for (int d = 0; d < as.size(); ++d)
    if (!summed(a_axes, d)) a_free.push_back(d);
  for (int d = 0; d < bs.size(); ++d)
    if (!summed(b_axes, d)) b_free.push_back(d);
  std::int64_t free_count = 1, sum_count = 1;
  for (int d : a_free) free_count *= as[d];
  for (int d : b_free) free_count *= bs[d];
  for (int d : a_axes) sum_count *= as[d];
  product_reference<R> out;
  for (std::int64_t f = 0; f < free_count; ++f) {
    std::int64_t ai = 0, bi = 0, rest = f;
    for (std::size_t i = b_free.size(); i-- > 0;) {
      bi += (rest % bs[b_free[i]]) * b_strides[b_free[i]];
      rest /= bs[b_free[i]];
    }
    for (std::size_t i = a_free.size(); i-- > 0;) {
      ai += (rest % as[a_free[i]]) * a_strides[a_free[i]];
      rest /= as[a_free[i]];
    }
    product_sum<R> sum;
    for (std::int64_t s = 0; s < sum_count; ++s) {
      std::int64_t at = ai, bt = bi, r = s;
      for (std::size_t i = a_axes.size(); i-- > 0;) {
        const std::int64_t index = r % as[a_axes[i]];
        r /= as[a_axes[i]];
        at += index * a_strides[a_axes[i]];
        bt += index * b_strides[b_axes[i]];
      }
      sum.add(widen(a_values[at]), widen(b_values[bt]), conj_a);
    }
    sum.append_to(out);
  }
  return out;
}

template <class R, class A, class B>
product_reference<R> tensordot_reference(const operand<A>& a, const operand<B>& b,
                                         const std::vector<int>& a_axes,
                                         const std::vector<int>& b_axes) {
  return tensordot_reference<R>(a.device.shape(), a.values, b.device.shape(), b.values, a_axes,
                                b_axes);
}

// Runs f(T, salt) for each dtype of function_dtypes, each case guarded.
template <class F>
void over_dtypes(const char* what, F&& f) {
  for (jet::dtype t : function_dtypes)
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      INFO(what << " " << jet::name(t));
      guarded([&] { f(type_tag<T>{}, seeded(what, t)); });
    });
}

}  // namespace

TEST_CASE("dot and inner: 0-d, vectors, matrices and N-D operands over layouts", "[gpu][linalg]") {
  struct dot_case {
    jet::shape a, b;
    matrix_layout la, lb;
  };
  const dot_case cases[] = {
      {{5, 7}, {7, 3}, matrix_layout::c, matrix_layout::transposed},
      {{5, 7}, {7, 3}, matrix_layout::f, matrix_layout::padded},
      {{7}, {7}, matrix_layout::strided, matrix_layout::c},
      {{4, 5, 7}, {7}, matrix_layout::transposed, matrix_layout::c},
      {{2, 5, 7}, {3, 7, 4}, matrix_layout::c, matrix_layout::transposed},
      {{7}, {3, 7, 4}, matrix_layout::c, matrix_layout::strided},
      {{5, 0}, {0, 3}, matrix_layout::c, matrix_layout::c},
      {{1, 1}, {1, 1}, matrix_layout::c, matrix_layout::c},
  };
  over_dtypes("dot", [&]<class T>(type_tag<T>, std::mt19937 rng) {
    for (const dot_case& c : cases) {
      INFO(jet::to_string(c.a) << " " << name(c.la) << " . " << jet::to_string(c.b) << " "
                               << name(c.lb));
      const operand<T> a = matrix_operand<T>(rng, c.a, c.la, small_integers);
      const operand<T> b = matrix_operand<T>(rng, c.b, c.lb, small_integers);
      const int b_axis = std::max(c.b.size() - 2, 0);
      check_product<T>(jet::dot(a.device, b.device),
                       tensordot_reference<T>(a, b, {c.a.size() - 1}, {b_axis}), c.a.back());
      // inner sums over both last axes: b with its last two axes the other way round.
      jet::shape inner_shape = c.b;
      if (c.b.size() >= 2) std::swap(inner_shape[c.b.size() - 1], inner_shape[c.b.size() - 2]);
      const operand<T> b2 = matrix_operand<T>(rng, inner_shape, c.lb, small_integers);
      check_product<T>(jet::inner(a.device, b2.device),
                       tensordot_reference<T>(a, b2, {c.a.size() - 1}, {inner_shape.size() - 1}),
                       c.a.back());
    }
    // A 0-d operand multiplies.
    const operand<T> s = matrix_operand<T>(rng, {}, matrix_layout::c, small_integers);
    const operand<T> m = matrix_operand<T>(rng, {3, 4}, matrix_layout::transposed, small_integers);
    check_product<T>(jet::dot(s.device, m.device), tensordot_reference<T>(s, m, {}, {}), 1);
    check_product<T>(jet::inner(m.device, s.device), tensordot_reference<T>(m, s, {}, {}), 1);
  });
}

TEST_CASE("vdot conjugates its first operand and flattens both", "[gpu][linalg]") {
  over_dtypes("vdot", [&]<class T>(type_tag<T>, std::mt19937 rng) {
    const operand<T> a = matrix_operand<T>(rng, {3, 4}, matrix_layout::transposed, small_integers);
    const operand<T> b = matrix_operand<T>(rng, {12}, matrix_layout::strided, small_integers);
    const jet::array got = jet::vdot(a.device, b.device);
    CHECK(got.ndim() == 0);
    // The reference over a's elements in C order, as ravel gives them.
    check_product<T>(
        got, tensordot_reference<T>({12}, a.values, {12}, b.values, {0}, {0}, is_complex_v<T>), 12);
    CHECK_THROWS_AS(jet::vdot(a.device, jet::empty({5}, a.device.dtype())), jet::value_error);
  });
}

TEST_CASE("outer multiplies the flattened operands lazily", "[gpu][linalg]") {
  over_dtypes("outer", [&]<class T>(type_tag<T>, std::mt19937 rng) {
    const operand<T> a = matrix_operand<T>(rng, {2, 3}, matrix_layout::f, small_integers);
    const operand<T> b = matrix_operand<T>(rng, {4}, matrix_layout::strided, small_integers);
    const jet::expr e = jet::outer(a.device, b.device);
    CHECK(jet::to_string(e.shape()) == "(6,4)");
    check_product<T>(e, tensordot_reference<T>({6, 1}, a.values, {1, 4}, b.values, {1}, {0}), 1);
  });
}

TEST_CASE("tensordot over counts and axis lists", "[gpu][linalg]") {
  over_dtypes("tensordot", [&]<class T>(type_tag<T>, std::mt19937 rng) {
    const operand<T> a =
        matrix_operand<T>(rng, {3, 4, 5}, matrix_layout::transposed, small_integers);
    const operand<T> b = matrix_operand<T>(rng, {4, 5, 2}, matrix_layout::c, small_integers);
    check_product<T>(jet::tensordot(a.device, b.device),
                     tensordot_reference<T>(a, b, {1, 2}, {0, 1}), 20);
    check_product<T>(jet::tensordot(a.device, b.device, 0), tensordot_reference<T>(a, b, {}, {}),
                     1);
    const operand<T> c = matrix_operand<T>(rng, {5, 2, 3}, matrix_layout::f, small_integers);
    check_product<T>(jet::tensordot(a.device, c.device, {2, 0}, {0, 2}),
                     tensordot_reference<T>(a, c, {2, 0}, {0, 2}), 15);
    check_product<T>(jet::tensordot(a.device, c.device, {-1}, {0}),
                     tensordot_reference<T>(a, c, {2}, {0}), 5);
  });
}

TEST_CASE("matrix_power by repeated squaring, n = 0 the identity", "[gpu][linalg]") {
  over_dtypes("matrix_power", [&]<class T>(type_tag<T>, std::mt19937 rng) {
    const domain signs{.lo = -1, .hi = 1, .integral = true, .integers = int_range{-1, 1}};
    const operand<T> a = matrix_operand<T>(rng, {2, 4, 4}, matrix_layout::transposed, signs);
    // a^n on the host, one product at a time, with |a|^n as the magnitudes.
    product_reference<T> power;
    for (std::int64_t i = 0; i < 32; ++i) {
      const bool diagonal = (i / 4) % 4 == i % 4;
      power.values.push_back(to_wide<T>(diagonal ? 1 : 0));
      power.magnitudes.push_back(diagonal ? 1.0 : 0.0);
    }
    for (int n = 0; n <= 5; ++n) {
      INFO("n = " << n);
      check_product<T>(jet::linalg::matrix_power(a.device, n), power, 4);
      product_reference<T> next;
      for (std::int64_t i = 0; i < 32; ++i) {
        const std::int64_t m = i / 16, row = (i / 4) % 4, col = i % 4;
        wide_t<T> sum{};
        double magnitude = 0;
        for (std::int64_t l = 0; l < 4; ++l) {
          const wide_t<T> x = widen(a.values[m * 16 + row * 4 + l]);
          const std::size_t at = static_cast<std::size_t>(m * 16 + l * 4 + col);
          if constexpr (std::is_same_v<T, bool>)
            sum = sum || (x && power.values[at]);
          else
            sum += x * power.values[at];
          magnitude += std::abs(cdouble(x)) * power.magnitudes[at];
        }
        next.values.push_back(sum);
        next.magnitudes.push_back(magnitude);
      }
      power = next;
    }
    CHECK_THROWS_AS(jet::linalg::matrix_power(a.device, -1), jet::value_error);
  });
}

TEST_CASE("diagonal is a view and trace sums it", "[gpu][linalg]") {
  over_dtypes("diagonal", [&]<class T>(type_tag<T>, std::mt19937 rng) {
    const operand<T> a = matrix_operand<T>(rng, {3, 5, 4}, matrix_layout::padded, small_integers);
    for (const std::int64_t offset : {0, 1, -2, 7}) {
      INFO("offset " << offset);
      const jet::array d = jet::diagonal(a.device, offset, 2, 1);
      CHECK(d.shares_buffer_with(a.device));
      const std::int64_t length =
          std::max<std::int64_t>(0, std::min<std::int64_t>(4 - std::max<std::int64_t>(-offset, 0),
                                                           5 - std::max<std::int64_t>(offset, 0)));
      CHECK(jet::to_string(d.shape()) == "(3," + std::to_string(length) + ")");
      std::vector<wide_t<T>> want;
      product_reference<T> sums;
      std::vector<std::int64_t> integer_sums;
      for (std::int64_t i = 0; i < 3; ++i) {
        cdouble total = 0;
        std::int64_t integer_total = 0;
        double magnitude = 0;
        for (std::int64_t t = 0; t < length; ++t) {
          // axis1 (2) at t + max(-offset, 0), axis2 (1) at t + max(offset, 0), as NumPy's.
          const T v = a.values[i * 20 + (t + std::max<std::int64_t>(offset, 0)) * 4 + t +
                               std::max<std::int64_t>(-offset, 0)];
          want.push_back(widen(v));
          total += cdouble(widen(v));
          if constexpr (std::is_integral_v<T>) integer_total += static_cast<std::int64_t>(v);
          magnitude += std::abs(cdouble(widen(v)));
        }
        if constexpr (is_complex_v<T>)
          sums.values.push_back(total);
        else
          sums.values.push_back(static_cast<wide_t<T>>(total.real()));
        sums.magnitudes.push_back(magnitude);
        integer_sums.push_back(integer_total);
      }
      check_close<T>(d, want);
      const jet::array trace = jet::trace(a.device, offset, 2, 1);
      CHECK(jet::to_string(trace.shape()) == "(3,)");
      // trace's dtype is sum's: integers and bool widen to int64.
      if constexpr (std::is_integral_v<T>) {
        CHECK(trace.dtype() == jet::int64);
        const std::vector<std::int64_t> got = trace.to_vector<std::int64_t>();
        CHECK(got == integer_sums);
      } else {
        check_product<T>(trace, sums, length);
      }
    }
  });
}
