// User kernels on the device against host references: raw kernels and modules (templates by
// name, globals, a cubin file), elementwise kernels (broadcasting, strided views, scalars, raw
// and placeholder parameters, allocated outputs), reductions over axes, cuRAND's device API.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "jet/jet.hpp"
#include "src/nvrtc/compile.hpp"
#include "support/catch.hpp"

namespace {

// NVRTC contracts `a * x + y` into one fused multiply-add by default, so the device may differ
// from the host's twice-rounded expression in the last bits: compare within a few units of
// rounding of `scale`, the magnitude of the terms.
template <class T>
bool near(T got, T want, T scale) {
  return std::abs(got - want) <= 4 * std::numeric_limits<T>::epsilon() * scale;
}

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> dist(-2.0, 2.0);
  std::vector<double> v(n);
  for (double& x : v) x = dist(rng);
  return v;
}

const char* const saxpy_source = R"(
extern "C" __global__ void saxpy(float a, const float* x, float* y, long long n) {
  long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

}  // namespace

TEST_CASE("raw_kernel launches with arrays and exact scalars", "[gpu][user_kernels]") {
  const std::int64_t n = 100003;
  std::vector<float> hx(n), hy(n);
  const std::vector<double> r = random_values(2 * n, 1);
  for (std::int64_t i = 0; i < n; ++i) {
    hx[i] = static_cast<float>(r[i]);
    hy[i] = static_cast<float>(r[n + i]);
  }
  const jet::array x = jet::asarray(hx), y = jet::asarray(hy);
  const jet::raw_kernel saxpy(saxpy_source, "saxpy");
  saxpy(static_cast<unsigned>((n + 255) / 256), 256, 2.5f, x, y, n);
  const std::vector<float> got = y.to_vector<float>();
  for (std::int64_t i = 0; i < n; ++i)
    REQUIRE(near(got[i], 2.5f * hx[i] + hy[i], 2.5f * std::abs(hx[i]) + std::abs(hy[i])));

  // On an explicit stream with launch_config.
  jet::stream s;
  saxpy.launch({static_cast<unsigned>((n + 255) / 256), 256, 0, s.handle()}, -2.5f, x, y, n);
  s.synchronize();
  const std::vector<float> back = y.to_vector<float>();
  for (std::int64_t i = 0; i < n; ++i)
    REQUIRE(near(back[i], hy[i], 5 * std::abs(hx[i]) + std::abs(hy[i])));

  // A double where the kernel takes a float, and a missing argument, are refused by name.
  CHECK_THROWS_WITH(saxpy(1, 1, 2.5, x, y, n),
                    jet_test::contains("argument 0 of kernel saxpy is 8 bytes"));
  CHECK_THROWS_WITH(saxpy(1, 1, 2.5f, x, y),
                    jet_test::contains("kernel saxpy takes 4 arguments; 3 were given"));
}

TEST_CASE("raw_kernel attributes are readable and settable", "[gpu][user_kernels]") {
  const jet::raw_kernel k(R"(
extern "C" __global__ void tile(float* out) {
  extern __shared__ float dynamic[];
  __shared__ float fixed[64];
  if (threadIdx.x < 64) fixed[threadIdx.x] = threadIdx.x;
  __syncthreads();
  dynamic[threadIdx.x] = fixed[threadIdx.x % 64] + threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = dynamic[blockDim.x - 1 - threadIdx.x];
}
)",
                          "tile");
  const jet::kernel_attributes a = k.attributes();
  CHECK(a.max_threads_per_block >= 256);
  CHECK(a.num_regs > 0);
  CHECK(a.shared_size_bytes == 64 * sizeof(float));
  CHECK(a.binary_version > 0);
  k.set_max_dynamic_shared_memory(64 * 1024);
  CHECK(k.attributes().max_dynamic_shared_size_bytes == 64 * 1024);
  k.set_preferred_shared_memory_carveout(50);
  const jet::array out = jet::empty({256}, jet::float32);
  k.launch({1, 256, 256 * sizeof(float)}, out);
  const std::vector<float> got = out.to_vector<float>();
  for (int t = 0; t < 256; ++t) REQUIRE(got[t] == static_cast<float>((255 - t) % 64 + 255 - t));
}

namespace {

const char* const module_source = R"(
template <class T> __global__ void scale(T* x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a * OFFSET;
}
__device__ int hits[4];
namespace ns { __constant__ double table[3] = {1.5, 2.5, 3.5}; }
extern "C" __global__ void count(int n) { atomicAdd(&hits[threadIdx.x % 4], n + (int)ns::table[threadIdx.x % 3]); }
)";

}  // namespace

TEST_CASE("raw_module finds template instantiations by name and reads globals",
          "[gpu][user_kernels]") {
  const jet::raw_module m(module_source, {"-DOFFSET=2"},
                          {"scale<float>", "scale<double>", "&ns::table", "hits"});
  const jet::array f = jet::asarray(std::vector<float>{1, 2, 3});
  const jet::array d = jet::asarray(std::vector<double>{1, 2, 3, 4});
  m.get_function("scale<float>")(1, 32, f, 1.5f, 3);
  m.get_function("scale<double>")(1, 32, d, -0.5, 4);
  CHECK(f.to_vector<float>() == std::vector<float>{3, 6, 9});
  CHECK(d.to_vector<double>() == std::vector<double>{-1, -2, -3, -4});

  const jet::device_global table = m.get_global("ns::table");
  CHECK(table.bytes == 3 * sizeof(double));
  CHECK(table.to_vector<double>() == std::vector<double>{1.5, 2.5, 3.5});
  const jet::device_global hits = m.get_global("hits");
  REQUIRE(hits.bytes == 4 * sizeof(int));
  hits.assign(std::span<const int>(std::vector<int>{0, 0, 0, 0}));
  m.get_function("count")(1, 12, 10);
  // Threads t = 0..11 add 10 + floor(table[t % 3]) to hits[t % 4].
  std::vector<int> want(4, 0);
  for (int t = 0; t < 12; ++t)
    want[t % 4] += 10 + static_cast<int>(std::vector<double>{1.5, 2.5, 3.5}[t % 3]);
  CHECK(hits.to_vector<int>() == want);
  CHECK_THROWS_AS(m.get_global("missing"), jet::value_error);
  CHECK_THROWS_AS(m.get_function("scale<int>"), jet::value_error);
  CHECK_THROWS_AS(jet::raw_module("__global__ void f() { undeclared(); }"), jet::compile_error);
}

TEST_CASE("raw_module loads a cubin file", "[gpu][user_kernels]") {
  const jet::detail::compiled_kernel k =
      jet::detail::compile({"saxpy", saxpy_source}, jet::device::arch());
  const std::string path = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") +
                           "/jet_test_saxpy." + (k.arch.rfind("sm_", 0) == 0 ? "cubin" : "ptx");
  std::ofstream(path, std::ios::binary)
      .write(k.image.data(), static_cast<std::streamsize>(k.image.size()));
  const jet::raw_module m = jet::raw_module::from_file(path);
  std::remove(path.c_str());
  const jet::array x = jet::asarray(std::vector<float>{1, 2, 3}),
                   y = jet::asarray(std::vector<float>{10, 20, 30});
  m.get_function("saxpy")(1, 64, 2.0f, x, y, std::int64_t{3});
  CHECK(y.to_vector<float>() == std::vector<float>{12, 24, 36});
  CHECK_THROWS_AS(jet::raw_module::from_file(path), jet::cuda_error);
}

TEST_CASE("elementwise_kernel broadcasts, takes views, scalars and placeholders",
          "[gpu][user_kernels]") {
  const jet::elementwise_kernel k("T x, T y, float64 s", "T z", "z = x * y + s + i * 0",
                                  "fma_like");
  const std::vector<double> hx = random_values(3 * 4, 2), hy = random_values(4, 3);
  const jet::array x = jet::asarray(hx, jet::shape{3, 4}), y = jet::asarray(hy);
  const jet::array z = k(x, y, 0.25);
  REQUIRE(z.shape() == jet::shape{3, 4});
  REQUIRE(z.dtype() == jet::float64);
  std::vector<double> got = z.to_vector<double>();
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 4; ++c)
      REQUIRE(near(got[r * 4 + c], hx[r * 4 + c] * hy[c] + 0.25,
                   std::abs(hx[r * 4 + c] * hy[c]) + 0.25));

  // A transposed (strided) operand, a column broadcast, and an output passed in.
  const jet::array xt = x.T();  // (4, 3), strided
  const jet::array col = jet::asarray(std::vector<double>{1, 2, 3, 4}, jet::shape{4, 1});
  const jet::array out = jet::full({4, 3}, jet::expr(-7.0));
  const jet::array same = k(xt, col, 1, out);
  CHECK(same.shares_buffer_with(out));
  got = out.to_vector<double>();
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 3; ++c)
      REQUIRE(
          near(got[r * 3 + c], hx[c * 4 + r] * (r + 1) + 1, std::abs(hx[c * 4 + r] * (r + 1)) + 1));

  // Placeholders that disagree, a wrong output shape, a wrong argument count.
  const jet::array xi = jet::asarray(std::vector<std::int32_t>{1, 2, 3, 4});
  CHECK_THROWS_AS(k(x, xi, 1.0), jet::dtype_error);
  CHECK_THROWS_AS(k(x, y, 1.0, jet::empty({4}, jet::float64)), jet::shape_error);
  CHECK_THROWS_WITH(k(x, y), jet_test::contains("kernel fma_like takes 3 inputs"));
}

TEST_CASE("elementwise_kernel: raw parameters, the index, several outputs, integers",
          "[gpu][user_kernels]") {
  const jet::elementwise_kernel k(
      "raw T src, int32 shift", "T rotated, int64 index",
      "rotated = src[(i + shift) % src.size()]; index = i * _ind.size()", "rotate");
  std::vector<std::int16_t> h(1000);
  for (int i = 0; i < 1000; ++i) h[i] = static_cast<std::int16_t>(i * 7 - 3000);
  const jet::array src = jet::asarray(h);
  const jet::array shape_giver = jet::empty({1000}, jet::int16);
  const jet::kernel_outputs outs = k(src, 3, shape_giver, jet::empty({1000}, jet::int64));
  REQUIRE(outs.size() == 2);
  const std::vector<std::int16_t> rotated = outs[0].to_vector<std::int16_t>();
  const std::vector<std::int64_t> index = outs[1].to_vector<std::int64_t>();
  for (int i = 0; i < 1000; ++i) {
    REQUIRE(rotated[i] == h[(i + 3) % 1000]);
    REQUIRE(index[i] == std::int64_t{i} * 1000);
  }
  CHECK_THROWS_AS(jet::array(outs), jet::value_error);
}

TEST_CASE("elementwise_kernel with cuRAND's device API", "[gpu][user_kernels]") {
  const jet::elementwise_kernel k(
      "uint64 seed", "float64 z",
      "curandStatePhilox4_32_10_t s; curand_init(seed, i, 0, &s); z = curand_normal_double(&s)",
      "normals", "#include <curand_kernel.h>");
  const jet::array z = k(std::uint64_t{42}, jet::empty({1 << 20}, jet::float64));
  const std::vector<double> h = z.to_vector<double>();
  double sum = 0, squares = 0;
  for (double v : h) {
    sum += v;
    squares += v * v;
  }
  const double n = static_cast<double>(h.size()), mean = sum / n, var = squares / n - mean * mean;
  CHECK(std::abs(mean) < 5 / std::sqrt(n));
  CHECK(std::abs(var - 1) < 0.01);
  CHECK(h[0] != h[1]);
  const std::vector<double> again =
      k(std::uint64_t{42}, jet::empty({1 << 20}, jet::float64))[0].to_vector<double>();
  CHECK(again == h);
}

namespace {

// Sums of squares of a (2, 3, 5) array over `axes`, computed on the host.
std::vector<double> host_sum_squares(const std::vector<double>& h,
                                     const std::vector<int>& reduced) {
  const int extents[3] = {2, 3, 5};
  std::vector<double> out;
  std::vector<int> kept_size;
  std::vector<double> acc;
  auto is_reduced = [&](int d) {
    return std::find(reduced.begin(), reduced.end(), d) != reduced.end();
  };
  int count = 1;
  for (int d = 0; d < 3; ++d)
    if (!is_reduced(d)) count *= extents[d];
  acc.assign(static_cast<std::size_t>(count), 0.0);
  for (int a = 0; a < 2; ++a)
    for (int b = 0; b < 3; ++b)
      for (int c = 0; c < 5; ++c) {
        const int index[3] = {a, b, c};
        int flat = 0;
        for (int d = 0; d < 3; ++d)
          if (!is_reduced(d)) flat = flat * extents[d] + index[d];
        const double v = h[(a * 3 + b) * 5 + c];
        acc[static_cast<std::size_t>(flat)] += v * v;
      }
  for (double& v : acc) v = std::sqrt(v);
  return acc;
}

}  // namespace

TEST_CASE("reduction_kernel over axes, with keepdims", "[gpu][user_kernels]") {
  const jet::reduction_kernel l2("T x", "T y", "x * x", "a + b", "y = sqrt(a)", "0", "l2norm");
  const std::vector<double> h = random_values(30, 4);
  const jet::array x = jet::asarray(h, jet::shape{2, 3, 5});
  const auto close = [](const std::vector<double>& got, const std::vector<double>& want) {
    REQUIRE(got.size() == want.size());
    for (std::size_t k = 0; k < got.size(); ++k)
      REQUIRE(std::abs(got[k] - want[k]) <= 1e-12 * (1 + want[k]));
  };
  const jet::array all = l2(x);
  CHECK(all.ndim() == 0);
  close(all.to_vector<double>(), host_sum_squares(h, {0, 1, 2}));
  close(l2.call({x}, 0)[0].to_vector<double>(), host_sum_squares(h, {0}));
  close(l2.call({x}, 1)[0].to_vector<double>(), host_sum_squares(h, {1}));
  const jet::array two = l2.call({x}, {0, 2}, true);
  CHECK(two.shape() == jet::shape{1, 3, 1});
  close(two.to_vector<double>(), host_sum_squares(h, {0, 2}));
  close(l2.call({x.transpose({1, 0, 2})}, 0)[0].to_vector<double>(), host_sum_squares(h, {1}));
  CHECK_THROWS_AS(l2.call({x}, 3), jet::index_error);
  CHECK_THROWS_AS(l2.call({x}, {1, 1}), jet::value_error);
}

TEST_CASE("reduction_kernel on large inputs: chunks, rows and columns", "[gpu][user_kernels]") {
  const jet::reduction_kernel total("T x, T w", "float64 y", "(double)x * w", "a + b", "y = a", "0",
                                    "weighted_sum");
  const jet::reduction_kernel biggest("T x", "T y", "x", "max(a, b)", "y = a", "-1e300", "maximum");
  const std::int64_t rows = 1000, cols = 2048;
  std::vector<float> h(static_cast<std::size_t>(rows * cols));
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (float& v : h) v = dist(rng);
  const jet::array x = jet::asarray(h, jet::shape{rows, cols});
  // Everything at once: few outputs, so the reduced axes are cut into chunks.
  double want = 0;
  for (float v : h) want += 0.5 * v;
  CHECK(std::abs(total(x, 0.5f)[0].item<double>() - want) < 1e-9 * static_cast<double>(h.size()));
  // Along rows (a contiguous reduced axis) and along columns (outer in memory).
  const std::vector<double> by_row = total.call({x, 0.5f}, 1)[0].to_vector<double>();
  const std::vector<double> by_col = total.call({x, 0.5f}, 0)[0].to_vector<double>();
  const std::vector<float> col_max = biggest.call({x}, 0)[0].to_vector<float>();
  // A view whose kept axis runs backwards (stride -1) takes the columns layout too.
  const jet::array reversed = x(jet::slice(), jet::slice(jet::none, jet::none, -1));
  const std::vector<float> reversed_max = biggest.call({reversed}, 0)[0].to_vector<float>();
  for (std::int64_t r = 0; r < rows; ++r) {
    double s = 0;
    for (std::int64_t c = 0; c < cols; ++c) s += 0.5 * h[r * cols + c];
    REQUIRE(std::abs(by_row[r] - s) < 1e-9 * cols);
  }
  for (std::int64_t c = 0; c < cols; ++c) {
    double s = 0;
    float m = -2;
    for (std::int64_t r = 0; r < rows; ++r) {
      s += 0.5 * h[r * cols + c];
      m = std::max(m, h[r * cols + c]);
    }
    REQUIRE(std::abs(by_col[c] - s) < 1e-9 * rows);
    REQUIRE(col_max[c] == m);
    REQUIRE(reversed_max[cols - 1 - c] == m);
  }
  // An empty reduction gives the identity.
  CHECK(total(jet::empty({0}, jet::float32), 1.0f)[0].item<double>() == 0);
}
