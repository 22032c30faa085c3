// Scans (cumsum, cumprod and their nan-forms) on a GPU against host references: every dtype
// along each axis and flattened, through strided views, in both kernel layouts (tiles of rows,
// runs of columns), sizes 0 to past 2^31 elements, NaNs, dtype arguments that wrap, producers
// fused in against the materialized form, and a scan written over its own input.
#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "gpu/samples.hpp"

namespace {

using namespace jet_test;
using cwide = std::complex<long double>;

// `v` as the result dtype `t` holds it, for integer results: wrapped, then widened to 64 bits.
std::uint64_t wrapped(jet::dtype t, std::uint64_t v) {
  std::uint64_t out = 0;
  visit_dtype(t, [&]<class T>(type_tag<T>) {
    if constexpr (std::is_same_v<T, bool>)
      out = v != 0;
    else if constexpr (is_integer_v<T>)
      out = static_cast<std::uint64_t>(static_cast<std::int64_t>(static_cast<T>(v)));
  });
  return out;
}

struct scan_kind {
  bool sum = true, nan = false;
};

jet::expr scan(const jet::expr& x, scan_kind k, std::optional<int> axis,
               std::optional<jet::dtype> t = std::nullopt) {
  std::optional<std::int64_t> a;
  if (axis) a = *axis;
  if (t) {
    if (k.sum) return k.nan ? jet::nancumsum(x, a, *t) : jet::cumsum(x, a, *t);
    return k.nan ? jet::nancumprod(x, a, *t) : jet::cumprod(x, a, *t);
  }
  if (k.sum) return k.nan ? jet::nancumsum(x, a) : jet::cumsum(x, a);
  return k.nan ? jet::nancumprod(x, a) : jet::cumprod(x, a);
}

// Integer results: every prefix exactly, wrapped as the result dtype wraps (bool: or, and).
std::string integer_mismatch(const jet::array& got, const std::vector<cdouble>& values,
                             const std::vector<std::vector<std::int64_t>>& lines, scan_kind k) {
  const jet::dtype t = got.dtype();
  const std::vector<std::uint64_t> host = got.astype(jet::uint64).to_vector<std::uint64_t>();
  for (const auto& line : lines) {
    std::uint64_t run = k.sum ? 0 : 1;
    for (std::size_t j = 0; j < line.size(); ++j) {
      const auto x = static_cast<std::uint64_t>(static_cast<std::int64_t>(values[line[j]].real()));
      if (t == jet::bool_)
        run = k.sum ? (run | (x != 0)) : (run & (x != 0));
      else
        run = wrapped(t, k.sum ? run + x : run * x);
      const std::int64_t at = lines.size() == 1 && got.ndim() == 1 ? j : line[j];
      if (host[at] != run)
        return "element " + std::to_string(at) + ": got " + std::to_string(host[at]) + ", want " +
               std::to_string(run);
    }
  }
  return {};
}

// The smallest normal magnitude of a floating dtype: products may underflow below it.
double tiny(jet::dtype t) {
  switch (jet::real_dtype(t)) {
    case jet::float16: return 6.2e-5;
    case jet::float64: return 2.3e-308;
    default: return 1.2e-38;
  }
}

// One part of a floating result: NaN and infinities where the reference has them (past the
// dtype's range, an infinity), else within `bound`.
bool part_close(double got, long double want, long double bound, double overflow) {
  if (std::isnan(want)) return std::isnan(got);
  if (static_cast<long double>(got) == want) return true;  // even where the bound is NaN
  if (std::isinf(want) || std::abs(want) >= overflow)
    return std::isinf(got) && (got > 0) == (want > 0);
  return std::abs(static_cast<long double>(got) - want) <= bound;
}

// a * b as the GPU multiplies: real numbers alone, complex ones by the plain formula (NumPy's:
// no recovery of infinities, as C++'s complex has).
cwide product(cwide a, cwide b, bool complex) {
  if (!complex) return a.real() * b.real();
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// Floating results: each prefix within the dtype's tolerance of its sum of magnitudes (sums) or,
// for products, of its magnitude times its length.
std::string floating_mismatch(const jet::array& got, const std::vector<cdouble>& values,
                              const std::vector<std::vector<std::int64_t>>& lines, scan_kind k) {
  const jet::dtype t = got.dtype();
  const double rtol = tolerance(t), overflow = overflow_threshold(t);
  const std::vector<std::complex<double>> host =
      got.astype(jet::complex128).to_vector<std::complex<double>>();
  for (const auto& line : lines) {
    cwide run = k.sum ? 0.0L : 1.0L;
    long double magnitude = 0;
    for (std::size_t j = 0; j < line.size(); ++j) {
      cwide x(values[line[j]].real(), values[line[j]].imag());
      if (k.nan && (std::isnan(x.real()) || std::isnan(x.imag()))) x = k.sum ? 0.0L : 1.0L;
      run = k.sum ? run + x : product(run, x, jet::is_complex(t));
      if (std::isfinite(std::abs(x))) magnitude += std::abs(x);
      const long double bound = rtol * (k.sum ? std::max<long double>(magnitude, std::abs(run))
                                              : static_cast<long double>(j + 2) * std::abs(run)) +
                                tiny(t);
      const std::int64_t at = lines.size() == 1 && got.ndim() == 1 ? j : line[j];
      const std::complex<double> g = host[at];
      // Once a complex product meets an infinity or leaves the dtype's range, the order of
      // multiplication decides between infinities and NaN (it differs between any parallel
      // scan and NumPy's loop): any non-finite value passes.
      if (!k.sum && jet::is_complex(t) && !(std::abs(run) < overflow) &&
          !std::isfinite(std::abs(g)))
        continue;
      if (part_close(g.real(), run.real(), bound, overflow) &&
          part_close(g.imag(), run.imag(), bound, overflow))
        continue;
      return "element " + std::to_string(at) + " (line position " + std::to_string(j) + "): got " +
             show(g) + ", want " +
             show(std::complex<double>(static_cast<double>(run.real()),
                                       static_cast<double>(run.imag())));
    }
  }
  return {};
}

// Checks scan `k` of `x` (holding `values`) along `axis`, in dtype `t` when given.
void check_scan(const jet::expr& x, const std::vector<cdouble>& values, scan_kind k,
                std::optional<int> axis, std::optional<jet::dtype> t = std::nullopt) {
  INFO((k.nan ? "nancum" : "cum") << (k.sum ? "sum" : "prod") << " axis "
                                  << (axis ? std::to_string(*axis) : "none") << " dtype "
                                  << (t ? jet::name(*t) : "default"));
  std::optional<int> reference_axis;
  if (axis) reference_axis = jet::normalize_axis(*axis, std::max(x.ndim(), 1));
  const jet::array got = scan(x, k, axis, t);
  CHECK(got.shape() == (axis && x.ndim() > 0 ? x.shape() : jet::shape{x.size()}));
  const auto lines = lines_of(x.ndim() > 0 ? x.shape() : jet::shape{1}, reference_axis);
  const std::string m = jet::is_inexact(got.dtype()) ? floating_mismatch(got, values, lines, k)
                                                     : integer_mismatch(got, values, lines, k);
  INFO(m);
  CHECK(m.empty());
}

const domain small{.lo = -2.0, .hi = 2.0, .integers = int_range{-100, 100}};
const domain near_one{.lo = 0.5, .hi = 1.5, .integers = int_range{-3, 3}};

}  // namespace

TEST_CASE("scans of every dtype along each axis and flattened, and through views", "[gpu][scan]") {
  for (jet::dtype t : all_dtypes) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("scan", t);
    const sample x = random_sample(rng, t, {3, 5, 7}, small);
    const sample y = random_sample(rng, t, {3, 5, 7}, near_one);
    const sample view = reversed_strided_view(x);
    for (std::optional<int> axis : {std::optional<int>(0), std::optional<int>(1),
                                    std::optional<int>(-1), std::optional<int>()}) {
      check_scan(x.device, x.values, {true, false}, axis);
      check_scan(y.device, y.values, {false, false}, axis);
      check_scan(view.device, view.values, {true, false}, axis);
    }
    std::vector<cdouble> transposed;  // x.T() of shape (7, 5, 3)
    for (int i = 0; i < 7; ++i)
      for (int j = 0; j < 5; ++j)
        for (int k = 0; k < 3; ++k) transposed.push_back(x.values[(k * 5 + j) * 7 + i]);
    for (int axis : {0, 2}) check_scan(x.device.T(), transposed, {true, false}, axis);
    check_scan(x.device.T(), transposed, {true, false}, std::nullopt);
  }
}

TEST_CASE("scans in a dtype argument wrap as it does", "[gpu][scan]") {
  std::mt19937 rng = seeded("scan dtypes", jet::int8);
  const sample x = random_sample(rng, jet::int8, {4, 300}, small);
  // Products of rows short enough that no float dtype overflows (3^12), while int8 wraps.
  const sample p = random_sample(rng, jet::int8, {4, 12}, near_one);
  for (jet::dtype t : {jet::int8, jet::uint8, jet::int16, jet::uint32, jet::float32, jet::float64,
                       jet::complex64, jet::bool_}) {
    check_scan(x.device, x.values, {true, false}, 1, t);
    check_scan(p.device, p.values, {false, false}, 1, t);
  }
  const sample b = random_sample(rng, jet::bool_, {1000}, small);
  check_scan(b.device, b.values, {true, false}, 0);
  check_scan(b.device, b.values, {true, false}, 0, jet::bool_);
  check_scan(b.device, b.values, {false, false}, 0, jet::bool_);
}

TEST_CASE("scans of sizes 0, 1, 2 and 2^20 + 3, of short and long rows and columns",
          "[gpu][scan]") {
  const domain positive{.lo = 0.0, .hi = 1.0, .integers = int_range{-1000, 1000}};
  for (jet::dtype t :
       {jet::float32, jet::int64, jet::float64, jet::float16, jet::complex64, jet::int32}) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("scan sizes", t);
    for (const jet::shape& s :
         {jet::shape{0}, jet::shape{1}, jet::shape{2}, jet::shape{3, 0}, jet::shape{(1 << 20) + 3},
          jet::shape{300, 37}, jet::shape{3, 70001}, jet::shape{70001, 3}, jet::shape{1000, 12},
          jet::shape{}}) {
      INFO(jet::to_string(s));
      const sample x = random_sample(rng, t, s, positive);
      check_scan(x.device, x.values, {true, false}, std::nullopt);
      if (s.size() == 0) continue;
      check_scan(x.device, x.values, {true, false}, -1);
      check_scan(x.device, x.values, {true, false}, 0);
    }
    const sample p = random_sample(rng, t, {40, 40}, near_one);
    check_scan(p.device, p.values, {false, false}, 0);
    check_scan(p.device, p.values, {false, false}, 1);
  }
}

TEST_CASE("nan-scans count NaN as the identity, and other specials pass through", "[gpu][scan]") {
  for (jet::dtype t : {jet::float16, jet::float32, jet::float64, jet::complex64, jet::bfloat16}) {
    INFO(jet::name(t));
    std::mt19937 rng = seeded("nan scans", t);
    const sample x = random_sample(rng, t, {6, 50}, domain{.specials = true});
    for (bool sum : {true, false}) {
      check_scan(x.device, x.values, {sum, true}, 1);
      check_scan(x.device, x.values, {sum, true}, 0);
      check_scan(x.device, x.values, {sum, false}, 1);
    }
  }
}

TEST_CASE("a scan computes its producer as the materialized form does, and runs in place",
          "[gpu][scan]") {
  std::mt19937 rng = seeded("fused scans", jet::float32);
  const domain positive{.lo = 0.0, .hi = 1.0};
  const sample a = random_sample(rng, jet::float32, {(1 << 20) + 3}, positive);
  const sample b = random_sample(rng, jet::float32, {(1 << 20) + 3}, positive);
  std::vector<cdouble> product;
  for (std::size_t i = 0; i < a.values.size(); ++i)
    product.push_back(cdouble(static_cast<float>(a.values[i].real() * b.values[i].real())));
  check_scan(a.device * b.device, product, {true, false}, 0);
  const jet::array materialized = a.device * b.device;
  check_any(jet::cumsum(a.device * b.device).eval(), complex_values(jet::cumsum(materialized)));
  // A scan inside an expression runs first; one written over its input reads it all first.
  const sample square = random_sample(rng, jet::float64, {700, 900}, positive);
  jet::array inplace = square.device.copy();
  std::move(inplace) = jet::cumsum(inplace, 0);
  check_any(inplace, complex_values(jet::cumsum(square.device, 0)));
  jet::array flat = a.device.copy();
  std::move(flat) = jet::cumsum(flat) * 2 - flat;
  std::vector<cdouble> want;
  double run = 0;
  for (const cdouble& v : a.values) {
    run += v.real();
    want.push_back(2 * run - v.real());
  }
  check_any(flat, want, 1e3);
}

TEST_CASE("a cumsum past 2^31 elements", "[gpu][scan][large]") {
  const std::int64_t n = (std::int64_t{1} << 31) + 5;
  const jet::array ones = jet::ones({n}, jet::int8);
  const jet::array c = jet::cumsum(ones);
  CHECK(c.dtype() == jet::int64);
  CHECK(jet::all(c == jet::arange(1, n + 1, 1, jet::int64)).item<bool>());
  CHECK(c(n - 1).item<std::int64_t>() == n);
}
