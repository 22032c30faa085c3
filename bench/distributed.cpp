// jet::distributed beside NCCL called directly (issue 28), over every local GPU: all_reduce of
// 256 MiB float32 as NCCL's bus bandwidth (bytes * 2 (n - 1) / n a second; with one GPU, the
// algorithm bandwidth, bytes a second), Jet's beside ncclAllReduce of the same size on the same
// devices and streams; and the data-parallel sum of one 2^28 float32 shard a GPU beside one
// GPU's sum of 2^28, as elements a second.
#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#include "bench/timing.hpp"
#include "jet/jet.hpp"

namespace {

namespace dist = jet::distributed;

void check_nccl(ncclResult_t status, const char* what) {
  if (status != ncclSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, ncclGetErrorString(status));
    std::exit(1);
  }
}

// Bytes a second of an all-reduce of `bytes` over `n` ranks, by NCCL's definition.
double bus_gbps(double bytes, int n, double ms) {
  const double factor = n > 1 ? 2.0 * (n - 1) / n : 1.0;
  return bytes * factor / (ms * 1e-3) / 1e9;
}

// ncclAllReduce of `count` float32 on every device's legacy default stream (Jet's current one).
double nccl_all_reduce_ms(int n, std::size_t count) {
  std::vector<int> devices(n);
  for (int d = 0; d < n; ++d) devices[d] = d;
  std::vector<ncclComm_t> comms(n);
  check_nccl(ncclCommInitAll(comms.data(), n, devices.data()), "ncclCommInitAll");
  std::vector<void*> send(n), receive(n);
  for (int d = 0; d < n; ++d) {
    bench::check(cudaSetDevice(d), "cudaSetDevice");
    bench::check(cudaMalloc(&send[d], count * 4), "cudaMalloc");
    bench::check(cudaMalloc(&receive[d], count * 4), "cudaMalloc");
    bench::check(cudaMemset(send[d], 0, count * 4), "cudaMemset");
  }
  bench::check(cudaSetDevice(0), "cudaSetDevice");
  const double ms = bench::median_ms([&] {
    check_nccl(ncclGroupStart(), "ncclGroupStart");
    for (int d = 0; d < n; ++d)
      check_nccl(ncclAllReduce(send[d], receive[d], count, ncclFloat32, ncclSum, comms[d], nullptr),
                 "ncclAllReduce");
    check_nccl(ncclGroupEnd(), "ncclGroupEnd");
  });
  for (int d = 0; d < n; ++d) {
    bench::check(cudaSetDevice(d), "cudaSetDevice");
    cudaFree(send[d]);
    cudaFree(receive[d]);
    ncclCommDestroy(comms[d]);
  }
  bench::check(cudaSetDevice(0), "cudaSetDevice");
  return ms;
}

void all_reduce_figures(const std::vector<dist::communicator>& comms) {
  const int n = static_cast<int>(comms.size());
  const std::int64_t count = std::int64_t{1} << 26;
  const double bytes = 4.0 * count;
  std::vector<jet::array> xs(n), sums(n);
  for (int r = 0; r < n; ++r) {
    const jet::device_guard on(comms[r].device());
    xs[r] = jet::full({count}, r + 1.0f, jet::float32);
  }
  const auto jet_all_reduce = [&] {
    dist::group([&] {
      for (int r = 0; r < n; ++r) sums[r] = dist::all_reduce(comms[r], xs[r]);
    });
  };
  const double jet_ms = bench::median_ms(jet_all_reduce);
  const float want = n * (n + 1) / 2.0f;
  for (int r = 0; r < n; ++r)
    if (sums[r](count - 1).item<float>() != want) {
      std::printf("FAILED: all_reduce gave %g on rank %d, not %g\n",
                  sums[r](count - 1).item<float>(), r, want);
      std::exit(1);
    }
  const double nccl_ms = nccl_all_reduce_ms(n, static_cast<std::size_t>(count));
  std::printf(
      "all_reduce of 256 MiB float32 over %d GPU(s): Jet %.4f ms (%.1f GB/s), "
      "ncclAllReduce %.4f ms (%.1f GB/s) %s bandwidth\n",
      n, jet_ms, bus_gbps(bytes, n, jet_ms), nccl_ms, bus_gbps(bytes, n, nccl_ms),
      n > 1 ? "bus" : "algorithm");
  bench::result("all_reduce 256 MiB: Jet (GB/s)", bus_gbps(bytes, n, jet_ms), "GB/s", "info");
  bench::result("all_reduce 256 MiB: ncclAllReduce (GB/s)", bus_gbps(bytes, n, nccl_ms), "GB/s",
                "reference");
  bench::result("all_reduce 256 MiB: Jet / NCCL bandwidth (%)", 100 * nccl_ms / jet_ms, "%",
                ">= 95");
}

void data_parallel_sum(const std::vector<dist::communicator>& comms) {
  const int n = static_cast<int>(comms.size());
  const std::int64_t count = std::int64_t{1} << 28;
  std::vector<jet::array> shards;
  for (const auto& c : comms) {
    const jet::device_guard on(c.device());
    shards.push_back(bench::random_floats({count}, static_cast<float>(c.rank())));
  }
  const dist::sharded_array x(comms, shards);
  jet::array total, one;
  const double sharded_ms = bench::median_ms([&] { total = dist::sum(x); });
  const double one_ms = bench::median_ms([&] { one = jet::sum(shards[0]); });
  double want = 0;
  for (const auto& s : shards) {
    const jet::device_guard on(s.device());
    want += jet::sum(s, {}, jet::float64).item<double>();
  }
  const double got = total.item<float>();
  std::printf(
      "sum of %d x 2^28 float32 shards: %.4f ms (%.6g, float64 host check %.6g); one "
      "GPU's sum of 2^28: %.4f ms\n",
      n, sharded_ms, got, want, one_ms);
  const double speedup = n * one_ms / sharded_ms;
  bench::result("sharded sum: elements/s over one GPU's (x)", speedup, "x",
                n > 1 ? ">= 1.8 (2 GPUs)" : "info (one GPU)");
}

}  // namespace

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;
  if (!dist::available()) {
    std::printf("%s: no distributed benchmarks\n", dist::unavailable_reason().c_str());
    return 0;
  }
  const std::vector<dist::communicator> comms = dist::communicator::local();
  std::printf("NCCL %s, %zu GPU(s)\n", dist::nccl_version().c_str(), comms.size());
  all_reduce_figures(comms);
  data_parallel_sum(comms);
  return 0;
}
