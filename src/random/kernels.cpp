// Entry points of the random kernels, compiled on first use through the kernel caches.
#include "src/random/kernels.hpp"

#include <string>

#include "codegen/plan/kernel_plan.hpp"
#include "codegen/render/render.hpp"
#include "jet/error.hpp"
#include "src/pipeline/run_plan.hpp"
#include "src/random/device_params.hpp"

namespace jet::random::detail {
namespace {

// Before the shared code: how its functions are declared on the device. After it: the
// grid-stride loop of every entry point (the launch caps the grid at a few blocks per SM).
constexpr const char* device_prefix =
    "#define JET_RNG_FN __device__ __forceinline__\n"
    "#define JET_RNG_OUTLINED __device__ __noinline__\n";
constexpr const char* loop_macro =
    "\n#define JET_RNG_EACH(i, n) \\\n"
    "  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \\\n"
    "       i += (long long)gridDim.x * blockDim.x)\n";

std::string entry(const std::string& name, const std::string& params, const std::string& body) {
  return codegen::kernel_entry(name, params) + body + "}\n";
}

// A kernel whose element i writes `value` (an expression of the stream `s` and `p`) to out[i].
std::string sampler(const std::string& name, const std::string& params, const std::string& value) {
  return entry(name, params,
               "  JET_RNG_EACH(i, p.n) {\n"
               "    jet_rng_stream s = jet_rng_start(p.key, (unsigned long long)i);\n"
               "    p.out[i] = " +
                   value +
                   ";\n"
                   "  }\n");
}

// Rows moved in units of the C type `unit`.
std::string gather(const std::string& name, const std::string& unit) {
  return "struct alignas(16) jet_rng_unit16 { unsigned long long low, high; };\n" +
         entry(name, "jet_rng_gather_params",
               "  JET_RNG_EACH(e, p.units) {\n"
               "    const long long row = e / p.row_units, column = e - row * p.row_units;\n"
               "    const long long from = p.rows[row] * p.row_units + column;\n"
               "    ((" +
                   unit + "*)p.out)[e] = ((const " + unit +
                   "*)p.in)[from];\n"
                   "  }\n");
}

// The first element of each run of equal keys writes the run, shuffled (Fisher and Yates) from
// its own stream: ties among the random keys are broken at random, so that every ordering is
// equally likely. Runs are short (two equal keys among 2^20 are about 2^-12 likely per key).
std::string untie() {
  return entry("jet_random_untie", "jet_rng_untie_params",
               "  JET_RNG_EACH(i, p.n) {\n"
               "    const unsigned int k = p.keys[i];\n"
               "    if (i > 0 && p.keys[i - 1] == k) continue;\n"
               "    long long end = i + 1;\n"
               "    while (end < p.n && p.keys[end] == k) ++end;\n"
               "    for (long long j = i; j < end; ++j)\n"
               "      p.out[j] = p.wide ? ((const long long*)p.positions)[j]\n"
               "                        : (long long)((const int*)p.positions)[j];\n"
               "    if (end - i == 1) continue;\n"
               "    jet_rng_stream s = jet_rng_start(p.key, (unsigned long long)i);\n"
               "    for (long long j = end - 1; j > i; --j) {\n"
               "      const long long r = i + (long long)jet_rng_below(s, (unsigned long long)(j - "
               "i + 1));\n"
               "      const long long t = p.out[j]; p.out[j] = p.out[r]; p.out[r] = t;\n"
               "    }\n"
               "  }\n");
}

std::string body_of(const std::string& name) {
  if (name == "jet_random_gamma")
    return sampler(name, "jet_rng_gamma_params", "jet_rng_gamma(s, p.shape) * p.scale");
  if (name == "jet_random_gamma_f32")
    return sampler(name, "jet_rng_gamma_f32_params",
                   "jet_rng_gamma_f(s, (float)p.shape) * (float)p.scale");
  if (name == "jet_random_beta")
    return sampler(name, "jet_rng_beta_params", "jet_rng_beta(s, p.a, p.b)");
  if (name == "jet_random_poisson")
    return sampler(name, "jet_rng_poisson_params", "jet_rng_poisson(s, p.lam)");
  if (name == "jet_random_binomial")
    return sampler(name, "jet_rng_binomial_params", "jet_rng_binomial(s, p.trials, p.p)");
  if (name == "jet_random_below")
    return sampler(name, "jet_rng_below_params", "p.low + jet_rng_below(s, p.range)");
  if (name == "jet_random_search")
    return entry(name, "jet_rng_search_params",
                 "  JET_RNG_EACH(i, p.n) {\n"
                 "    const double u = p.u[i];\n"
                 "    long long low = 0, high = p.categories - 1;\n"
                 "    while (low < high) {\n"
                 "      const long long middle = low + (high - low) / 2;\n"
                 "      if (p.cdf[middle] > u) high = middle; else low = middle + 1;\n"
                 "    }\n"
                 "    p.out[i] = low;\n"
                 "  }\n");
  if (name == "jet_random_untie") return untie();
  const char* const units[][2] = {{"jet_random_gather_1", "unsigned char"},
                                  {"jet_random_gather_2", "unsigned short"},
                                  {"jet_random_gather_4", "unsigned int"},
                                  {"jet_random_gather_8", "unsigned long long"},
                                  {"jet_random_gather_16", "jet_rng_unit16"}};
  for (const auto& [kernel, unit] : units)
    if (name == kernel) return gather(name, unit);
  throw internal_error("no random kernel is named " + name);
}

}  // namespace

std::vector<std::string> kernel_names() {
  return {"jet_random_gamma",    "jet_random_gamma_f32", "jet_random_beta",
          "jet_random_untie",    "jet_random_poisson",   "jet_random_binomial",
          "jet_random_below",    "jet_random_search",    "jet_random_gather_1",
          "jet_random_gather_2", "jet_random_gather_4",  "jet_random_gather_8",
          "jet_random_gather_16"};
}

codegen::kernel_source kernel_source(const std::string& name) {
  return {name, device_prefix + std::string(device_code) + loop_macro + body_of(name)};
}

namespace {

// Runs the random kernel `name` over `work` items with `params` as its parameter block. Its
// source is made only when no cache holds it.
template <class Params>
void run(const std::string& name, std::int64_t work, const Params& params) {
  const codegen::fixed_kernel kernel{"jet.random/" + name, name, &kernel_source};
  codegen::kernel_plan plan;
  plan.body = &kernel;
  plan.extras = &codegen::fixed_kernel_extras();
  plan.params.add(codegen::param_role::block, 0, sizeof params, alignof(Params), &params);
  plan.launch.work_items = work;
  ::jet::detail::run_plan(plan);
}

void expect(bool condition, const char* what) {
  if (!condition) throw internal_error(std::string("random kernels: ") + what);
}

// Fills `out` (dtype t) with kernel `name`: `params` holds the distribution's parameters, and
// gets the output, the key and the count here.
template <class Params>
void sample(const char* name, const array& out, dtype t, const array& key, Params params) {
  expect(out.dtype() == t && out.is_c_contiguous(), "a sampler's output has the wrong layout");
  expect(key.dtype() == uint32 && key.size() >= 4, "a sampler's key is not four uint32 words");
  if (out.size() == 0) return;
  params.out = static_cast<decltype(params.out)>(out.data());
  params.key = static_cast<const unsigned int*>(key.data());
  params.n = out.size();
  run(name, out.size(), params);
}

}  // namespace

void launch_gamma(const array& out_f64, const array& key, double shape, double scale) {
  sample("jet_random_gamma", out_f64, float64, key,
         jet_rng_gamma_params{nullptr, nullptr, 0, shape, scale});
}

void launch_gamma_f32(const array& out_f32, const array& key, double shape, double scale) {
  sample("jet_random_gamma_f32", out_f32, float32, key,
         jet_rng_gamma_f32_params{nullptr, nullptr, 0, shape, scale});
}

void launch_beta(const array& out_f64, const array& key, double a, double b) {
  sample("jet_random_beta", out_f64, float64, key, jet_rng_beta_params{nullptr, nullptr, 0, a, b});
}

void launch_poisson(const array& out_i64, const array& key, double lam) {
  sample("jet_random_poisson", out_i64, int64, key,
         jet_rng_poisson_params{nullptr, nullptr, 0, lam});
}

void launch_binomial(const array& out_i64, const array& key, std::int64_t trials, double p) {
  sample("jet_random_binomial", out_i64, int64, key,
         jet_rng_binomial_params{nullptr, nullptr, 0, trials, p});
}

void launch_below(const array& out_u64, const array& key, std::uint64_t low, std::uint64_t range) {
  sample("jet_random_below", out_u64, uint64, key,
         jet_rng_below_params{nullptr, nullptr, 0, low, range});
}

void search_sorted(const array& out_i64, const array& u_f64, const array& cdf_f64) {
  expect(out_i64.dtype() == int64 && u_f64.dtype() == float64 && cdf_f64.dtype() == float64 &&
             out_i64.size() == u_f64.size() && out_i64.is_c_contiguous() &&
             u_f64.is_c_contiguous() && cdf_f64.is_c_contiguous() && cdf_f64.size() > 0,
         "search_sorted takes contiguous int64 out, float64 u of its size and a float64 cdf");
  if (out_i64.size() == 0) return;
  run("jet_random_search", out_i64.size(),
      jet_rng_search_params{
          static_cast<long long*>(out_i64.data()), static_cast<const double*>(u_f64.data()),
          static_cast<const double*>(cdf_f64.data()), out_i64.size(), cdf_f64.size()});
}

void untie(const array& out_i64, const array& key, const array& keys_u32, const array& positions) {
  expect(keys_u32.dtype() == uint32 && keys_u32.is_c_contiguous() &&
             (positions.dtype() == int32 || positions.dtype() == int64) &&
             positions.is_c_contiguous() && positions.size() == keys_u32.size() &&
             out_i64.size() == keys_u32.size(),
         "untie takes contiguous uint32 keys and int32 or int64 positions of out's size");
  sample(
      "jet_random_untie", out_i64, int64, key,
      jet_rng_untie_params{nullptr, nullptr, 0, static_cast<const unsigned int*>(keys_u32.data()),
                           positions.data(), positions.dtype() == int64 ? 1 : 0});
}

void gather_rows(const array& out, const array& in, const array& rows) {
  expect(out.dtype() == in.dtype() && rows.dtype() == int64 && out.is_c_contiguous() &&
             in.is_c_contiguous() && rows.is_c_contiguous() && out.ndim() >= 1 &&
             in.ndim() == out.ndim() && rows.size() == out.shape()[0],
         "gather_rows takes contiguous arrays of one dtype and int64 row numbers");
  if (out.size() == 0) return;
  const std::int64_t row_bytes = out.nbytes() / out.shape()[0];
  expect(in.shape()[0] > 0 && in.nbytes() / in.shape()[0] == row_bytes,
         "gather_rows between rows of different sizes");
  // The widest unit that divides a row and both addresses: rows of three float32 move as
  // 4-byte units, rows of two complex128 as 16-byte units, rows of three int8 as bytes.
  int unit = 16;
  const auto fits = [&](int u) {
    return row_bytes % u == 0 && reinterpret_cast<std::uintptr_t>(out.data()) % u == 0 &&
           reinterpret_cast<std::uintptr_t>(in.data()) % u == 0;
  };
  while (!fits(unit)) unit /= 2;
  const std::int64_t units = out.nbytes() / unit;
  run("jet_random_gather_" + std::to_string(unit), units,
      jet_rng_gather_params{out.data(), in.data(), static_cast<const long long*>(rows.data()),
                            units, row_bytes / unit});
}

}  // namespace jet::random::detail
