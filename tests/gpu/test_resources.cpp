// What Jet holds on the device and in its caches: released with the streams it was made for,
// made once however many threads ask at once, and recovered after the device runs out.
#include <cmath>
#include <cstdint>
#include <functional>
#include <latch>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "gpu/unseen.hpp"
#include "jet/jet.hpp"
#include "src/pipeline/reduction_scratch.hpp"
#include "src/random/state.hpp"
#include "support/catch.hpp"

TEST_CASE("a destroyed stream releases its reduction scratch and its default generator",
          "[gpu][streams]") {
  const std::size_t scratches = jet::detail::reduction_scratch_count();
  const std::size_t generators = jet::random::detail::default_generator_count();
  for (int i = 0; i < 20; ++i) {
    jet::stream own;
    jet::stream_guard guard(own);
    const jet::array x = jet::random::rand({std::int64_t{1} << 24});
    const double mean = jet::array(jet::mean(x)).item<double>();
    CHECK(std::abs(mean - 0.5) < 1e-3);
    CHECK(jet::detail::reduction_scratch_count() == scratches + 1);
    CHECK(jet::random::detail::default_generator_count() == generators + 1);
  }
  CHECK(jet::detail::reduction_scratch_count() == scratches);
  CHECK(jet::random::detail::default_generator_count() == generators);
  // The legacy stream's stay, and work goes on there.
  const jet::array ones = jet::ones({std::int64_t{1} << 24});
  CHECK(jet::array(jet::sum(ones)).item<double>() == double(std::int64_t{1} << 24));
}

TEST_CASE("threads missing one new kernel at once compile it once", "[gpu][cache]") {
  const std::uint32_t seed = std::random_device{}();
  INFO("seed " << seed);
  const jet::array x = jet::linspace(-3.0, 3.0, 4097, true, jet::float32);
  jet::synchronize();  // x's own kernel counted before `before`, even when it compiled async
  constexpr int threads = 16;
  std::vector<std::vector<float>> results(threads);
  const jet::cache::statistics before = jet::cache::stats();
  std::latch start(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      start.arrive_and_wait();
      results[t] = jet::array(jet_test::unseen_chain(seed)(x)).to_vector<float>();
    });
  }
  for (std::thread& t : pool) t.join();
  const jet::cache::statistics after = jet::cache::stats();
  CHECK(after.compiles + after.disk_hits - before.compiles - before.disk_hits == 1);
  CHECK(after.memory_hits - before.memory_hits == threads - 1);
  for (int t = 1; t < threads; ++t) CHECK(results[t] == results[0]);
}

// Hidden: it fills the device, so CTest runs it alone (tests/CMakeLists.txt).
TEST_CASE("running out of device memory raises out_of_memory and Jet recovers", "[.][gpu][oom]") {
  const std::int64_t chunk = std::int64_t{1} << 29;  // 4 GiB of float64
  const std::size_t chunk_bytes = std::size_t(chunk) * 8;
  std::vector<jet::array> held;
  std::string message;
  std::size_t requested = 0, in_use = 0;
  try {
    for (int i = 0; i < 1024; ++i) held.push_back(jet::zeros({chunk}, jet::float64));
  } catch (const jet::out_of_memory& e) {
    message = e.what();
    requested = e.requested();
    in_use = e.in_use();
  }
  INFO(message);
  REQUIRE(!held.empty());
  CHECK(requested == chunk_bytes);
  CHECK(in_use >= held.size() * chunk_bytes);
  CHECK(message.find("out of memory allocating 4294967296 bytes (4096 MiB) on device 0: it has") !=
        std::string::npos);
  held.clear();
  jet::synchronize();
  CHECK(jet::memory::stats().in_use < chunk_bytes);
  // Freed memory is usable again, by arrays and by kernels.
  const jet::array big = jet::ones({chunk}, jet::float64);
  CHECK(jet::array(jet::sum(big)).item<double>() == double(chunk));
}
