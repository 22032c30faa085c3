// choice, permutation and shuffle on a GPU: samples without replacement never repeat,
// permutations are permutations, and every ordering, inclusion and weighted draw has the
// frequency it should (chi-square).
#include <algorithm>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "gpu/random_support.hpp"
#include "src/random/kernels.hpp"

namespace {

using namespace jet_test;

// The index of an ordering of 0..n-1 among all n! of them (its Lehmer code).
std::int64_t ordering_index(const std::vector<std::int64_t>& order) {
  std::int64_t index = 0;
  for (std::size_t i = 0; i < order.size(); ++i) {
    std::int64_t smaller_after = 0;
    for (std::size_t j = i + 1; j < order.size(); ++j) smaller_after += order[j] < order[i];
    index = index * static_cast<std::int64_t>(order.size() - i) + smaller_after;
  }
  return index;
}

bool is_permutation_of_range(std::vector<std::int64_t> values) {
  std::sort(values.begin(), values.end());
  for (std::size_t i = 0; i < values.size(); ++i)
    if (values[i] != static_cast<std::int64_t>(i)) return false;
  return true;
}

}  // namespace

TEST_CASE("permutation is a permutation, uniform over orderings", "[gpu][random]") {
  jet::random::generator g(201);
  for (std::int64_t n : {1, 2, 3, 1000, 1024, 1000003}) {
    const jet::array p = g.permutation(n);
    CHECK(p.dtype() == jet::int64);
    CHECK(p.size() == n);
    INFO("permutation(" << n << ")");
    CHECK(is_permutation_of_range(integers(p)));
  }
  // Every ordering of 3 and of 5 elements (sorted on 4 and 8 slots, padding included).
  for (std::int64_t n : {3, 5}) {
    const std::int64_t orderings = n == 3 ? 6 : 120;
    std::vector<std::int64_t> seen;
    for (std::int64_t i = 0; i < 100 * orderings; ++i)
      seen.push_back(ordering_index(integers(g.permutation(n))));
    check_p_value(chi_square(
                      seen, [&](std::int64_t) { return 1.0 / static_cast<double>(orderings); }, 0,
                      orderings - 1),
                  "orderings of " + std::to_string(n));
  }
}

TEST_CASE("ties among a permutation's sorted keys are broken uniformly", "[gpu][random]") {
  // Runs of 4 equal keys (keys[i] = i / 4), as the sort leaves them: each run comes out as an
  // ordering of its positions, every ordering as likely; int32 and int64 positions.
  constexpr std::int64_t run = 4, runs = 60000, orderings = 24;
  std::vector<std::uint32_t> keys(run * runs);
  for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<std::uint32_t>(i / run);
  const jet::array sorted_keys = jet::asarray(keys);
  const jet::array launch_key = jet::asarray(std::vector<std::uint32_t>{7, 11, 13, 17});
  for (jet::dtype t : {jet::int32, jet::int64}) {
    INFO(jet::name(t));
    const jet::array positions = jet::arange(0.0, double(run * runs), 1.0, t);
    const jet::array out = jet::empty({run * runs}, jet::int64);
    jet::random::detail::untie(out, launch_key, sorted_keys, positions);
    const std::vector<std::int64_t> v = integers(out);
    std::vector<std::int64_t> seen;
    bool in_runs = true;
    for (std::int64_t r = 0; r < runs; ++r) {
      std::vector<std::int64_t> order(v.begin() + r * run, v.begin() + (r + 1) * run);
      for (std::int64_t& x : order) x -= r * run;
      in_runs = in_runs && is_permutation_of_range(order);
      seen.push_back(ordering_index(order));
    }
    CHECK(in_runs);
    check_p_value(chi_square(
                      seen, [](std::int64_t) { return 1.0 / orderings; }, 0, orderings - 1),
                  "orderings of tied runs");
  }
  // Keys all different: the positions as they are.
  const jet::array distinct = jet::asarray(std::vector<std::uint32_t>{1, 5, 9});
  const jet::array out = jet::empty({3}, jet::int64);
  jet::random::detail::untie(out, launch_key, distinct,
                             jet::asarray(std::vector<std::int32_t>{2, 0, 1}));
  CHECK(integers(out) == std::vector<std::int64_t>{2, 0, 1});
}

TEST_CASE("a long permutation shows no link between positions and values", "[gpu][random]") {
  jet::random::generator g(202);
  const std::vector<std::int64_t> p = integers(g.permutation(many));
  REQUIRE(is_permutation_of_range(p));
  // (position mod 8, value mod 8) over 64 cells: independent in a uniform permutation.
  std::vector<std::int64_t> cells;
  for (std::size_t i = 0; i < p.size(); ++i)
    cells.push_back(static_cast<std::int64_t>(i % 8) * 8 + p[i] % 8);
  check_p_value(chi_square(
                    cells, [](std::int64_t) { return 1.0 / 64; }, 0, 63),
                "position and value mod 8");
  std::int64_t fixed = 0;
  for (std::size_t i = 0; i < p.size(); ++i) fixed += p[i] == static_cast<std::int64_t>(i);
  CHECK(fixed < 15);  // Poisson(1) fixed points: 15 or more has probability below 10^-12
}

TEST_CASE("permutation of an array and shuffle move whole rows", "[gpu][random]") {
  jet::random::generator g(203);
  // Rows of 3 float32 (4-byte units), of 3 int8 (bytes), of 2 complex128 (16-byte units).
  const jet::array rows = jet::arange(0, 3000).reshape({1000, 3}).astype(jet::float32);
  const std::vector<float> shuffled = g.permutation(rows).to_vector<float>();
  std::vector<std::int64_t> firsts;
  for (std::size_t r = 0; r < 1000; ++r) {
    INFO("row " << r);
    REQUIRE(shuffled[3 * r + 1] == shuffled[3 * r] + 1);
    REQUIRE(shuffled[3 * r + 2] == shuffled[3 * r] + 2);
    firsts.push_back(static_cast<std::int64_t>(shuffled[3 * r]) / 3);
  }
  CHECK(is_permutation_of_range(firsts));
  CHECK(rows.to_vector<float>()[5] == 5.0f);  // the input is left alone

  const jet::array bytes =
      jet::array(jet::arange(0, 300) % 100).reshape({100, 3}).astype(jet::int8);
  const auto rows_of = [](const std::vector<std::int8_t>& v) {
    std::vector<std::vector<std::int8_t>> out;
    for (std::size_t r = 0; r < v.size(); r += 3) out.push_back({v[r], v[r + 1], v[r + 2]});
    std::sort(out.begin(), out.end());
    return out;
  };
  const jet::array in_place = bytes.copy();
  g.shuffle(in_place);
  const std::vector<std::int8_t> before = bytes.to_vector<std::int8_t>(),
                                 after = in_place.to_vector<std::int8_t>();
  CHECK(after != before);
  CHECK(rows_of(after) == rows_of(before));

  const jet::array complex_rows = jet::arange(0, 40).reshape({20, 2}).astype(jet::complex128);
  const std::vector<std::complex<double>> c =
      g.permutation(complex_rows).to_vector<std::complex<double>>();
  std::vector<std::int64_t> complex_firsts;
  for (std::size_t r = 0; r < 20; ++r) {
    CHECK(c[2 * r + 1] == c[2 * r] + 1.0);
    complex_firsts.push_back(static_cast<std::int64_t>(c[2 * r].real()) / 2);
  }
  CHECK(is_permutation_of_range(complex_firsts));
}

TEST_CASE("shuffle writes through a strided view and leaves the rest alone", "[gpu][random]") {
  jet::random::generator g(204);
  const jet::array a = jet::arange(0, 40).astype(jet::float64);
  g.shuffle(a(jet::slice(jet::none, jet::none, 2)));  // the even positions only
  const std::vector<double> v = doubles(a);
  std::vector<std::int64_t> evens;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i % 2) {
      CHECK(v[i] == static_cast<double>(i));
    } else {
      CHECK(static_cast<std::int64_t>(v[i]) % 2 == 0);
      evens.push_back(static_cast<std::int64_t>(v[i]) / 2);
    }
  }
  CHECK(is_permutation_of_range(evens));
  CHECK(evens != std::vector<std::int64_t>{0,  1,  2,  3,  4,  5,  6,  7,  8,  9,
                                           10, 11, 12, 13, 14, 15, 16, 17, 18, 19});
}

TEST_CASE("choice without replacement never repeats and covers the population evenly",
          "[gpu][random]") {
  jet::random::generator g(205);
  const std::vector<std::int64_t> all = integers(g.choice(1000, {1000}, false));
  CHECK(is_permutation_of_range(all));
  const std::vector<std::int64_t> some = integers(g.choice(1000000, {50, 100}, false));
  std::vector<std::int64_t> sorted = some;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end());
  CHECK(sorted.front() >= 0);
  CHECK(sorted.back() < 1000000);
  // The first and the second element of choice(10, 3, replace=False): uniform over 10, and
  // the pair uniform over the 90 ordered pairs of distinct elements.
  std::vector<std::int64_t> firsts, pairs;
  for (int i = 0; i < 9000; ++i) {
    const std::vector<std::int64_t> s = integers(g.choice(10, {3}, false));
    REQUIRE((s[0] != s[1] && s[1] != s[2] && s[0] != s[2]));
    firsts.push_back(s[0]);
    pairs.push_back(s[0] * 10 + s[1]);
  }
  check_p_value(chi_square(
                    firsts, [](std::int64_t) { return 0.1; }, 0, 9),
                "first element");
  check_p_value(chi_square(
                    pairs, [](std::int64_t v) { return v / 10 == v % 10 ? 0.0 : 1.0 / 90; }, 0, 99),
                "ordered pairs");
}

TEST_CASE("choice with probabilities draws each element as often as its probability",
          "[gpu][random]") {
  const std::vector<double> p = {0.1, 0.0, 0.25, 0.65};
  jet::random::generator g(206);
  const jet::array k = g.choice(4, {many}, true, p);
  CHECK(k.dtype() == jet::int64);
  double mean = 0, second = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    mean += static_cast<double>(i) * p[i];
    second += static_cast<double>(i * i) * p[i];
  }
  const std::vector<std::int64_t> draws = integers(k);
  CHECK(std::count(draws.begin(), draws.end(), 1) == 0);  // probability zero: never
  check_discrete(
      k, mean, second - mean * mean, [&](std::int64_t v) { return p[static_cast<std::size_t>(v)]; },
      0, 3, "choice with p");
}

TEST_CASE("choice without replacement and with probabilities is successive sampling",
          "[gpu][random]") {
  const std::vector<double> p = {0.1, 0.2, 0.3, 0.4, 0.0};
  jet::random::generator g(207);
  // P(i first, then j) = p_i p_j / (1 - p_i); index 4 (probability 0) is never taken.
  std::vector<std::int64_t> pairs;
  for (int i = 0; i < 10000; ++i) {
    const std::vector<std::int64_t> s = integers(g.choice(5, {2}, false, p));
    REQUIRE(s[0] != s[1]);
    pairs.push_back(s[0] * 5 + s[1]);
  }
  check_p_value(chi_square(
                    pairs,
                    [&](std::int64_t v) {
                      const auto i = static_cast<std::size_t>(v / 5),
                                 j = static_cast<std::size_t>(v % 5);
                      return i == j ? 0.0 : p[i] * p[j] / (1 - p[i]);
                    },
                    0, 24),
                "ordered pairs");
  const std::vector<std::int64_t> three = integers(g.choice(5, {4}, false, p));
  std::vector<std::int64_t> sorted = three;
  std::sort(sorted.begin(), sorted.end());
  CHECK(sorted == std::vector<std::int64_t>{0, 1, 2, 3});  // all four non-zero elements, never 4
}

TEST_CASE("choice from an array returns its elements, shaped as asked", "[gpu][random]") {
  jet::random::generator g(208);
  const jet::array values = jet::asarray(std::vector<float>{1.5f, -2.0f, 7.25f});
  const jet::array picked = g.choice(values, {4, 5}, true, {0.5, 0.0, 0.5});
  CHECK(picked.dtype() == jet::float32);
  CHECK(jet::to_string(picked.shape()) == "(4,5)");
  for (float v : picked.to_vector<float>()) CHECK((v == 1.5f || v == 7.25f));
  const jet::array one = g.choice(values);
  CHECK(one.ndim() == 0);
  const float v = one.item<float>();
  CHECK((v == 1.5f || v == -2.0f || v == 7.25f));
  const std::vector<float> all = g.choice(values, {3}, false).to_vector<float>();
  CHECK(std::is_permutation(all.begin(), all.end(), values.to_vector<float>().begin()));
  // A strided view as the population.
  const jet::array every_other = jet::arange(0, 20)(jet::slice(jet::none, jet::none, 2));
  for (std::int64_t x : integers(g.choice(every_other, {100}))) CHECK(x % 2 == 0);
}
