// End to end: a kernel rendered, compiled with NVRTC for this device, loaded, launched.
#include <cmath>
#include <random>
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"

TEST_CASE("a fused expression matches the host", "[gpu][smoke]") {
  std::mt19937 rng(1234);
  std::uniform_real_distribution<float> dist(-3.0f, 3.0f);
  const int n = 100003;
  std::vector<float> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = dist(rng);
    hb[i] = dist(rng);
  }
  const jet::array a = jet::asarray(ha), b = jet::asarray(hb);
  const jet::array z = jet::sin(a) * jet::cos(b) + jet::exp(-b * b) * 0.5;
  REQUIRE(z.dtype() == jet::float32);
  const std::vector<float> got = z.to_vector<float>();
  for (int i = 0; i < n; ++i) {
    const double want =
        std::sin(double(ha[i])) * std::cos(double(hb[i])) + std::exp(-double(hb[i]) * hb[i]) * 0.5;
    REQUIRE(std::abs(got[i] - want) <= 1e-5 * (1 + std::abs(want)));
  }
}
