// Sorting and scan benchmarks: sort, argsort and topk(x, 100) of 2^26 float32, sort(A, 1) of 8192²
// float32 rows, cumsum of 2^26 float32 alone and with a fused product, and cumsum of 8192² rows and
// columns, beside direct calls of CUB (bench/cub_reference.cu) and the copy bandwidth in the
// same run; bench/compare.py times CuPy's.
#include <cstdio>
#include <string>

#include "bench/cub_reference.hpp"
#include "bench/timing.hpp"
#include "jet/jet.hpp"

namespace {

namespace cub = bench::cub_reference;

// Scratch for a CUB call, sized by calling it with none.
struct scratch {
  void* data = nullptr;
  std::size_t bytes = 0;
  explicit scratch(std::size_t b) : bytes(b) { bench::check(cudaMalloc(&data, b), "cudaMalloc"); }
  ~scratch() { cudaFree(data); }
};

void report(const char* what, double jet_ms, double cub_ms) {
  std::printf("%s: Jet %.4f ms, CUB %.4f ms (%.3fx)\n", what, jet_ms, cub_ms, jet_ms / cub_ms);
  bench::result((std::string(what) + " (ms)").c_str(), jet_ms, "ms", "<= CuPy");
  bench::result((std::string(what) + ", direct CUB (ms)").c_str(), cub_ms, "ms", "reference");
  bench::result((std::string(what) + ", Jet / CUB").c_str(), jet_ms / cub_ms, "x", "<= 1.05");
}

// A scan's time, and its bandwidth (`bytes` moved) as a share of the copy's.
void report_scan(const char* what, double ms, double bytes, double copy, const char* target) {
  const double share = bytes / (ms * 1e-3) / 1e9 / copy;
  std::printf("%s: Jet %.4f ms, %.1f%% of copy bandwidth\n", what, ms, 100 * share);
  bench::result((std::string(what) + " (ms)").c_str(), ms, "ms", "<= CuPy");
  bench::result((std::string(what) + ", % of copy").c_str(), 100 * share, "%", target);
}

// cumsum of 2^26 float32 beside CUB's InclusiveSum, cumsum(x * y) in one pass, and the rows
// and columns of 8192^2.
void scans(const jet::array& x, const jet::array& a, double copy) {
  const std::int64_t n = x.size();
  const jet::array y = bench::random_floats({n}, 0.7f);
  jet::array out = jet::empty({n}, jet::float32);
  const cudaStream_t s = jet::current_stream();
  const auto* in = static_cast<const float*>(x.data());
  auto* to = static_cast<float*>(out.data());
  const scratch sum_scratch(cub::inclusive_sum_floats(nullptr, 0, in, to, n, s));
  const double cub_ms = bench::median_ms(
      [&] { cub::inclusive_sum_floats(sum_scratch.data, sum_scratch.bytes, in, to, n, s); });
  const double bytes = 8.0 * static_cast<double>(n);
  report_scan("cumsum 2^26 float32", bench::median_ms([&] { const jet::array r = jet::cumsum(x); }),
              bytes, copy, ">= 90");
  report_scan("cumsum 2^26 float32, direct CUB", cub_ms, bytes, copy, "reference");
  report_scan("cumsum(x * y) 2^26 float32",
              bench::median_ms([&] { const jet::array r = jet::cumsum(x * y); }), 1.5 * bytes, copy,
              ">= 85");
  const double rows = 8.0 * static_cast<double>(a.size());
  report_scan("cumsum(A, 1) 8192^2 float32",
              bench::median_ms([&] { const jet::array r = jet::cumsum(a, 1); }), rows, copy,
              "<= CuPy");
  report_scan("cumsum(A, 0) 8192^2 float32",
              bench::median_ms([&] { const jet::array r = jet::cumsum(a, 0); }), rows, copy,
              "<= CuPy");
}

}  // namespace

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;
  const std::int64_t n = std::int64_t{1} << 26;
  const jet::array x = bench::random_floats({n}, 0.1f);
  jet::synchronize();
  const cudaStream_t s = jet::current_stream();
  const auto* in = static_cast<const float*>(x.data());

  jet::array keys = jet::empty({n}, jet::float32), iota = jet::empty({n}, jet::int64),
             order = jet::empty({n}, jet::int64);
  auto* keys_out = static_cast<float*>(keys.data());
  const scratch sort_scratch(cub::sort_floats(nullptr, 0, in, keys_out, n, s));
  const double cub_sort = bench::median_ms(
      [&] { cub::sort_floats(sort_scratch.data, sort_scratch.bytes, in, keys_out, n, s); });
  const double jet_sort = bench::median_ms([&] { const jet::array r = jet::sort(x); });
  report("sort 2^26 float32", jet_sort, cub_sort);
  const double topk = bench::median_ms([&] { const jet::topk_result r = jet::topk(x, 100); });
  std::printf("topk(x, 100) 2^26 float32: Jet %.4f ms, %.2fx a full sort\n", topk, topk / jet_sort);
  bench::result("topk(x, 100) 2^26 float32 (ms)", topk, "ms", "< sort");
  bench::result("topk(x, 100) 2^26 float32 / sort", topk / jet_sort, "x", "< 1");

  auto* iota_out = static_cast<std::int64_t*>(iota.data());
  auto* order_out = static_cast<std::int64_t*>(order.data());
  const scratch argsort_scratch(
      cub::argsort_floats(nullptr, 0, in, keys_out, iota_out, order_out, n, s));
  const double cub_argsort = bench::median_ms([&] {
    cub::argsort_floats(argsort_scratch.data, argsort_scratch.bytes, in, keys_out, iota_out,
                        order_out, n, s);
  });
  report("argsort 2^26 float32", bench::median_ms([&] { const jet::array r = jet::argsort(x); }),
         cub_argsort);

  const std::int64_t m = 8192;
  const jet::array a = bench::random_floats({m, m}, 0.3f);
  const scratch rows_scratch(
      cub::sort_float_rows(nullptr, 0, static_cast<const float*>(a.data()), keys_out, m, m, s));
  const double cub_rows = bench::median_ms([&] {
    cub::sort_float_rows(rows_scratch.data, rows_scratch.bytes, static_cast<const float*>(a.data()),
                         keys_out, m, m, s);
  });
  report("sort(A, 1) 8192^2 float32",
         bench::median_ms([&] { const jet::array r = jet::sort(a, 1); }), cub_rows);
  scans(x, a, copy);
  return 0;
}
