// Black-Scholes prices of European options two ways: plain Jet expressions (the call alone, or
// call and put from one set of terms) and one hand-written elementwise_kernel computing both;
// shared by the example and bench/kernels.cpp. The normal CDF is the 5-term polynomial of
// Abramowitz and Stegun (26.2.17, error below 7.5e-8), spelled the same way in both.
#pragma once

#include <jet/jet.hpp>

#include <random>
#include <string>
#include <vector>

namespace black_scholes {

// `n` float64 values uniform in [low, high), drawn on the host.
inline jet::array uniform(std::int64_t n, double low, double high, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> dist(low, high);
  std::vector<double> values(static_cast<std::size_t>(n));
  for (double& v : values) v = dist(rng);
  return jet::asarray(values);
}

inline jet::expr normal_cdf(const jet::expr& d) {
  const jet::expr k = 1.0 / (1.0 + 0.2316419 * jet::absolute(d));
  const jet::expr tail =
      0.3989422804014327 * jet::exp(-0.5 * d * d) *
      (k * (0.31938153 +
            k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))));
  return jet::where(d > 0, 1.0 - tail, tail);
}

struct d_terms {
  jet::expr d1, d2, discount;
};

inline d_terms terms(const jet::array& s, const jet::array& x, const jet::array& t, double r,
                     double v) {
  const jet::expr root = jet::sqrt(t);
  const jet::expr d1 = (jet::log(s / x) + (r + 0.5 * v * v) * t) / (v * root);
  return {d1, d1 - v * root, jet::exp(-r * t)};
}

inline jet::expr call(const jet::array& s, const jet::array& x, const jet::array& t, double r,
                      double v) {
  const d_terms d = terms(s, x, t, r, v);
  return s * normal_cdf(d.d1) - x * d.discount * normal_cdf(d.d2);
}

struct call_and_put {
  jet::expr call, put;
};

// Both prices from one set of terms, as CuPy's example computes them: the two trees share
// their nodes, so building them costs little more than the call's alone.
inline call_and_put prices(const jet::array& s, const jet::array& x, const jet::array& t, double r,
                           double v) {
  const d_terms d = terms(s, x, t, r, v);
  const jet::expr n1 = normal_cdf(d.d1), n2 = normal_cdf(d.d2);
  const jet::expr strike_now = x * d.discount;
  return {s * n1 - strike_now * n2, strike_now * (1.0 - n2) - s * (1.0 - n1)};
}

// The same formula as one kernel with two outputs (call, put), or with the call alone.
inline jet::elementwise_kernel kernel(bool with_put = true) {
  return jet::elementwise_kernel("T s, T x, T t, T r, T v", with_put ? "T call, T put" : "T call",
                                 std::string(R"(
    const T root = sqrt(t);
    const T d1 = (log(s / x) + (r + 0.5 * v * v) * t) / (v * root);
    const T d2 = d1 - v * root;
    const T discount = exp(-r * t);
    const T n1 = normal_cdf(d1), n2 = normal_cdf(d2);
    call = s * n1 - x * discount * n2;
  )") + (with_put ? "put = x * discount * (1.0 - n2) - s * (1.0 - n1);" : ""),
                                 with_put ? "black_scholes" : "black_scholes_call",
                                 R"(
__device__ double normal_cdf(double d) {
  const double k = 1.0 / (1.0 + 0.2316419 * fabs(d));
  const double tail = 0.3989422804014327 * exp(-0.5 * d * d) *
                      (k * (0.31938153 + k * (-0.356563782 + k * (1.781477937 + k * (-1.821255978 + k * 1.330274429)))));
  return d > 0 ? 1.0 - tail : tail;
}
)");
}

}  // namespace black_scholes
