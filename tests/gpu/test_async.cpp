// Asynchronous evaluation (the default): kernels compile on another thread while the program
// goes on, and the GPU still sees the program's order. The suite also runs with JET_ASYNC=0
// (scripts/gpu-check.sh), where each of these tests holds as well.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gpu/unseen.hpp"
#include "jet/jet.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"
#include "support/cache_support.hpp"
#include "support/catch.hpp"

namespace {

std::vector<double> host_linspace(double lo, double hi, int n) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i) v.push_back(lo + (hi - lo) * i / (n - 1));
  return v;
}

// Within what chains of a few ulp-accurate functions differ from the host's by (work run out of
// order is off by far more).
void check_close(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    INFO("element " << i << ": got " << got[i] << ", want " << want[i]);
    REQUIRE(std::abs(got[i] - want[i]) <= 1e-10 + 1e-10 * std::abs(want[i]));
  }
}

// Work Jet queued on the current stream is still waiting (asynchronous mode only).
bool queued_here() { return !jet::detail::stream_idle(jet::detail::current_stream()); }

}  // namespace

TEST_CASE("kernels still compiling run in the program's order, with other work between them",
          "[gpu][async]") {
  jet_test::scoped_env off("JET_CACHE", "off");  // every new kernel compiles in this process
  const std::uint32_t seed = std::random_device{}();
  INFO("seed " << seed);
  constexpr int n = 64;
  std::vector<double> want = host_linspace(-1, 1, n * n);
  jet::array y = jet::asarray(want).reshape({n, n});
  for (int k = 0; k < 4; ++k) {
    const jet_test::unseen_chain chain(seed + k, 6);
    y = jet::array(chain(y) + y * 0.5);
    for (double& v : want) v = chain.host(v) + v * 0.5;
    if (k == 0 && jet::detail::async_evaluation()) CHECK(queued_here());
  }
  // A user kernel, new in this process, reads the still-unfinished chain and writes in place.
  const jet::elementwise_kernel twice("T x", "T z", "z = 2 * x + 1",
                                      "async_twice_" + std::to_string(seed));
  twice(y, y);
  for (double& v : want) v = 2 * v + 1;
  // A view written by a new kernel: the other elements keep their values.
  const jet_test::unseen_chain tail(seed ^ 0x5bd1e995u, 5);
  y(jet::slice(0, n / 2)) = tail(y(jet::slice(0, n / 2)));
  for (int i = 0; i < n / 2 * n; ++i) want[i] = tail.host(want[i]);
  // cuBLAS reads it, then another new kernel reads the product.
  const jet::array identity_times_3 = jet::eye(n) * 3.0;
  jet::array product = jet::matmul(y, identity_times_3);
  for (double& v : want) v *= 3;
  const jet_test::unseen_chain last(seed * 7 + 1, 4);
  product = jet::array(last(product));
  for (double& v : want) v = last.host(v);
  // A raw kernel adds one to every element.
  const jet::raw_kernel add_one(R"(
extern "C" __global__ void add_one(double* x, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += 1;
})",
                                "add_one");
  add_one(n * n / 256, 256, product, n * n);
  for (double& v : want) v += 1;
  check_close(product.to_vector<double>(), want);
}

TEST_CASE("each stream keeps its own order while kernels compile", "[gpu][async][streams]") {
  jet_test::scoped_env off("JET_CACHE", "off");
  const std::uint32_t seed = std::random_device{}();
  INFO("seed " << seed);
  const std::vector<double> start = host_linspace(-2, 2, 4099);
  const jet::array x = jet::asarray(start);
  jet::synchronize();  // the copy of x, on the legacy stream, before other streams read it
  jet::stream first, second;
  jet::array a, b;
  std::vector<double> want_a = start, want_b = start;
  for (int k = 0; k < 3; ++k) {
    const jet_test::unseen_chain ca(seed + 2 * k, 5), cb(seed + 2 * k + 1, 5);
    {
      jet::stream_guard on(first);
      a = jet::array(ca(k == 0 ? jet::expr(x) : jet::expr(a)));
    }
    {
      jet::stream_guard on(second);
      b = jet::array(cb(k == 0 ? jet::expr(x) : jet::expr(b)) + 1.0);
    }
    for (double& v : want_a) v = ca.host(v);
    for (double& v : want_b) v = cb.host(v) + 1.0;
  }
  {
    jet::stream_guard on(first);
    check_close(a.to_vector<double>(), want_a);
  }
  second.synchronize();
  {
    jet::stream_guard on(second);
    CHECK_FALSE(queued_here());
    check_close(b.to_vector<double>(), want_b);
  }
}

TEST_CASE("a reduction still compiling sizes its chunks as the loaded kernel allows",
          "[gpu][async][reduce]") {
  jet_test::scoped_env off("JET_CACHE", "off");
  const std::uint32_t seed = std::random_device{}();
  INFO("seed " << seed);
  const jet_test::unseen_chain chain(seed, 6);
  const std::vector<double> h = host_linspace(-1, 1, 1 << 22);
  const jet::array x = jet::asarray(h);
  // Queued behind its compile, then launched at once from memory: planned alike, so the
  // partial sums add up in the same order.
  const jet::array queued = jet::sum(chain(x));
  const double got = queued.item<double>();
  const jet::array at_once = jet::sum(chain(x));
  CHECK(at_once.item<double>() == got);
  double want = 0;
  for (double v : h) want += chain.host(v);
  CHECK(std::abs(got - want) <= 1e-9 * static_cast<double>(h.size()));
}

TEST_CASE("a compile error is raised by the next wait at the latest, and work goes on",
          "[gpu][async]") {
  const std::uint32_t seed = std::random_device{}();
  const std::string name = "async_broken_" + std::to_string(seed);
  const jet::elementwise_kernel broken("T x", "T z", "z = no_such_function(x)", name);
  const jet::array x = jet::arange(10.0);
  const auto call_and_wait = [&] {
    const jet::array z = broken(x);
    jet::synchronize();
  };
  CHECK_THROWS_AS(call_and_wait(), jet::compile_error);
  CHECK_THROWS_WITH(call_and_wait(), jet_test::contains(name));
  // A launch waiting behind another kernel of the stream: raised at the wait as well.
  const jet_test::unseen_chain chain(seed, 6);
  const auto queued_then_wait = [&] {
    const jet::array y = chain(x);
    const jet::array z = broken(y);
    (void)y.to_vector<double>();
  };
  CHECK_THROWS_AS(queued_then_wait(), jet::compile_error);
  CHECK(jet::array(x + 1).to_vector<double>()[9] == 10.0);
}

TEST_CASE("16 threads evaluating new expressions at once, each on its stream", "[gpu][async]") {
  jet_test::scoped_env off("JET_CACHE", "off");
  const std::uint32_t seed = std::random_device{}();
  INFO("seed " << seed);
  const std::vector<double> h = host_linspace(-3, 3, 1000);
  const jet::array x = jet::asarray(h);
  jet::synchronize();
  constexpr int threads = 16;
  std::vector<std::vector<double>> got(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      jet::stream own;
      jet::stream_guard on(own);
      jet::array y = x;
      for (int k = 0; k < 3; ++k) y = jet::array(jet_test::unseen_chain(seed + 3 * t + k, 5)(y));
      got[t] = jet::array(jet::sum(y, 0, true) + y).to_vector<double>();
    });
  }
  for (std::thread& t : pool) t.join();
  for (int t = 0; t < threads; ++t) {
    std::vector<double> want = h;
    for (int k = 0; k < 3; ++k)
      for (double& v : want) v = jet_test::unseen_chain(seed + 3 * t + k, 5).host(v);
    double total = 0;
    for (double v : want) total += v;
    for (double& v : want) v += total;
    INFO("thread " << t);
    REQUIRE(got[t].size() == want.size());
    for (std::size_t i = 0; i < want.size(); ++i)
      REQUIRE(std::abs(got[t][i] - want[i]) <= 1e-9 * (1 + std::abs(want[i])));
  }
}

// Hidden: run alone by ctest (gpu.exit_while_compiling, JET_CACHE=off), as what it checks is
// the process's exit, with kernels still compiling and launches queued behind them.
TEST_CASE("the process exits cleanly while kernels still compile", "[.][gpu][async]") {
  const std::uint32_t seed = std::random_device{}();
  INFO("seed " << seed);
  jet::array y = jet::asarray(host_linspace(-1, 1, 4096));
  for (int k = 0; k < 6; ++k) y = jet::array(jet_test::unseen_chain(seed + k, 6)(y) + y);
  if (jet::detail::async_evaluation()) CHECK(queued_here());
}
