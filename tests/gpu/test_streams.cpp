// Streams of one's own, and arrays that outlive the stream they were made on.
#include <cmath>
#include <random>
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"

TEST_CASE("arrays made on a stream outlive it", "[gpu][streams]") {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  std::vector<float> host(4099);
  for (float& x : host) x = dist(rng);
  double want = 0;
  for (float x : host) want += 2.0 * x;
  const std::size_t before = jet::memory::stats().in_use;
  jet::array doubled, total;
  {
    jet::stream own;
    jet::stream_guard guard(own);
    doubled = jet::asarray(host) * 2.0f;
    total = jet::sum(doubled);
  }
  // The stream is gone: the arrays still read back, and free their memory when dropped.
  const std::vector<float> got = doubled.to_vector<float>();
  for (std::size_t i = 0; i < host.size(); ++i) REQUIRE(got[i] == 2.0f * host[i]);
  CHECK(std::abs(total.item<double>() - want) <= 1e-5 * (1 + std::abs(want)));
  doubled = jet::array();
  total = jet::array();
  jet::synchronize();
  CHECK(jet::memory::stats().in_use == before);
  const jet::array again = jet::asarray(host);
  CHECK(again.to_vector<float>() == host);
}
