// Reductions on a GPU where NumPy's edge rules decide the answer: NaN placement (NaN wins for
// min, max, argmin and argmax; the nan* reductions skip it), the first of tied extremes,
// infinities and signed zeros, empty reductions, and linalg::norm with each ord.
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "gpu/reduce_reference.hpp"

namespace {

using namespace jet_test;

constexpr double not_a_number = std::numeric_limits<double>::quiet_NaN();
constexpr double inf = std::numeric_limits<double>::infinity();

const jet::dtype inexact_dtypes[] = {jet::float16, jet::bfloat16,  jet::float32,
                                     jet::float64, jet::complex64, jet::complex128};

// Rows of n small integers (exact sums, and ties) with NaN placed as each row says: none,
// first, middle, last, two (the first wins), every element. Complex rows put NaN in the real
// part, the imaginary part or both.
enum class nan_at { none, first, middle, last, two, every };
const nan_at nan_rows[] = {nan_at::none, nan_at::first, nan_at::middle,
                           nan_at::last, nan_at::two,   nan_at::every};

bool is_nan_slot(nan_at where, std::int64_t i, std::int64_t n) {
  switch (where) {
    case nan_at::none: return false;
    case nan_at::first: return i == 0;
    case nan_at::middle: return i == n / 2;
    case nan_at::last: return i == n - 1;
    case nan_at::two: return i == n / 3 || i == n - 1;
    case nan_at::every: return true;
  }
  return false;
}

template <class T>
T with_nan(T x, std::int64_t row) {
  if constexpr (is_complex_v<T>) {
    const int part = static_cast<int>(row % 3);  // real, imaginary, both
    return narrow<T>(part == 1 ? static_cast<double>(x.real()) : not_a_number,
                     part == 0 ? static_cast<double>(x.imag()) : not_a_number);
  } else {
    return narrow<T>(not_a_number);
  }
}

// A (rows, n) operand with NaN placed per row, and its transpose.
template <class T>
std::pair<operand<T>, operand<T>> nan_operands(std::mt19937& rng, std::int64_t n) {
  const std::int64_t rows = std::size(nan_rows);
  host_values<T> h = random_values<T>(rng, rows * n, small_integers);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t i = 0; i < n; ++i)
      if (is_nan_slot(nan_rows[r], i, n)) h[r * n + i] = with_nan(h[r * n + i], r);
  host_values<T> t(rows * n);
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t i = 0; i < n; ++i) t[i * rows + r] = h[r * n + i];
  jet::array device = upload(h, {rows, n});
  return {operand<T>{device, std::move(h)}, operand<T>{device.T(), std::move(t)}};
}

// Every reduction but prod, whose overflowing products say nothing about NaN.
template <class T, class F>
void for_each_nan_reduction(F&& f) {
  for_each_reduction([&](const auto& op) {
    if (op.name != "prod") f(op);
  });
}

template <class T>
void check_nan_rows(std::int64_t n, bool extremes_only) {
  std::mt19937 rng = seeded("NaN rows", jet::dtype_of<T>(), static_cast<std::uint32_t>(n));
  const auto [rows, columns] = nan_operands<T>(rng, n);
  for_each_nan_reduction<T>(
      [&]<yields Y, unsigned Kinds, class Ref>(const reduction<Y, Kinds, Ref>& op) {
        if constexpr ((Kinds & kind_of<T>()) != 0) {
          if (extremes_only && Y != yields::same && Y != yields::index) return;
          INFO(op.name << " of " << jet::name(jet::dtype_of<T>()) << " rows of " << n
                       << " with NaN placed");
          guarded([&] {
            check_case(op, rows, along({1}));
            check_case(op, rows, every_axis());
            check_case(op, columns, along({0}, true));
          });
        }
      });
}

// A reduction's result as host values of type R, for the hand-written cases.
template <class R>
std::vector<R> values_of(const jet::expr& e) {
  REQUIRE(e.dtype() == jet::dtype_of<R>());
  return e.eval().to_vector<R>();
}

// numpy.linalg.norm's ord as the tests spell it: "none", "fro", or a number ("inf" too).
jet::expr norm_of(const jet::expr& a, std::string_view ord, const axis_spec& spec) {
  if (ord == "none") return jet::linalg::norm(a, std::nullopt, spec.to_jet(), spec.keepdims);
  if (ord == "fro") return jet::linalg::norm(a, "fro", spec.to_jet(), spec.keepdims);
  return jet::linalg::norm(a, std::stod(std::string(ord)), spec.to_jet(), spec.keepdims);
}

// Vector norms over a group: max or min magnitude, count of nonzeros, or (sum |x|^p)^(1/p).
auto vector_norm(std::string_view ord) {
  const double p = ord == "none" ? 2.0 : std::stod(std::string(ord));
  return [p]<class R, class W>(type_tag<R>, const std::vector<W>& x, double eps) {
    ldouble out = p == -inf ? inf : 0;
    for (W v : x) {
      const ldouble m = std::sqrt(square_magnitude(v));
      if (p == inf)
        out = std::max(out, m);
      else if (p == -inf)
        out = std::min(out, m);
      else if (p == 0)
        out += m != 0 ? 1 : 0;
      else
        out += std::pow(m, static_cast<ldouble>(p));
    }
    if (p != inf && p != -inf && p != 0) out = std::pow(out, 1 / static_cast<ldouble>(p));
    const double value = static_cast<double>(out);
    return expected<wide_t<R>>{
        value, 16 * eps * std::sqrt(static_cast<double>(x.size())) * std::abs(value)};
  };
}

// Matrix norms over a group in C order of its two reduced axes (extents e0, e1); `swapped`
// when the ord's rows run along the second of them (axis=(2, 0)).
auto matrix_norm(std::string_view ord, std::int64_t e0, std::int64_t e1, bool swapped) {
  return [=]<class R, class W>(type_tag<R>, const std::vector<W>& x, double eps) {
    const std::int64_t rows = swapped ? e1 : e0, columns = swapped ? e0 : e1;
    auto magnitude = [&](std::int64_t i, std::int64_t j) {
      return std::sqrt(
          square_magnitude(x[static_cast<std::size_t>(swapped ? j * e1 + i : i * e1 + j)]));
    };
    ldouble out = 0;
    if (ord == "none" || ord == "fro") {
      for (W v : x) out += square_magnitude(v);
      out = std::sqrt(out);
    } else {
      // 1 and -1: extreme column sum; inf and -inf: extreme row sum.
      const bool by_column = ord == "1" || ord == "-1", largest = ord == "1" || ord == "inf";
      const std::int64_t lines = by_column ? columns : rows, length = by_column ? rows : columns;
      out = largest ? 0 : inf;
      for (std::int64_t l = 0; l < lines; ++l) {
        ldouble line = 0;
        for (std::int64_t k = 0; k < length; ++k)
          line += by_column ? magnitude(k, l) : magnitude(l, k);
        out = largest ? std::max(out, line) : std::min(out, line);
      }
    }
    const double value = static_cast<double>(out);
    return expected<wide_t<R>>{value, 16 * eps * std::sqrt(static_cast<double>(x.size())) * value};
  };
}

const jet::dtype norm_dtypes[] = {jet::bool_,   jet::int16,   jet::float16,   jet::bfloat16,
                                  jet::float32, jet::float64, jet::complex64, jet::complex128};

}  // namespace

TEST_CASE("NaN wins for min, max, argmin and argmax, and the nan reductions skip it",
          "[gpu][reduce][nan]") {
  for (jet::dtype t : inexact_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      // 1040 elements make every row 16-byte aligned, so rows load vectors and NaN falls
      // inside the vector steps that argmin and argmax take whole.
      for (std::int64_t n : {1, 7, 33, 1029, 1040}) check_nan_rows<T>(n, false);
    });
  }
  check_nan_rows<float>((std::int64_t{1} << 20) + 3, true);
  check_nan_rows<double>((std::int64_t{1} << 20) + 3, true);
}

TEST_CASE("argmin and argmax return the first of tied extremes", "[gpu][reduce][nan]") {
  const jet::dtype dtypes[] = {jet::bool_,   jet::int8,    jet::uint16,   jet::float16,
                               jet::float32, jet::float64, jet::complex64};
  for (jet::dtype t : dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      // 4112 elements: aligned rows, loaded as vectors (see above).
      for (std::int64_t n :
           {std::int64_t{7}, std::int64_t{1029}, std::int64_t{4112}, (std::int64_t{1} << 20) + 3}) {
        // Three rows of ones with lows and highs at spread positions, different in each row.
        host_values<T> h(3 * n);
        for (std::int64_t r = 0; r < 3; ++r)
          for (std::int64_t i = 0; i < n; ++i) {
            const bool low = i == n - 1 - r || i == (r + 1) * n / 4 || i == n / 2 + r;
            const bool high = i == n - 2 + r % 2 || i == (r + 1) * n / 5 + 1 || i == n / 3;
            h[r * n + i] = narrow<T>(low ? 0.0 : high && !std::is_same_v<T, bool> ? 2.0 : 1.0);
          }
        const operand<T> x{upload(h, {3, n}), std::move(h)};
        for_each_reduction(
            [&]<yields Y, unsigned Kinds, class Ref>(const reduction<Y, Kinds, Ref>& op) {
              if constexpr ((Kinds & kind_of<T>()) != 0) {
                if (op.name != "argmin" && op.name != "argmax") return;
                INFO(op.name << " of " << jet::name(t) << " rows of " << n << " with ties");
                guarded([&] {
                  check_case(op, x, along({1}));
                  check_case(op, x, every_axis());
                });
              }
            });
      }
    });
  }
}

TEST_CASE("min, max, argmin and argmax of a dtype's own extremes, tied across lanes and blocks",
          "[gpu][reduce][nan]") {
  // A warp combines extremes of 32-bit values by keys in their order, where a lane with no
  // elements ranks lowest: the lowest value of a dtype (the highest, for min) must still beat
  // such lanes, and the first of tied extremes must win across lanes and blocks.
  const jet::dtype dtypes[] = {jet::bool_, jet::int8,   jet::uint8,   jet::int16,    jet::uint16,
                               jet::int32, jet::uint32, jet::float16, jet::bfloat16, jet::float32};
  for (jet::dtype t : dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      T low, high;
      if constexpr (std::is_integral_v<T>) {
        low = std::numeric_limits<T>::lowest();
        high = std::numeric_limits<T>::max();
      } else {
        low = narrow<T>(-inf);
        high = narrow<T>(inf);
      }
      // Warp per row up to 2048 elements, a block per row above.
      for (std::int64_t n : {std::int64_t{5}, std::int64_t{33}, std::int64_t{1023},
                             std::int64_t{4112}, (std::int64_t{1} << 20) + 3}) {
        for (const bool max : {true, false}) {
          INFO((max ? "max and argmax" : "min and argmin")
               << " of " << jet::name(t) << ", " << n << " elements");
          host_values<T> h(n);
          for (std::int64_t i = 0; i < n; ++i) h[i] = max ? low : high;
          const auto index = [&] {
            const jet::array a = upload(h, {1, n});
            return values_of<std::int64_t>(max ? jet::argmax(a, 1) : jet::argmin(a, 1))[0];
          };
          const auto extreme = [&] {
            const jet::array a = upload(h, {1, n});
            return widen(values_of<T>(max ? jet::max(a, 1) : jet::min(a, 1))[0]);
          };
          CHECK(index() == 0);
          CHECK(extreme() == widen(max ? low : high));
          const std::int64_t first = n / 3 + 1;
          h[first] = h[n - 1] = max ? high : low;
          CHECK(index() == first);
          CHECK(extreme() == widen(max ? high : low));
        }
      }
    });
  }
}

TEST_CASE("infinities, signed zeros and complex NaN follow NumPy", "[gpu][reduce][nan]") {
  const jet::array mixed = jet::asarray({1.0, inf, not_a_number, -inf});
  CHECK(std::isnan(values_of<double>(jet::max(mixed))[0]));
  CHECK(std::isnan(values_of<double>(jet::min(mixed))[0]));
  CHECK(std::isnan(values_of<double>(jet::ptp(mixed))[0]));
  CHECK(values_of<std::int64_t>(jet::argmax(mixed))[0] == 2);
  CHECK(values_of<std::int64_t>(jet::argmin(mixed))[0] == 2);
  CHECK(values_of<double>(jet::nanmax(mixed))[0] == inf);
  CHECK(values_of<double>(jet::nanmin(mixed))[0] == -inf);
  CHECK(std::isnan(values_of<double>(jet::nansum(mixed))[0]));  // inf + -inf
  CHECK(values_of<double>(jet::max(mixed(jet::slice(0, 2))))[0] == inf);
  CHECK(values_of<std::int64_t>(jet::argmin(mixed(jet::slice(0, 2))))[0] == 0);

  const jet::array nans = jet::asarray({not_a_number, not_a_number});
  CHECK(std::isnan(values_of<double>(jet::nanmin(nans))[0]));
  CHECK(std::isnan(values_of<double>(jet::nanmean(nans))[0]));
  CHECK(values_of<double>(jet::nansum(nans))[0] == 0.0);
  CHECK(values_of<std::int64_t>(jet::count_nonzero(nans))[0] == 2);
  CHECK(values_of<bool>(jet::all(nans))[0]);

  const jet::array zeros = jet::asarray({0.0f, -0.0f});
  CHECK(values_of<std::int64_t>(jet::argmin(zeros))[0] == 0);
  CHECK(values_of<std::int64_t>(jet::argmax(zeros))[0] == 0);
  CHECK_FALSE(values_of<bool>(jet::any(zeros))[0]);
  // The same inside the vectors of a long aligned row: -0.0 and 0.0 in turn tie, then one
  // vector holds a larger value before two NaN.
  std::vector<float> run(4096);
  for (std::size_t i = 0; i < run.size(); ++i) run[i] = i % 2 ? 0.0f : -0.0f;
  CHECK(values_of<std::int64_t>(jet::argmax(jet::asarray(run)))[0] == 0);
  CHECK(values_of<std::int64_t>(jet::argmin(jet::asarray(run)))[0] == 0);
  run[3001] = 7.0f;
  CHECK(values_of<std::int64_t>(jet::argmax(jet::asarray(run)))[0] == 3001);
  run[3002] = run[3003] = std::numeric_limits<float>::quiet_NaN();
  CHECK(values_of<std::int64_t>(jet::argmax(jet::asarray(run)))[0] == 3002);
  CHECK(values_of<std::int64_t>(jet::argmin(jet::asarray(run)))[0] == 3002);

  using cfloat = std::complex<float>;
  const float fnan = std::numeric_limits<float>::quiet_NaN();
  const jet::array z = jet::asarray({cfloat(1, 1), cfloat(fnan, 0), cfloat(3, 0), cfloat(2, fnan)});
  const cfloat zmax = values_of<cfloat>(jet::max(z))[0];
  CHECK((std::isnan(zmax.real()) && zmax.imag() == 0));
  CHECK(values_of<std::int64_t>(jet::argmax(z))[0] == 1);
  CHECK(values_of<std::int64_t>(jet::argmin(z))[0] == 1);
  CHECK(values_of<cfloat>(jet::nanmin(z))[0] == cfloat(1, 1));
  CHECK(values_of<cfloat>(jet::nanmax(z))[0] == cfloat(3, 0));
  CHECK(values_of<cfloat>(jet::nansum(z))[0] == cfloat(4, 1));
  const jet::array ordered = jet::asarray({cfloat(1, 5), cfloat(1, 2), cfloat(0, 9), cfloat(1, 5)});
  CHECK(values_of<std::int64_t>(jet::argmax(ordered))[0] == 0);  // by real part, then imaginary
  CHECK(values_of<std::int64_t>(jet::argmin(ordered))[0] == 2);
  CHECK(values_of<cfloat>(jet::ptp(ordered))[0] == cfloat(1, -4));

  const jet::array flags = jet::asarray(std::vector<bool>{true, false, false});
  CHECK(values_of<std::int64_t>(jet::argmin(flags))[0] == 1);
  CHECK(values_of<bool>(jet::max(flags))[0]);
  CHECK(values_of<std::int64_t>(jet::sum(flags))[0] == 1);
  const jet::array edges = jet::asarray<std::int8_t>({-128, 127});
  CHECK(values_of<std::int8_t>(jet::ptp(edges))[0] == -1);  // wraps, as in NumPy
}

TEST_CASE("empty reductions give NumPy's identities, NaN or jet::value_error",
          "[gpu][reduce][empty]") {
  struct empty_case {
    jet::shape shape;
    axis_spec spec;
  };
  const empty_case cases[] = {
      {{0}, every_axis()},        {{4, 0}, along({1})},          {{4, 0}, along({-1}, true)},
      {{0, 4}, along({0})},       {{0, 4}, along({1})},          {{4, 0}, along({0})},
      {{2, 0, 3}, along({0, 1})}, {{2, 0, 3}, every_axis(true)},
  };
  const jet::dtype dtypes[] = {jet::bool_,   jet::int32,   jet::uint8,
                               jet::float16, jet::float32, jet::complex64};
  for (jet::dtype t : dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      for (const empty_case& c : cases) {
        const operand<T> x{jet::zeros(c.shape, t), host_values<T>(0)};
        for_each_reduction(
            [&]<yields Y, unsigned Kinds, class Ref>(const reduction<Y, Kinds, Ref>& op) {
              if constexpr ((Kinds & kind_of<T>()) != 0) {
                if (!takes(op, c.spec)) return;
                INFO(op.name << "(" << jet::name(t) << " " << jet::to_string(c.shape) << ", "
                             << c.spec.text() << ")");
                guarded([&] { check_case(op, x, c.spec); });
              }
            });
      }
    });
  }
  const jet::array none = jet::zeros({0}, jet::float32);
  CHECK(values_of<float>(jet::sum(none))[0] == 0.0f);
  CHECK(values_of<float>(jet::prod(none))[0] == 1.0f);
  CHECK(std::isnan(values_of<float>(jet::mean(none))[0]));
  CHECK(std::isnan(values_of<float>(jet::var(none))[0]));
  CHECK(std::isnan(values_of<double>(jet::mean(jet::zeros({0}, jet::int32)))[0]));
  CHECK(values_of<std::int64_t>(jet::sum(jet::zeros({0}, jet::int8)))[0] == 0);
  CHECK(values_of<bool>(jet::all(none))[0]);
  CHECK_FALSE(values_of<bool>(jet::any(none))[0]);
  CHECK(values_of<std::int64_t>(jet::count_nonzero(none))[0] == 0);
  CHECK_THROWS_AS(jet::array(jet::max(none)), jet::value_error);
  CHECK_THROWS_AS(jet::array(jet::argmin(none)), jet::value_error);
  CHECK_THROWS_AS(jet::array(jet::nanmin(none)), jet::value_error);
  CHECK_THROWS_AS(jet::array(jet::ptp(jet::zeros({3, 0}), 1)), jet::value_error);
  CHECK(jet::max(jet::zeros({0, 3}), 1).eval().size() == 0);  // no outputs: nothing to refuse
}

TEST_CASE("vector norms of each ord match the host over dtypes and layouts",
          "[gpu][reduce][norm]") {
  const jet::shape s{5, 33};
  for (jet::dtype t : norm_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      using R = spread_t<T>;
      std::uint32_t salt = 0;
      for (std::string_view ord : {"none", "1", "-1", "2", "0", "3", "inf", "-inf"}) {
        const bool every_layout = ord == "none" || ord == "1";
        for (input_layout l : {input_layout::contiguous, input_layout::transposed,
                               input_layout::sliced, input_layout::broadcast}) {
          if (!every_layout && (l == input_layout::sliced || l == input_layout::broadcast))
            continue;
          std::vector<axis_spec> specs{along({-1}), along({0}, true)};
          if (ord == "none") specs.insert(specs.end(), {every_axis(), every_axis(true)});
          for (const axis_spec& spec : specs) {
            INFO("norm(" << jet::name(t) << " " << jet::to_string(s) << ", ord " << ord << ", "
                         << spec.text() << "), " << name(l));
            guarded([&] {
              std::mt19937 rng = seeded("vector norm", t, ++salt);
              const operand<T> x = reduction_input<T>(rng, s, l);
              const jet::expr e = norm_of(x.device, ord, spec);
              CHECK(jet::to_string(e.shape()) == jet::to_string(spec.result_shape(s)));
              check_reduced<R>(e, reduce_reference<R>(wide_values(x.values), s, spec,
                                                      vector_norm(ord), accumulation_eps<T>()));
            });
          }
        }
      }
    });
  }
}

TEST_CASE("matrix norms of each ord match the host over dtypes and axis orders",
          "[gpu][reduce][norm]") {
  struct matrix_case {
    jet::shape shape;
    axis_spec spec;
    input_layout layout;
  };
  const matrix_case cases[] = {
      {{5, 33}, every_axis(), input_layout::contiguous},
      {{5, 33}, every_axis(true), input_layout::transposed},
      {{4, 5, 6}, along({0, 2}), input_layout::contiguous},
      {{4, 5, 6}, along({2, 0}, true), input_layout::sliced},
      {{4, 5, 6}, along({-1, 1}), input_layout::broadcast},
  };
  for (jet::dtype t : norm_dtypes) {
    visit_dtype(t, [&]<class T>(type_tag<T>) {
      using R = spread_t<T>;
      std::uint32_t salt = 0;
      for (std::string_view ord : {"none", "fro", "1", "-1", "inf", "-inf"}) {
        for (const matrix_case& c : cases) {
          INFO("norm(" << jet::name(t) << " " << jet::to_string(c.shape) << ", ord " << ord << ", "
                       << c.spec.text() << "), " << name(c.layout));
          guarded([&] {
            std::mt19937 rng = seeded("matrix norm", t, ++salt);
            const operand<T> x = reduction_input<T>(rng, c.shape, c.layout);
            // The reduced axes in C order, and whether the ord's rows are the later one.
            const int n = c.shape.size();
            const int first = c.spec.every ? 0 : (c.spec.list[0] + n) % n;
            const int second = c.spec.every ? 1 : (c.spec.list[1] + n) % n;
            const auto reference = matrix_norm(ord, c.shape[std::min(first, second)],
                                               c.shape[std::max(first, second)], first > second);
            check_reduced<R>(norm_of(x.device, ord, c.spec),
                             reduce_reference<R>(wide_values(x.values), c.shape, c.spec, reference,
                                                 accumulation_eps<T>()));
          });
        }
      }
    });
  }
}
