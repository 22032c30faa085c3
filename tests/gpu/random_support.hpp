// Helpers for the jet::random GPU tests: draws copied to the host, and one check per kind of
// distribution (moments within five standard errors, then Kolmogorov-Smirnov or chi-square).
// Every test seeds its own generator, so each runs the same numbers every time.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"
#include "support/statistics.hpp"

namespace jet_test {

// The sample size for the statistical tests.
inline constexpr std::int64_t many = 10'000'000;
// A correct sampler fails one test in 10^4; the tests are deterministic, so a failure repeats.
inline constexpr double min_p_value = 1e-4;

inline std::vector<double> doubles(const jet::array& a) { return a.to_vector<double>(); }
inline std::vector<std::int64_t> integers(const jet::array& a) {
  return a.to_vector<std::int64_t>();
}

inline void check_p_value(const fit& f, const std::string& what) {
  INFO(what << ": " << f.describe());
  CHECK(f.p_value >= min_p_value);
}

inline void check_moments(const std::vector<double>& x, double mean, double variance,
                          const std::string& what) {
  const moments m = moments_of(x);
  INFO(what << ": mean " << m.mean << " (want " << mean << ", standard error " << m.mean_error
            << "), variance " << m.variance << " (want " << variance << ", standard error "
            << m.variance_error << ")");
  CHECK(std::abs(m.mean - mean) <= 5 * m.mean_error);
  CHECK(std::abs(m.variance - variance) <= 5 * m.variance_error);
}

// Draws of a continuous distribution: its moments, then Kolmogorov-Smirnov against its CDF.
inline void check_continuous(const jet::array& draws, double mean, double variance,
                             const std::function<double(double)>& cdf, const std::string& what) {
  REQUIRE(draws.size() > 0);
  const std::vector<double> x = doubles(draws);
  check_moments(x, mean, variance, what);
  check_p_value(kolmogorov_smirnov(x, cdf), what + ", Kolmogorov-Smirnov");
}

// Draws of a discrete distribution on [first, last]: none outside, its moments, then
// chi-square against its probability mass function.
inline void check_discrete(const jet::array& draws, double mean, double variance,
                           const std::function<double(std::int64_t)>& pmf, std::int64_t first,
                           std::int64_t last, const std::string& what) {
  REQUIRE(draws.size() > 0);
  const std::vector<std::int64_t> k = integers(draws);
  std::int64_t outside = 0;
  for (std::int64_t v : k) outside += v < first || v > last;
  INFO(what << ": " << outside << " draws outside [" << first << ", " << last << "]");
  CHECK(outside == 0);
  check_moments(std::vector<double>(k.begin(), k.end()), mean, variance, what);
  check_p_value(chi_square(k, pmf, first, last), what + ", chi-square");
}

// The bits of two arrays' elements as float32 agree (16-bit results against the rounded
// float32 or float64 result of the same seed).
inline void check_same_values(const jet::array& got, const jet::array& want,
                              const std::string& what) {
  const std::vector<float> a = got.to_vector<float>(),
                           b = want.astype(got.dtype()).to_vector<float>();
  REQUIRE(a.size() == b.size());
  std::size_t first_difference = a.size();
  for (std::size_t i = 0; i < a.size() && first_difference == a.size(); ++i)
    if (!(a[i] == b[i] || (a[i] != a[i] && b[i] != b[i]))) first_difference = i;
  INFO(what << ": first difference at " << first_difference);
  CHECK(first_difference == a.size());
}

// FNV-1a over the bytes of host values: a short fingerprint of a run's draws.
template <class T>
std::uint64_t fingerprint(const std::vector<T>& values,
                          std::uint64_t hash = 0xcbf29ce484222325ull) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(values.data());
  for (std::size_t i = 0; i < values.size() * sizeof(T); ++i)
    hash = (hash ^ bytes[i]) * 0x100000001b3ull;
  return hash;
}

}  // namespace jet_test
