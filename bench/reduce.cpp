// Reduction engine benchmarks: N = 2^26 float32 and 8192^2 for the axis sums, each
// beside the copy bandwidth of the same run.
//
// The timed statements are `jet::array r = jet::sum(a);`: the result's allocation is part of
// what a user pays, as it is for `cupy.sum(a)`, which bench/compare.py times the same way. The
// "into an existing array" figures (info) write into an array made before, as `out=` does.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/timing.hpp"
#include "jet/jet.hpp"

namespace {

// Bytes read per second as a percentage of the copy bandwidth (which counts read + written).
double percent_of_copy(double bytes_read, double ms, double copy) {
  return 100 * bytes_read / (ms * 1e-3) / 1e9 / copy;
}

// Times `reduce` and reports it as a share of the copy bandwidth, for the issue's % targets.
template <class F>
void bandwidth_figure(const std::string& name, F&& reduce, double bytes_read, double copy,
                      const char* target) {
  const double ms = bench::median_ms(reduce);
  const double percent = percent_of_copy(bytes_read, ms, copy);
  std::printf("%s: %.4f ms, %.1f%% of copy\n", name.c_str(), ms, percent);
  bench::result((name + " (% of copy bandwidth)").c_str(), percent, "%", target);
}

// Times `reduce` and reports milliseconds, for the ms targets.
template <class F>
void time_figure(const std::string& name, F&& reduce, double bytes_read, double copy,
                 const char* target) {
  const double ms = bench::median_ms(reduce);
  std::printf("%s: %.4f ms, %.1f%% of copy\n", name.c_str(), ms,
              percent_of_copy(bytes_read, ms, copy));
  bench::result((name + " (ms)").c_str(), ms, "ms", target);
}

// One look at the results against a double-precision host reference, so that a fast but wrong
// kernel shows here before anyone reads its time.
void print_check(const jet::array& a) {
  const std::vector<float> h = a.to_vector<float>();
  double sum = 0, squares = 0;
  std::int64_t argmax = 0;
  for (std::size_t i = 0; i < h.size(); ++i) {
    sum += h[i];
    squares += double{h[i]} * h[i];
    if (h[i] > h[argmax]) argmax = static_cast<std::int64_t>(i);
  }
  const double n = static_cast<double>(h.size()), mean = sum / n;
  double var = 0;
  for (float v : h) var += (v - mean) * (v - mean);
  var /= n;
  std::printf(
      "check: sum %.6g (host %.6g), max %.7g (host %.7g), argmax %lld (host %lld),\n"
      "       var %.6g (host %.6g), norm %.6g (host %.6g)\n",
      jet::array(jet::sum(a)).item<double>(), sum, jet::array(jet::max(a)).item<double>(),
      double{h[argmax]}, static_cast<long long>(jet::array(jet::argmax(a)).item<std::int64_t>()),
      static_cast<long long>(argmax), jet::array(jet::var(a)).item<double>(), var,
      jet::array(jet::linalg::norm(a)).item<double>(), std::sqrt(squares));
}

// Reductions sharing one pass (jet::evaluate), against one sum(a) timed beside them: one call
// at a time (with the host's work before each launch), and 10 queued calls (the kernels').
void one_pass_figures(const jet::array& a) {
  const double one = bench::median_ms([&] { jet::array r = jet::sum(a); });
  auto three_of = [&] { return jet::evaluate(jet::sum(a), jet::sum(a * a), jet::max(a)); };
  const double three = bench::median_ms([&] { const auto results = three_of(); });
  const auto [s, squares, top] = three_of();
  std::printf("check together: sum %.6g (alone %.6g), max %.6g (alone %.6g)\n", s.item<double>(),
              jet::array(jet::sum(a)).item<double>(), top.item<double>(),
              jet::array(jet::max(a)).item<double>());
  bench::result("sum(a), sum(a*a), max(a) in one pass (ms)", three, "ms", "reference");
  bench::result("sum(a), sum(a*a), max(a) in one pass / sum(a)", three / one, "x", "<= 1.1");
  constexpr int queued = 10;
  const double ones = bench::median_ms([&] {
    for (int i = 0; i < queued; ++i) jet::array r = jet::sum(a);
  });
  const double threes = bench::median_ms([&] {
    for (int i = 0; i < queued; ++i) const auto results = three_of();
  });
  bench::result("sum(a), sum(a*a), max(a) in one pass / sum(a), 10 queued calls", threes / ones,
                "x", "info");
  const double mean_var =
      bench::median_ms([&] { const auto [m, v] = jet::evaluate(jet::mean(a), jet::var(a)); });
  bench::result("mean(a) and var(a) in one pass / sum(a)", mean_var / one, "x", "info");
}

// y = f(a) and sum(y) from the one pass that reads a (jet::evaluate), against y alone and the
// two kernels one after the other; `bytes` of a, as many of y.
void stored_pass_figures(const jet::array& a, double bytes, double copy) {
  const jet::expr y = a * 2.0f + 1.0f;
  const double alone = bench::median_ms([&] { jet::array r = y; });
  const double together =
      bench::median_ms([&] { const auto [r, total] = jet::evaluate(y, jet::sum(y)); });
  const double apart = bench::median_ms([&] {
    jet::array r = y;
    jet::array total = jet::sum(r);
  });
  const auto [r, total] = jet::evaluate(y, jet::sum(y));
  std::printf("check stored: sum(y) %.6g (of the stored y %.6g)\n", total.item<double>(),
              jet::array(jet::sum(r)).item<double>());
  const double percent = percent_of_copy(2 * bytes, together, copy);
  std::printf(
      "y and sum(y) in one pass: %.4f ms, %.1f%% of copy; y alone %.4f ms, "
      "y then sum(y) %.4f ms\n",
      together, percent, alone, apart);
  bench::result("y = a*2+1 and sum(y) in one pass (% of copy bandwidth)", percent, "%", "info");
  bench::result("y = a*2+1 and sum(y) in one pass / y alone", together / alone, "x", "info");
  bench::result("y = a*2+1 and sum(y): two kernels / one pass", apart / together, "x", "info");
}

}  // namespace

int main() {
  double copy = 0;
  if (!bench::start(copy)) return 0;

  const std::int64_t n = std::int64_t{1} << 26;
  const double bytes = 4.0 * n;
  const jet::array a = bench::random_floats({n}, 0.1f), b = bench::random_floats({n}, 0.2f);
  print_check(a);

  bandwidth_figure(
      "sum(a)", [&] { jet::array r = jet::sum(a); }, bytes, copy, ">= 95");
  bandwidth_figure(
      "max(a)", [&] { jet::array r = jet::max(a); }, bytes, copy, ">= 95");
  bandwidth_figure(
      "argmax(a)", [&] { jet::array r = jet::argmax(a); }, bytes, copy, ">= 95");
  // The figures above time one call at a time, so they include the host's work before the
  // launch, while the GPU waits. A program that does not wait on each result queues calls
  // back to back, and the host's work overlaps the kernel before: these show the kernels alone.
  constexpr int queued = 10;
  bandwidth_figure(
      "sum(a), 10 queued calls, each",
      [&] {
        for (int i = 0; i < queued; ++i) jet::array r = jet::sum(a);
      },
      queued * bytes, copy, "info");
  bandwidth_figure(
      "max(a), 10 queued calls, each",
      [&] {
        for (int i = 0; i < queued; ++i) jet::array r = jet::max(a);
      },
      queued * bytes, copy, "info");
  bandwidth_figure(
      "argmax(a), 10 queued calls, each",
      [&] {
        for (int i = 0; i < queued; ++i) jet::array r = jet::argmax(a);
      },
      queued * bytes, copy, "info");

  // One call into an existing 0-d array (NumPy's `total[...] = a.sum()`): the same kernel and
  // launch without the result's cudaMallocAsync and cudaFreeAsync, which take 1.6-3.7 us of
  // one call on the GPU's timeline, depending on the host (bench/NOTES.md).
  const jet::array total = jet::sum(a);
  bandwidth_figure(
      "sum(a) into an existing 0-d array", [&] { total(jet::ellipsis) = jet::sum(a); }, bytes, copy,
      "info");

  const std::int64_t m = 8192;
  const jet::array A = bench::random_floats({m, m}, 0.3f);
  bandwidth_figure(
      "sum(A,0) 8192^2", [&] { jet::array r = jet::sum(A, 0); }, bytes, copy, ">= 90");
  bandwidth_figure(
      "sum(A,1) 8192^2", [&] { jet::array r = jet::sum(A, 1); }, bytes, copy, ">= 90");
  const jet::array column_sums = jet::sum(A, 0);
  bandwidth_figure(
      "sum(A,0) 8192^2 into an existing array",
      [&] { column_sums(jet::ellipsis) = jet::sum(A, 0); }, bytes, copy, "info");

  one_pass_figures(a);
  stored_pass_figures(a, bytes, copy);
  time_figure(
      "sum(a*b)", [&] { jet::array r = jet::sum(a * b); }, 2 * bytes, copy, "<= 0.16");
  time_figure(
      "var(a)", [&] { jet::array r = jet::var(a); }, bytes, copy, "<= 0.1");
  time_figure(
      "linalg::norm(a)", [&] { jet::array r = jet::linalg::norm(a); }, bytes, copy, "<= 0.08");
  return 0;
}
