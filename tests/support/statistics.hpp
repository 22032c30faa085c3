// Statistical tests for samplers, shared by the host tests of the device algorithms and the
// GPU tests of jet::random: moments with their standard errors, Kolmogorov-Smirnov against a
// continuous CDF, chi-square against a probability mass function, and the special functions
// their references need (regularized incomplete gamma and beta).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace jet_test {

// ---- Special functions

inline double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// P(a, x), the regularized lower incomplete gamma function: a series below a + 1, else a
// continued fraction for Q = 1 - P (modified Lentz).
inline double regularized_gamma_p(double a, double x) {
  if (x <= 0) return 0;
  const double log_front = -x + a * std::log(x) - std::lgamma(a);
  if (x < a + 1) {
    double term = 1 / a, sum = term;
    for (int n = 1; n < 100000 && std::abs(term) > std::abs(sum) * 1e-16; ++n) {
      term *= x / (a + n);
      sum += term;
    }
    return sum * std::exp(log_front);
  }
  constexpr double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 100000; ++i) {
    const double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (std::abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::abs(step - 1) < 1e-16) break;
  }
  return 1 - std::exp(log_front) * h;
}

// The continued fraction of the incomplete beta function (modified Lentz).
inline double incomplete_beta_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  const double qab = a + b, qap = a + 1, qam = a - 1;
  double c = 1, d = 1 - qab * x / qap;
  if (std::abs(d) < tiny) d = tiny;
  d = 1 / d;
  double h = d;
  for (int m = 1; m < 100000; ++m) {
    const double m2 = 2.0 * m;
    double aa = m * (b - m) * x / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (std::abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (std::abs(c) < tiny) c = tiny;
    d = 1 / d;
    const double step = d * c;
    h *= step;
    if (std::abs(step - 1) < 1e-16) break;
  }
  return h;
}

// I_x(a, b), the regularized incomplete beta function (the Beta(a, b) CDF).
inline double regularized_beta(double a, double b, double x) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return front * incomplete_beta_fraction(a, b, x) / a;
  return 1 - front * incomplete_beta_fraction(b, a, 1 - x) / b;
}

// ---- Moments

struct moments {
  double mean = 0, variance = 0;
  double mean_error = 0, variance_error = 0;  // standard errors, estimated from the sample
};

inline moments moments_of(const std::vector<double>& x) {
  moments m;
  const double n = static_cast<double>(x.size());
  for (double v : x) m.mean += v;
  m.mean /= n;
  double m2 = 0, m4 = 0;
  for (double v : x) {
    const double d2 = (v - m.mean) * (v - m.mean);
    m2 += d2;
    m4 += d2 * d2;
  }
  m2 /= n;
  m4 /= n;
  m.variance = m2;
  m.mean_error = std::sqrt(m2 / n);
  m.variance_error = std::sqrt(std::max(m4 - m2 * m2, 0.0) / n);
  return m;
}

// ---- Goodness of fit

// The Kolmogorov distribution's tail, P(K > lambda).
inline double kolmogorov_tail(double lambda) {
  if (lambda < 0.2) return 1;
  double sum = 0;
  for (int j = 1; j <= 100; ++j) sum += (j % 2 ? 2 : -2) * std::exp(-2.0 * j * j * lambda * lambda);
  return std::clamp(sum, 0.0, 1.0);
}

struct fit {
  double statistic = 0;
  double p_value = 1;
  std::string describe() const {
    return "statistic " + std::to_string(statistic) + ", p-value " + std::to_string(p_value);
  }
};

// Kolmogorov-Smirnov test of `sample` (sorted here) against a continuous CDF, with Stephens'
// correction for the finite sample. The statistic is exact, but the CDF (costly for gamma and
// beta) is first taken at every 256th point only: F and the empirical CDF both rise, which
// bounds the deviation inside each stretch, and only stretches that could hold a larger
// deviation than one already found are evaluated point by point.
inline fit kolmogorov_smirnov(std::vector<double> sample,
                              const std::function<double(double)>& cdf) {
  std::sort(sample.begin(), sample.end());
  const std::size_t count = sample.size();
  const double n = static_cast<double>(count);
  double d = 0;
  const auto at = [&](std::size_t i) {
    const double f = cdf(sample[i]);
    d = std::max({d, f - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - f});
    return f;
  };
  constexpr std::size_t stride = 256;
  std::vector<std::size_t> marks;
  for (std::size_t i = 0; i < count; i += stride) marks.push_back(i);
  if (count > 0 && marks.back() != count - 1) marks.push_back(count - 1);
  std::vector<double> f(marks.size());
  for (std::size_t j = 0; j < marks.size(); ++j) f[j] = at(marks[j]);
  for (std::size_t j = 0; j + 1 < marks.size(); ++j) {
    const double bound = std::max(f[j + 1] - static_cast<double>(marks[j]) / n,
                                  static_cast<double>(marks[j + 1] + 1) / n - f[j]);
    if (bound <= d) continue;
    for (std::size_t i = marks[j] + 1; i < marks[j + 1]; ++i) at(i);
  }
  const double root = std::sqrt(n);
  return {d, kolmogorov_tail((root + 0.12 + 0.11 / root) * d)};
}

// Pearson's chi-square test of integer draws against a probability mass function on
// [first, last], which should hold all but a negligible part of the mass. Each value is a bin,
// except that the tails up to the first and from the last value expected `min_expected` times
// are pooled into those values' bins, draws outside [first, last] included. A value of
// probability zero is no bin, and a single draw of it fails the test.
inline fit chi_square(const std::vector<std::int64_t>& draws,
                      const std::function<double(std::int64_t)>& pmf, std::int64_t first,
                      std::int64_t last, double min_expected = 20) {
  const double n = static_cast<double>(draws.size());
  std::vector<double> expected;
  for (std::int64_t k = first; k <= last; ++k) expected.push_back(n * pmf(k));
  double covered = 0;
  for (double e : expected) covered += e;
  std::int64_t low = 0, high = static_cast<std::int64_t>(expected.size()) - 1;
  while (low < high && expected[static_cast<std::size_t>(low)] < min_expected) ++low;
  while (high > low && expected[static_cast<std::size_t>(high)] < min_expected) --high;
  std::vector<double> pooled(expected.begin() + low, expected.begin() + high + 1);
  for (std::int64_t k = 0; k < low; ++k) pooled.front() += expected[static_cast<std::size_t>(k)];
  for (std::int64_t k = high + 1; k < static_cast<std::int64_t>(expected.size()); ++k)
    pooled.back() += expected[static_cast<std::size_t>(k)];
  pooled.back() += std::max(n - covered, 0.0);
  std::vector<double> observed(pooled.size(), 0.0);
  for (std::int64_t k : draws) {
    const std::int64_t bin =
        std::clamp<std::int64_t>(k - first - low, 0, static_cast<std::int64_t>(pooled.size()) - 1);
    observed[static_cast<std::size_t>(bin)] += 1;
  }
  double statistic = 0;
  std::size_t bins = 0;
  for (std::size_t i = 0; i < pooled.size(); ++i) {
    if (pooled[i] <= 0) {
      // A value the pmf rules out: drawing it at all fails the test.
      if (observed[i] > 0) return {std::numeric_limits<double>::infinity(), 0};
      continue;
    }
    statistic += (observed[i] - pooled[i]) * (observed[i] - pooled[i]) / pooled[i];
    ++bins;
  }
  const double freedom = static_cast<double>(bins) - 1;
  if (freedom < 1) return {statistic, 1};
  return {statistic, 1 - regularized_gamma_p(freedom / 2, statistic / 2)};
}

}  // namespace jet_test
