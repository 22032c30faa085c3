// Kernels this process (and most likely the disk cache) has not seen: chains of unary
// functions drawn from a seed, so that evaluating one compiles a new kernel.
#pragma once

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "jet/jet.hpp"

namespace jet_test {

class unseen_chain {
 public:
  explicit unseen_chain(std::uint32_t seed, int length = 14) {
    std::mt19937 rng(seed);
    for (int k = 0; k < length; ++k) picks_.push_back(static_cast<int>(rng() % 6));
  }
  jet::expr operator()(const jet::expr& x) const {
    jet::expr e = x;
    for (int p : picks_) e = step(p, e);
    return e;
  }
  // The same chain on the host, in double precision.
  double host(double x) const {
    for (int p : picks_) x = step(p, x);
    return x;
  }

 private:
  template <class T>
  static T step(int pick, const T& x) {
    using jet::cos, jet::sin, jet::tanh, std::cos, std::sin, std::tanh;
    switch (pick) {
      case 0: return sin(x);
      case 1: return cos(x);
      case 2: return tanh(x);
      case 3: return arctan_of(x);
      case 4: return -x;
      default: return x * x;
    }
  }
  static jet::expr arctan_of(const jet::expr& x) { return jet::arctan(x); }
  static double arctan_of(double x) { return std::atan(x); }
  std::vector<int> picks_;
};

}  // namespace jet_test
