// Host transfers and files, beside the copy bandwidth (issue 27): 256 MiB through asarray and
// to_vector from ordinary (pageable) and pinned memory against cudaMemcpy of the same pinned
// memory; printing a 10^8-element array; jet::load of a 1 GiB .npy file against dd reading
// the same file. Host-blocking operations are timed by the host clock (median of 10).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "bench/timing.hpp"
#include "jet/io.hpp"
#include "jet/jet.hpp"

namespace {

template <class F>
double host_median_ms(F&& f, int runs = 10, int warmup = 2) {
  for (int i = 0; i < warmup; ++i) f();
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    times.push_back(
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::nth_element(times.begin(), times.begin() + runs / 2, times.end());
  return times[runs / 2];
}

double gbps(std::size_t bytes, double ms) { return static_cast<double>(bytes) / (ms * 1e6); }

void transfers() {
  const std::size_t n = std::size_t{64} << 20, bytes = n * sizeof(float);
  std::vector<float> pageable(n, 1.5f);
  const double up = host_median_ms([&] { jet::asarray(pageable); });
  bench::result("asarray, 256 MiB pageable (GB/s)", gbps(bytes, up), "GB/s", ">= 20");
  const jet::array d = jet::asarray(pageable);
  const double fresh = host_median_ms([&] { (void)d.to_vector<float>(); });
  bench::result("to_vector, 256 MiB pageable (GB/s)", gbps(bytes, fresh), "GB/s", ">= 20");
  const double into = host_median_ms([&] { d.to_host(std::span<float>(pageable)); });
  bench::result("to_host into a vector, 256 MiB (GB/s)", gbps(bytes, into), "GB/s", "reference");

  std::vector<float, jet::pinned_allocator<float>> pinned(n, 1.5f);
  const double pinned_up = host_median_ms([&] { jet::asarray(pinned), jet::synchronize(); });
  const double pinned_down = host_median_ms([&] { d.to_host(std::span<float>(pinned.data(), n)); });
  const double direct_up = host_median_ms([&] {
    bench::check(cudaMemcpy(d.data(), pinned.data(), bytes, cudaMemcpyHostToDevice), "cudaMemcpy");
  });
  const double direct_down = host_median_ms([&] {
    bench::check(cudaMemcpy(pinned.data(), d.data(), bytes, cudaMemcpyDeviceToHost), "cudaMemcpy");
  });
  bench::result("asarray, 256 MiB pinned (GB/s)", gbps(bytes, pinned_up), "GB/s", "reference");
  bench::result("cudaMemcpy H2D, 256 MiB pinned (GB/s)", gbps(bytes, direct_up), "GB/s",
                "reference");
  bench::result("asarray pinned / cudaMemcpy", direct_up / pinned_up, "x", ">= 0.95");
  bench::result("to_host, 256 MiB pinned (GB/s)", gbps(bytes, pinned_down), "GB/s", "reference");
  bench::result("cudaMemcpy D2H, 256 MiB pinned (GB/s)", gbps(bytes, direct_down), "GB/s",
                "reference");
  bench::result("to_host pinned / cudaMemcpy", direct_down / pinned_down, "x", ">= 0.95");
}

void printing() {
  const jet::array x = bench::random_floats({100'000'000}, 0.5f);
  const double ms = host_median_ms([&] { (void)jet::array_repr(x); });
  bench::result("array_repr of 10^8 float32 (ms)", ms, "ms", "<= 5");
  const jet::array m = bench::random_floats({10'000, 10'000}, 0.5f);
  bench::result("array_str of 10^4 x 10^4 float32 (ms)",
                host_median_ms([&] { (void)jet::array_str(m); }), "ms", "<= 5");
}

void loading() {
  const std::string path = (std::filesystem::temp_directory_path() / "jet-bench-load.npy").string();
  const std::size_t bytes = std::size_t{1} << 30;
  jet::save(path, jet::ones({static_cast<std::int64_t>(bytes / 4)}, jet::float32));
  const std::string dd = "dd if=" + path + " of=/dev/null bs=16M status=none";
  const double dd_ms = host_median_ms(
      [&] {
        if (std::system(dd.c_str()) != 0) std::fprintf(stderr, "bench_transfer: dd failed\n");
      },
      5, 1);
  const double load_ms = host_median_ms([&] { jet::load(path), jet::synchronize(); }, 5, 1);
  std::filesystem::remove(path);
  bench::result("dd of a 1 GiB file (GB/s)", gbps(bytes, dd_ms), "GB/s", "reference");
  bench::result("load of a 1 GiB .npy (GB/s)", gbps(bytes, load_ms), "GB/s", "reference");
  bench::result("load / dd", dd_ms / load_ms, "x", ">= 0.5");
}

}  // namespace

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;
  transfers();
  printing();
  loading();
}
