// Fused expressions on a GPU: astype between every pair of dtypes, long expressions over many
// operands and views, more than 2^31 elements, several threads at once, and in-place operators
// with overlapping assignments.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <optional>
#include <span>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

#include "gpu/comparison.hpp"
#include "gpu/numpy_semantics.hpp"
#include "gpu/samples.hpp"

namespace {

using namespace jet_test;

// What a C cast (NumPy's astype) makes of x: bool is "nonzero", complex to real keeps the
// real part, floating to integer truncates, integer to integer wraps.
template <class To, class From>
wide_t<To> converted(From x) {
  const auto w = widen(x);
  if constexpr (std::is_same_v<To, bool>)
    return ref::truth(w);
  else if constexpr (is_complex_v<To> && is_complex_v<From>)
    return w;
  else if constexpr (is_complex_v<To>)
    return cdouble(static_cast<double>(w), 0.0);
  else if constexpr (is_integer_v<To>)
    return static_cast<To>(ref::real(w));
  else
    return static_cast<double>(ref::real(w));
}

// Values every conversion from From to To defines: floating values in range of To's integers.
template <class From, class To>
domain conversion_domain() {
  if constexpr (is_integer_v<From> || std::is_same_v<From, bool>)
    return {};
  else if constexpr (std::is_unsigned_v<To> && !std::is_same_v<To, bool>)
    return {.lo = 0, .hi = 200};
  else if constexpr (is_integer_v<To>)
    return {.lo = -100, .hi = 100};
  else
    return {.lo = -100, .hi = 100, .specials = true};
}

}  // namespace

TEST_CASE("astype converts between every pair of dtypes like a C cast",
          "[gpu][elementwise][astype]") {
  for (jet::dtype from : all_dtypes) {
    for (jet::dtype to : all_dtypes) {
      INFO(jet::name(from) << " -> " << jet::name(to));
      visit_dtype(from, [&]<class From>(type_tag<From>) {
        visit_dtype(to, [&]<class To>(type_tag<To>) {
          guarded([&] {
            std::mt19937 rng = seeded("astype", from, static_cast<std::uint32_t>(to));
            const auto x =
                make_operand<From>(rng, {1023}, layout::contiguous, conversion_domain<From, To>());
            const std::vector<wide_t<To>> want = reference<To>(
                {1023}, [](auto v) { return converted<To>(v); }, x);
            check_expression<To>(jet::astype(x.device, to), want);
            const jet::array copy = x.device.astype(to);
            CHECK(!copy.shares_buffer_with(x.device));
            check_close<To>(copy, want);
          });
        });
      });
    }
  }
}

namespace {

// A sum over operands as a balanced tree, so that no subtree is much deeper than another.
jet::expr tree_sum(std::span<const jet::array> xs) {
  if (xs.size() == 1) return xs[0];
  const std::size_t half = xs.size() / 2;
  return tree_sum(xs.first(half)) + tree_sum(xs.subspan(half));
}

}  // namespace

TEST_CASE("fused expressions over many operands, dtypes and views match the host",
          "[gpu][elementwise][fused]") {
  std::mt19937 rng = seeded("fused", jet::float64);
  SECTION("broadcasting, promotion, casts and a reused subexpression in one kernel") {
    const auto x = make_operand<float>(rng, {37, 1}, layout::contiguous);
    const auto y = make_operand<double>(rng, {29}, layout::every_other_reversed);
    const auto k = make_operand<std::int16_t>(rng, {37, 29}, layout::transposed_reversed,
                                              {.integers = int_range{-1000, 1000}});
    const jet::expr s = x.device * y.device;  // float64, read twice below
    const jet::expr e =
        jet::where(s > 0, jet::sqrt(s), s * s) + (k.device + 1) / 3 - jet::astype(s, jet::int8);
    CHECK(e.dtype() == jet::float64);
    check_expression<double>(e, reference<double>(
                                    {37, 29},
                                    [](double xv, double yv, std::int16_t kv) {
                                      const double sv = xv * yv;
                                      return (sv > 0 ? std::sqrt(sv) : sv * sv) + (kv + 1) / 3.0 -
                                             static_cast<std::int8_t>(sv);
                                    },
                                    x, y, k));
  }
  SECTION("one array read through several views at once") {
    const auto m = make_operand<float>(rng, {64, 64}, layout::contiguous);
    const auto mt = operand<float>{m.device.T(), gather(m.values, {64, 64}, {1, 64}, 0)};
    const auto mr = operand<float>{m.device(jet::slice(jet::none, jet::none, -1)),
                                   gather(m.values, {64, 64}, {-64, 1}, 63 * 64)};
    check_expression<float>(
        m.device * 2 + mt.device - mr.device,
        reference<float>(
            {64, 64}, [](double a, double b, double c) { return a * 2 + b - c; }, m, mt, mr));
  }
  SECTION("more operands than one kernel's parameter block holds") {
    std::vector<jet::array> xs;
    std::vector<cdouble> want(17, 0.0);
    for (int i = 0; i < 530; ++i) {
      const sample s =
          random_sample(rng, jet::float64, {17}, small_integers);  // exact sums in any order
      xs.push_back(s.device);
      for (std::size_t j = 0; j < want.size(); ++j) want[j] += s.values[j];
    }
    check_expression_any(tree_sum(xs), want);
  }
}

TEST_CASE("a fused expression over more than 2^31 elements is right up to the last element",
          "[gpu][elementwise][large]") {
  const std::int64_t n = (std::int64_t{1} << 31) + 5;
  host_values<std::uint8_t> host(n);
  std::uint64_t state = 0x243f6a8885a308d3ull;
  for (std::int64_t i = 0; i < n; i += 8) {  // splitmix64: fast enough for 2 GiB
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    z ^= z >> 31;
    std::memcpy(&host[i], &z, static_cast<std::size_t>(std::min<std::int64_t>(8, n - i)));
  }
  const jet::array a = upload(host, {n});

  // Both ends, the positions around 2^31 where 32-bit indexing would wrap, and random ones.
  const std::int64_t windows[][2] = {{0, 4096}, {(std::int64_t{1} << 31) - 4096, n}};
  std::vector<std::int64_t> scattered;
  std::mt19937_64 rng(2031);
  for (int i = 0; i < 3000; ++i)
    scattered.push_back(std::uniform_int_distribution<std::int64_t>(0, n - 1)(rng));
  auto check_positions = [&](const jet::array& out, auto want) {
    std::string m;
    for (const auto& w : windows) {
      const host_values<std::uint8_t> got = download<std::uint8_t>(out(jet::slice(w[0], w[1])));
      for (std::int64_t i = w[0]; i < w[1] && m.empty(); ++i)
        if (got[i - w[0]] != want(i))
          m = "element " + std::to_string(i) + ": got " + show(got[i - w[0]]) + ", want " +
              show(want(i));
    }
    for (std::int64_t i : scattered)
      if (m.empty() && out(i).item<std::uint8_t>() != want(i))
        m = "element " + std::to_string(i) + ": got " + show(out(i).item<std::uint8_t>()) +
            ", want " + show(want(i));
    INFO(m);
    CHECK(m.empty());
  };
  {
    jet::array out = jet::full({n}, 7, jet::uint8);
    std::move(out) = a + 1;
    check_positions(out, [&](std::int64_t i) { return static_cast<std::uint8_t>(host[i] + 1); });
  }
  {
    jet::array out = jet::full({n}, 7, jet::uint8);
    std::move(out) = a(jet::slice(jet::none, jet::none, -1)) ^ 0x5a;
    check_positions(
        out, [&](std::int64_t i) { return static_cast<std::uint8_t>(host[n - 1 - i] ^ 0x5a); });
  }
}

namespace {

// One round of a thread's work: its own inputs, one evaluation, the comparison. Threads t and
// t + 4 run the same kind of expression, so that they build and look up the same kernels.
std::string thread_round(int kind, std::mt19937& rng, std::int64_t n) {
  const jet::shape s{n};
  switch (kind) {
    case 0: {
      const auto a = random_operand<float>(rng, s), b = random_operand<float>(rng, s);
      const jet::array out = jet::sin(a.device) * b.device + 1.5;
      return mismatch<float>(
          out, reference<float>(
                   s, [](double x, double y) { return std::sin(x) * y + 1.5; }, a, b));
    }
    case 1: {
      const auto a = random_operand<std::int32_t>(rng, s), b = random_operand<std::int32_t>(rng, s);
      const jet::array out = (a.device * 3 + b.device) % 7;
      return mismatch<std::int32_t>(out, reference<std::int32_t>(
                                             s,
                                             [](std::int32_t x, std::int32_t y) {
                                               return ref::remainder(
                                                   ref::add(ref::multiply(x, 3), y), 7);
                                             },
                                             a, b));
    }
    case 2: {
      const auto a = random_operand<double>(rng, s), b = random_operand<double>(rng, s);
      const jet::array out =
          jet::where(a.device > b.device, a.device - b.device, jet::sqrt(jet::abs(b.device)));
      return mismatch<double>(
          out,
          reference<double>(
              s, [](double x, double y) { return x > y ? x - y : std::sqrt(std::abs(y)); }, a, b));
    }
    default: {
      const auto a = random_operand<std::complex<float>>(rng, s),
                 b = random_operand<std::complex<float>>(rng, s);
      const jet::array out = a.device * jet::conj(b.device);
      return mismatch<std::complex<float>>(
          out, reference<std::complex<float>>(
                   s, [](cdouble x, cdouble y) { return x * std::conj(y); }, a, b));
    }
  }
}

}  // namespace

TEST_CASE("threads evaluating different expressions at once get correct results",
          "[gpu][elementwise][threads]") {
  constexpr int thread_count = 8, rounds = 12;
  std::vector<std::string> failures(thread_count);
  std::vector<std::thread> threads;
  for (int t = 0; t < thread_count; ++t) {
    threads.emplace_back([t, &failures] {
      try {
        // Odd threads work on a stream of their own, even ones on the default stream.
        std::optional<jet::stream> own;
        std::optional<jet::stream_guard> guard;
        if (t % 2) {
          own.emplace();
          guard.emplace(*own);
        }
        std::mt19937 rng = seeded("threads", jet::float32, static_cast<std::uint32_t>(t));
        for (int r = 0; r < rounds && failures[t].empty(); ++r)
          failures[t] = thread_round(t % 4, rng, 1000 + 4099 * r);
      } catch (const std::exception& e) {
        failures[t] = e.what();
      }
    });
  }
  for (std::thread& t : threads) t.join();
  for (int t = 0; t < thread_count; ++t) {
    INFO("thread " << t << ": " << failures[t]);
    CHECK(failures[t].empty());
  }
}

TEST_CASE("in-place operators and overlapping assignments give NumPy's results",
          "[gpu][elementwise][inplace]") {
  std::mt19937 rng = seeded("inplace", jet::int32);
  SECTION("every compound operator on int32, with a broadcast operand") {
    using int_fn = std::int32_t (*)(std::int32_t, std::int32_t);
    const struct {
      std::string_view what;
      void (*apply)(jet::array&, const jet::array&);
      int_fn want;
    } ops[] = {
        {"+=", [](jet::array& a, const jet::array& b) { a += b; }, ref::add},
        {"-=", [](jet::array& a, const jet::array& b) { a -= b; }, ref::subtract},
        {"*=", [](jet::array& a, const jet::array& b) { a *= b; }, ref::multiply},
        {"%=", [](jet::array& a, const jet::array& b) { a %= b; }, ref::remainder},
        {"&=", [](jet::array& a, const jet::array& b) { a &= b; },
         [](std::int32_t x, std::int32_t y) { return x & y; }},
        {"|=", [](jet::array& a, const jet::array& b) { a |= b; },
         [](std::int32_t x, std::int32_t y) { return x | y; }},
        {"^=", [](jet::array& a, const jet::array& b) { a ^= b; },
         [](std::int32_t x, std::int32_t y) { return x ^ y; }},
        {"<<=", [](jet::array& a, const jet::array& b) { a <<= b; }, ref::left_shift},
        {">>=", [](jet::array& a, const jet::array& b) { a >>= b; }, ref::right_shift},
    };
    for (const auto& op : ops) {
      INFO("a " << op.what << " b");
      operand<std::int32_t> a = make_operand<std::int32_t>(rng, {13, 31}, layout::contiguous);
      const auto b =
          make_operand<std::int32_t>(rng, {31}, layout::reversed, {.integers = int_range{-40, 40}});
      const std::vector<std::int32_t> want = reference<std::int32_t>({13, 31}, op.want, a, b);
      const void* before = a.device.data();
      op.apply(a.device, b.device);
      CHECK(a.device.data() == before);
      check_close<std::int32_t>(a.device, want);
    }
  }
  SECTION("in place into a strided view writes only the view") {
    const auto x = make_operand<double>(rng, {16, 16}, layout::contiguous);
    const auto row = make_operand<double>(rng, {16}, layout::contiguous);
    x.device(jet::slice(jet::none, jet::none, 2)) /= row.device;
    std::vector<double> want;
    for (std::int64_t i = 0; i < 256; ++i)
      want.push_back(i / 16 % 2 ? x.values[i] : x.values[i] / row.values[i % 16]);
    check_close<double>(x.device, want);
  }
  SECTION("an expression that reuses itself 40 times assigns into a view it overlaps") {
    // 2^40 paths lead from the root to the slice: each walk must meet every node once.
    const operand<double> x = make_operand<double>(rng, {257}, layout::contiguous);
    jet::expr e = x.device(jet::slice(0, -1));
    for (int i = 0; i < 40; ++i) e = e + e;
    x.device(jet::slice(1, jet::none)) = e;
    std::vector<wide_t<double>> want;
    for (std::int64_t i = 0; i < x.values.size(); ++i)
      want.push_back(i == 0 ? x.values[0] : std::ldexp(x.values[i - 1], 40));
    check_close<double>(x.device, want);
  }
  SECTION("a *= 2.5 on an int array raises jet::dtype_error and leaves the array alone") {
    jet::array a = jet::asarray(std::vector<std::int32_t>{1, 2, 3});
    REQUIRE_THROWS_AS(a *= 2.5, jet::dtype_error);
    REQUIRE_THROWS_WITH(
        a *= 2.5,
        "Cannot cast ufunc 'multiply' output from dtype('float64') to dtype('int32') "
        "with casting rule 'same_kind'");
    REQUIRE_THROWS_AS(a /= a, jet::dtype_error);
    check_close<std::int32_t>(a, {1, 2, 3});
  }
  SECTION("overlapping slices assign as if the source were copied first") {
    const operand<std::int32_t> x = make_operand<std::int32_t>(rng, {1023}, layout::contiguous);
    const struct {
      std::string_view what;
      void (*assign)(const jet::array&);
      std::int32_t (*want)(std::int64_t i, const operand<std::int32_t>& x);
    } cases[] = {
        {"a[1:] = a[:-1]",
         [](const jet::array& a) { a(jet::slice(1, jet::none)) = a(jet::slice(0, -1)); },
         [](std::int64_t i, const operand<std::int32_t>& x) {
           return x.values[i == 0 ? 0 : i - 1];
         }},
        {"a[:-1] = a[1:]",
         [](const jet::array& a) { a(jet::slice(0, -1)) = a(jet::slice(1, jet::none)); },
         [](std::int64_t i, const operand<std::int32_t>& x) {
           return x.values[i == 1022 ? 1022 : i + 1];
         }},
        {"a[...] = a[::-1]",
         [](const jet::array& a) { a(jet::ellipsis) = a(jet::slice(jet::none, jet::none, -1)); },
         [](std::int64_t i, const operand<std::int32_t>& x) { return x.values[1022 - i]; }},
        {"a[2:] += a[:-2]",
         [](const jet::array& a) { a(jet::slice(2, jet::none)) += a(jet::slice(0, -2)); },
         [](std::int64_t i, const operand<std::int32_t>& x) {
           return i < 2 ? x.values[i] : ref::add(x.values[i], x.values[i - 2]);
         }},
    };
    for (const auto& c : cases) {
      INFO(c.what);
      const jet::array a = x.device.copy();
      c.assign(a);
      std::vector<std::int32_t> want;
      for (std::int64_t i = 0; i < 1023; ++i) want.push_back(c.want(i, x));
      check_close<std::int32_t>(a, want);
    }
    const operand<double> m0 = make_operand<double>(rng, {31, 31}, layout::contiguous);
    jet::array m = m0.device;
    m += m.T();
    std::vector<double> want;
    for (std::int64_t i = 0; i < 31; ++i)
      for (std::int64_t j = 0; j < 31; ++j)
        want.push_back(m0.values[i * 31 + j] + m0.values[j * 31 + i]);
    INFO("m += m.T");
    check_close<double>(m, want);
  }
}
