// jet::random's generators on a GPU: the same seed gives the same numbers (in this process, in
// another one, after reseeding), other seeds, offsets, algorithms and streams give others;
// odd normal counts; integer dtypes over their whole range; arrays past 2^31 elements.
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <string>
#include <thread>
#include <vector>

#include "gpu/random_support.hpp"

namespace {

using namespace jet_test;
using jet::random::algorithm;

constexpr algorithm all_algorithms[] = {algorithm::philox4x32_10, algorithm::xorwow,
                                        algorithm::mrg32k3a, algorithm::mt19937};

// Probabilities 1, 2, ..., n - 1 (over their sum) and a last 0: enough outcomes that two
// independent draws of 20 without replacement never agree.
std::vector<double> ramp(int n) {
  std::vector<double> p(static_cast<std::size_t>(n), 0.0);
  for (int i = 0; i + 1 < n; ++i) p[static_cast<std::size_t>(i)] = (i + 1) / (0.5 * n * (n - 1));
  return p;
}

// One fingerprint per kind of draw, each taken after the previous one, so that every path
// (cuRAND calls, fused transforms, random kernels, sorts) is covered and ordered.
std::vector<std::uint64_t> fingerprints(jet::random::generator& g) {
  return {
      fingerprint(doubles(g.rand({1000}))),
      fingerprint(g.rand({777}, jet::float32).to_vector<float>()),
      fingerprint(g.rand({333}, jet::float16).to_vector<float>()),
      fingerprint(doubles(g.randn({1001}))),
      fingerprint(g.normal(1, 2, {999}, jet::float32).to_vector<float>()),
      fingerprint(doubles(g.lognormal(0, 1, {10}))),
      fingerprint(doubles(g.uniform(-1, 1, {100}))),
      fingerprint(doubles(g.exponential(2, {100}))),
      fingerprint(doubles(g.gamma(0.5, 1, {100}))),
      fingerprint(doubles(g.beta(2, 3, {100}))),
      fingerprint(integers(g.poisson(30, {100}))),
      fingerprint(integers(g.binomial(100, 0.4, {100}))),
      fingerprint(integers(g.randint(-3, 1000, {100}, jet::int16))),
      fingerprint(integers(
          g.randint(std::numeric_limits<std::int64_t>::min(), std::uint64_t{1} << 63, {100}))),
      fingerprint(g.randint(0, std::numeric_limits<std::uint64_t>::max(), {100}, jet::uint64)
                      .to_vector<std::uint64_t>()),
      fingerprint(integers(g.choice(50, {20}, false))),
      fingerprint(integers(g.choice(5, {100}, true, {0.1, 0.2, 0.3, 0.4, 0.0}))),
      fingerprint(integers(g.choice(50, {20}, false, ramp(50)))),
      fingerprint(integers(g.permutation(33))),
  };
}

// Every fingerprint differs: an independent stream shares none of its draws.
void check_all_differ(const std::vector<std::uint64_t>& a, const std::vector<std::uint64_t>& b,
                      const std::string& what) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO(what << ": draw " << i);
    CHECK(a[i] != b[i]);
  }
}

constexpr std::uint64_t child_seed = 424242;

}  // namespace

TEST_CASE("the same seed gives the same numbers, other seeds, offsets and algorithms others",
          "[gpu][random]") {
  for (algorithm kind : all_algorithms) {
    INFO(jet::random::name(kind));
    jet::random::generator a(2024, kind), b(2024, kind), c(2025, kind);
    const std::vector<std::uint64_t> first = fingerprints(a);
    CHECK(fingerprints(b) == first);
    check_all_differ(fingerprints(c), first, "another seed");
    check_all_differ(fingerprints(a), first, "the same generator, drawing on");
    a.seed(2024);
    CHECK(fingerprints(a) == first);
    if (kind != algorithm::mt19937) {
      jet::random::generator shifted(2024, kind, std::uint64_t{1} << 20);
      check_all_differ(fingerprints(shifted), first, "an offset");
      shifted.seed(2024, 0);
      CHECK(fingerprints(shifted) == first);
    }
  }
  jet::random::generator philox(7), xorwow(7, algorithm::xorwow);
  check_all_differ(fingerprints(philox), fingerprints(xorwow), "another algorithm");
}

TEST_CASE("jet::random::seed makes the default generator draw what generator(seed) draws",
          "[gpu][random]") {
  jet::random::seed(99);
  const std::vector<std::uint64_t> from_default = fingerprints(jet::random::default_generator());
  jet::random::generator g(99);
  CHECK(from_default == fingerprints(g));
  jet::random::seed(99);
  CHECK(doubles(jet::random::rand({50})) == doubles(jet::random::generator(99).rand({50})));
  CHECK(&jet::random::default_generator() == &jet::random::default_generator());
}

// Run by the next test in a process of its own, with JET_SEED set: prints the fingerprints.
TEST_CASE("child: fingerprints of the default generator under JET_SEED", "[.][random_child]") {
  for (std::uint64_t f : fingerprints(jet::random::default_generator()))
    std::printf("JET_RANDOM_FINGERPRINT %llu\n", static_cast<unsigned long long>(f));
}

TEST_CASE("JET_SEED gives the same numbers in another process", "[gpu][random]") {
  char self[4096] = {};
  REQUIRE(readlink("/proc/self/exe", self, sizeof self - 1) > 0);
  const std::string command =
      "JET_SEED=" + std::to_string(child_seed) + " '" + self + "' '[random_child]' 2>&1";
  std::FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::vector<std::uint64_t> from_child;
  std::string output;
  char line[512];
  while (std::fgets(line, sizeof line, pipe)) {
    output += line;
    unsigned long long value = 0;
    if (std::sscanf(line, "JET_RANDOM_FINGERPRINT %llu", &value) == 1) from_child.push_back(value);
  }
  INFO(output);
  REQUIRE(pclose(pipe) == 0);
  jet::random::generator g(child_seed);
  CHECK(from_child == fingerprints(g));
}

TEST_CASE("each stream has its own default generator, and seed resets all of them",
          "[gpu][random]") {
  jet::random::seed(5);
  const std::vector<double> legacy = doubles(jet::random::rand({100}));
  const jet::random::generator* legacy_generator = &jet::random::default_generator();
  jet::stream s;
  std::vector<double> other;
  {
    jet::stream_guard on(s);
    other = doubles(jet::random::rand({100}));
    CHECK(&jet::random::default_generator() != legacy_generator);
  }
  CHECK(legacy != other);
  jet::random::seed(5);
  CHECK(doubles(jet::random::rand({100})) == legacy);
  {
    jet::stream_guard on(s);
    CHECK(doubles(jet::random::rand({100})) == other);
  }
}

TEST_CASE("threads drawing from one default generator get distinct, complete draws",
          "[gpu][random]") {
  jet::random::seed(6);
  std::vector<std::vector<double>> draws(4);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < draws.size(); ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        const std::vector<double> x = doubles(jet::random::rand({1000}));
        draws[t].insert(draws[t].end(), x.begin(), x.end());
      }
    });
  for (std::thread& t : threads) t.join();
  std::vector<double> all;
  for (const std::vector<double>& d : draws) all.insert(all.end(), d.begin(), d.end());
  std::sort(all.begin(), all.end());
  CHECK(all.size() == 80000);
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());  // no call was repeated
}

TEST_CASE("odd normal counts are the even draw's first values, and the stream goes on",
          "[gpu][random]") {
  for (algorithm kind : all_algorithms) {
    for (jet::dtype t : {jet::float64, jet::float32}) {
      INFO(jet::random::name(kind) << " " << jet::name(t));
      jet::random::generator odd(31, kind), even(31, kind);
      const jet::array a = odd.randn({3, 5}, t);
      CHECK(jet::to_string(a.shape()) == "(3,5)");
      const std::vector<double> x = doubles(a), y = doubles(even.randn({16}, t));
      CHECK(std::equal(x.begin(), x.end(), y.begin()));
      CHECK(doubles(odd.rand({10}, t)) == doubles(even.rand({10}, t)));
      CHECK(doubles(odd.lognormal(0, 1, {1}, t)) ==
            std::vector<double>{doubles(even.lognormal(0, 1, {2}, t))[0]});
    }
  }
  jet::random::generator g(32);
  const jet::array one = g.normal(0, 1, {});
  CHECK(one.ndim() == 0);
  CHECK(std::isfinite(one.item<double>()));
}

TEST_CASE("every generator algorithm draws the right distributions", "[gpu][random]") {
  for (algorithm kind : all_algorithms) {
    jet::random::generator g(33, kind);
    const std::string name(jet::random::name(kind));
    check_continuous(
        g.rand({1000000}, jet::float32), 0.5, 1.0 / 12,
        [](double x) { return std::clamp(x, 0.0, 1.0); }, name + " rand");
    check_continuous(g.randn({1000001}), 0, 1, normal_cdf, name + " randn");
    check_continuous(
        g.gamma(2.0, 1.0, {1000000}), 2, 2, [](double x) { return regularized_gamma_p(2, x); },
        name + " gamma");
    check_discrete(
        g.randint(0, 7, {1000000}, jet::int8), 3, 4, [](std::int64_t) { return 1.0 / 7; }, 0, 6,
        name + " randint");
  }
}

TEST_CASE("randint covers every integer dtype's whole range, and narrower ones", "[gpu][random]") {
  struct whole {
    jet::dtype t;
    std::int64_t low;
    std::uint64_t high;  // exclusive; uint64 stops one short of 2^64
  };
  const whole cases[] = {
      {jet::bool_, 0, 2},
      {jet::int8, -128, 128},
      {jet::int16, -32768, 32768},
      {jet::int32, std::numeric_limits<std::int32_t>::min(), std::uint64_t{1} << 31},
      {jet::int64, std::numeric_limits<std::int64_t>::min(), std::uint64_t{1} << 63},
      {jet::uint8, 0, 256},
      {jet::uint16, 0, 65536},
      {jet::uint32, 0, std::uint64_t{1} << 32},
      {jet::uint64, 0, std::numeric_limits<std::uint64_t>::max()},
  };
  for (const whole& c : cases) {
    INFO(jet::name(c.t));
    jet::random::generator g(34);
    const jet::array k = g.randint(c.low, c.high, {1000000}, c.t);
    CHECK(k.dtype() == c.t);
    // Positions in the range, as fractions of it, binned in 16: uniform if the mapping is.
    const auto width = static_cast<long double>(c.high) - static_cast<long double>(c.low);
    std::vector<long double> position;
    if (c.t == jet::uint64) {
      for (std::uint64_t v : k.to_vector<std::uint64_t>())
        position.push_back(static_cast<long double>(v) / width);
    } else {
      for (std::int64_t v : integers(k))
        position.push_back((static_cast<long double>(v) - static_cast<long double>(c.low)) / width);
    }
    std::vector<std::int64_t> bins;
    std::int64_t outside = 0;
    for (long double p : position) {
      outside += !(p >= 0 && p < 1);
      bins.push_back(static_cast<std::int64_t>(p * 16));
    }
    CHECK(outside == 0);
    if (width >= 16)
      check_p_value(chi_square(
                        bins, [](std::int64_t) { return 1.0 / 16; }, 0, 15),
                    "whole range, 16 bins");
    if (width <= 65536) {  // every value is drawn, the extremes included
      CHECK(*std::min_element(position.begin(), position.end()) == 0);
      CHECK(*std::max_element(position.begin(), position.end()) * width == width - 1);
    }
    const jet::array narrow = g.randint(c.low + 1, c.low + 2, {100}, c.t);
    CHECK(integers(narrow.astype(jet::int64) - (c.low + 1)) == std::vector<std::int64_t>(100, 0));
  }
  jet::random::generator g(35);
  const std::vector<std::int64_t> below = integers(g.randint(5, {1000}));
  CHECK(*std::min_element(below.begin(), below.end()) == 0);
  CHECK(*std::max_element(below.begin(), below.end()) == 4);
}

TEST_CASE("draws past 2^31 elements fill the whole array", "[gpu][random][large]") {
  const std::int64_t n = (std::int64_t{1} << 31) + 3;
  jet::random::generator g(36);
  const jet::array x = g.rand({n}, jet::float32);
  CHECK(jet::array(jet::min(x)).item<float>() >= 0.0f);
  CHECK(jet::array(jet::max(x)).item<float>() < 1.0f);
  const jet::array tail = x(jet::slice(n - 1000000, jet::none));
  check_continuous(
      tail, 0.5, 1.0 / 12, [](double v) { return std::clamp(v, 0.0, 1.0); },
      "the last 10^6 of 2^31 + 3");
}
