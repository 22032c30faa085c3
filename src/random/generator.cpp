// Generators: a seed, an offset and a Philox counter, or a cuRAND handle; the default generator
// of each device and stream; and the raw draws the distributions transform.
#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>

#include "jet/error.hpp"
#include "jet/ops.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/memory.hpp"
#include "src/device/stream_state.hpp"
#include "src/random/state.hpp"

namespace jet::random {
namespace detail {
namespace {

curandRngType_t rng_type(algorithm a) {
  switch (a) {
    case algorithm::philox4x32_10: return CURAND_RNG_PSEUDO_PHILOX4_32_10;
    case algorithm::xorwow: return CURAND_RNG_PSEUDO_XORWOW;
    case algorithm::mrg32k3a: return CURAND_RNG_PSEUDO_MRG32K3A;
    case algorithm::mt19937: return CURAND_RNG_PSEUDO_MT19937;
  }
  throw internal_error("unknown jet::random::algorithm");
}

// cuRAND has no error-string function; these are curand.h's descriptions.
const char* status_text(curandStatus_t status) {
  switch (status) {
    case CURAND_STATUS_SUCCESS: return "CURAND_STATUS_SUCCESS (no errors)";
    case CURAND_STATUS_VERSION_MISMATCH:
      return "CURAND_STATUS_VERSION_MISMATCH (header and library versions differ)";
    case CURAND_STATUS_NOT_INITIALIZED:
      return "CURAND_STATUS_NOT_INITIALIZED (generator not initialized)";
    case CURAND_STATUS_ALLOCATION_FAILED:
      return "CURAND_STATUS_ALLOCATION_FAILED (memory allocation failed)";
    case CURAND_STATUS_TYPE_ERROR: return "CURAND_STATUS_TYPE_ERROR (generator is the wrong type)";
    case CURAND_STATUS_OUT_OF_RANGE: return "CURAND_STATUS_OUT_OF_RANGE (argument out of range)";
    case CURAND_STATUS_LENGTH_NOT_MULTIPLE:
      return "CURAND_STATUS_LENGTH_NOT_MULTIPLE (length requested is not a multiple of dimension)";
    case CURAND_STATUS_DOUBLE_PRECISION_REQUIRED:
      return "CURAND_STATUS_DOUBLE_PRECISION_REQUIRED (the GPU lacks double precision)";
    case CURAND_STATUS_LAUNCH_FAILURE:
      return "CURAND_STATUS_LAUNCH_FAILURE (kernel launch failure)";
    case CURAND_STATUS_PREEXISTING_FAILURE:
      return "CURAND_STATUS_PREEXISTING_FAILURE (an earlier failure on entry to cuRAND)";
    case CURAND_STATUS_INITIALIZATION_FAILED:
      return "CURAND_STATUS_INITIALIZATION_FAILED (CUDA could not start)";
    case CURAND_STATUS_ARCH_MISMATCH:
      return "CURAND_STATUS_ARCH_MISMATCH (the GPU does not support the requested feature)";
    case CURAND_STATUS_INTERNAL_ERROR:
      return "CURAND_STATUS_INTERNAL_ERROR (internal library error)";
  }
  return "an unknown cuRAND status";
}

void check_offset(algorithm kind, std::uint64_t offset) {
  if (kind == algorithm::mt19937 && offset != 0)
    throw value_error(
        "jet::random::generator: cuRAND's MT19937 cannot start at an offset (got offset " +
        std::to_string(offset) + "); use another seed, or another algorithm");
}

}  // namespace

generator_state::~generator_state() {
  if (handle) curandDestroyGenerator(handle);  // a destructor cannot report a failure
}

void check_curand(curandStatus_t status, const char* call) {
  if (status != CURAND_STATUS_SUCCESS)
    throw cuda_error(std::string(call) + " failed: " + status_text(status),
                     static_cast<int>(status));
}

locked_generator::locked_generator(generator_state& g) : lock_(g.mutex) {
  int device = 0;
  ::jet::detail::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  if (!g.handle) {
    curandGenerator_t made = nullptr;
    check_curand(curandCreateGenerator(&made, rng_type(g.kind)), "curandCreateGenerator");
    try {
      check_curand(curandSetPseudoRandomGeneratorSeed(made, g.seed),
                   "curandSetPseudoRandomGeneratorSeed");
      if (g.offset != 0)
        check_curand(curandSetGeneratorOffset(made, g.offset), "curandSetGeneratorOffset");
    } catch (...) {
      curandDestroyGenerator(made);
      throw;
    }
    g.handle = made;
    g.device = device;
  } else if (device != g.device) {
    throw value_error("jet::random::generator: made on device " + std::to_string(g.device) +
                      " but used on device " + std::to_string(device) +
                      "; each device needs its own generator");
  }
  // cuRAND draws into fresh arrays, which no work queued on the stream (behind a kernel still
  // compiling) reads: its kernels go to the stream at once.
  check_curand(curandSetStream(g.handle, ::jet::detail::current_stream()), "curandSetStream");
  handle_ = g.handle;
}

namespace {

// `count` words of dtype t (uint32, or uint64 of two cuRAND words each).
array curand_words(generator_state& g, std::int64_t count, dtype t) {
  const std::int64_t words = count * (itemsize(t) / 4);
  const array drawn = empty({words}, uint32);
  if (words > 0)
    check_curand(curandGenerate(locked_generator(g).get(), static_cast<unsigned int*>(drawn.data()),
                                static_cast<std::size_t>(words)),
                 "curandGenerate");
  return array(drawn.buffer(), t, {count}, {1}, 0);
}

// cuRAND's uniforms are on (0, 1]: 1.0 becomes 0, a shift by one of the circle that keeps the
// distribution uniform and gives exactly NumPy's interval.
array curand_unit(generator_state& g, std::int64_t count, dtype t) {
  array unit = empty({count}, t);
  if (count == 0) return unit;
  const auto n = static_cast<std::size_t>(count);
  if (t == float32)
    check_curand(
        curandGenerateUniform(locked_generator(g).get(), static_cast<float*>(unit.data()), n),
        "curandGenerateUniform");
  else
    check_curand(curandGenerateUniformDouble(locked_generator(g).get(),
                                             static_cast<double*>(unit.data()), n),
                 "curandGenerateUniformDouble");
  const expr u = unit;  // one node read twice: the kernel loads the array once
  std::move(unit) = where(u == 1, 0, u);
  return unit;
}

// Standard normals: cuRAND's Box-Muller makes pairs, so an odd count draws one more into the
// same buffer and hides it.
array curand_normal(generator_state& g, const shape& size, dtype t) {
  const std::int64_t count = size.product();
  if (count == 0) return empty(size, t);
  const std::int64_t even = count + (count & 1);
  const auto buffer = ::jet::detail::allocate(static_cast<std::size_t>(even * itemsize(t)));
  const auto n = static_cast<std::size_t>(even);
  if (t == float32)
    check_curand(curandGenerateNormal(locked_generator(g).get(), static_cast<float*>(buffer->data),
                                      n, 0.0f, 1.0f),
                 "curandGenerateNormal");
  else
    check_curand(curandGenerateNormalDouble(locked_generator(g).get(),
                                            static_cast<double*>(buffer->data), n, 0.0, 1.0),
                 "curandGenerateNormalDouble");
  return array(buffer, t, size, contiguous_strides(size), 0);
}

}  // namespace

expr draw(generator_state& g, ::jet::detail::random_dist dist, const shape& size, dtype t) {
  using ::jet::detail::random_dist;
  const std::int64_t count = element_count(size);
  if (g.kind != algorithm::philox4x32_10) {
    switch (dist) {
      case random_dist::words: return curand_words(g, count, t).reshape(size);
      case random_dist::uniform: return curand_unit(g, count, t).reshape(size);
      case random_dist::normal: return curand_normal(g, size, t);
    }
  }
  const auto per_counter = static_cast<std::uint64_t>(::jet::detail::values_per_block(t));
  std::uint64_t base = 0;
  {
    std::lock_guard lock(g.mutex);
    base = g.counter;
    g.counter += (static_cast<std::uint64_t>(count) + per_counter - 1) / per_counter;
  }
  return expr(::jet::detail::make_random(dist, t, size, g.seed, base));
}

array draw_words(generator_state& g, std::int64_t count) {
  return array(draw(g, ::jet::detail::random_dist::words, {count}, uint32));
}

array draw_words64(generator_state& g, std::int64_t count) {
  return array(draw(g, ::jet::detail::random_dist::words, {count}, uint64));
}

array draw_key(generator_state& g) { return draw_words(g, 4); }

array draw_unit(generator_state& g, std::int64_t count, dtype t) {
  return array(draw(g, ::jet::detail::random_dist::uniform, {count}, t));
}

std::int64_t element_count(const shape& size) {
  for (std::int64_t v : size)
    if (v < 0) throw value_error("negative dimensions are not allowed");
  return size.product();
}

dtype compute_dtype(const char* function, dtype t) {
  if (!is_floating(t))
    throw dtype_error(std::string(function) + ": dtype " + std::string(name(t)) +
                      " is not supported; use float16, bfloat16, float32 or float64");
  return t == float64 ? float64 : float32;
}

void check_non_negative(const char* function, const char* name, double value, bool nan_allowed) {
  if (value < 0) throw value_error(fmt::format("{}: {} < 0 (got {})", function, name, value));
  if (std::isnan(value) && !nan_allowed)
    throw value_error(fmt::format("{}: {} is NaN", function, name));
}

}  // namespace detail

std::string_view name(algorithm a) {
  switch (a) {
    case algorithm::philox4x32_10: return "philox4x32_10";
    case algorithm::xorwow: return "xorwow";
    case algorithm::mrg32k3a: return "mrg32k3a";
    case algorithm::mt19937: return "mt19937";
  }
  return "unknown";
}

generator::generator(std::uint64_t seed, algorithm kind, std::uint64_t offset)
    : state_(std::make_unique<detail::generator_state>()) {
  detail::check_offset(kind, offset);
  state_->seed = seed;
  state_->offset = offset;
  state_->counter = offset;
  state_->kind = kind;
}

generator::~generator() = default;
generator::generator(generator&&) noexcept = default;
generator& generator::operator=(generator&&) noexcept = default;

std::uint64_t generator::seed() const { return state_->seed; }
std::uint64_t generator::offset() const { return state_->offset; }
algorithm generator::kind() const { return state_->kind; }

void generator::seed(std::uint64_t seed, std::uint64_t offset) {
  detail::check_offset(state_->kind, offset);
  std::lock_guard lock(state_->mutex);
  state_->seed = seed;
  state_->offset = offset;
  state_->counter = offset;
  // A fresh cuRAND generator starts exactly at (seed, offset); MT19937 has no offset to rewind.
  if (state_->handle) {
    curandDestroyGenerator(state_->handle);
    state_->handle = nullptr;
  }
}

namespace {

std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Device 0's legacy stream draws with `base` itself; every other (device, stream) with a seed
// mixed from base, the device and the order in which its stream first drew.
std::uint64_t derived_seed(std::uint64_t base, int device, int ordinal) {
  if (device == 0 && ordinal == 0) return base;
  return splitmix64(base ^ splitmix64(static_cast<std::uint64_t>(device) << 32 |
                                      static_cast<std::uint32_t>(ordinal)));
}

std::uint64_t initial_seed() {
  if (const char* text = std::getenv("JET_SEED")) {
    const std::string_view s(text);
    std::uint64_t value = 0;
    const auto [end, status] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || status != std::errc() || end != s.data() + s.size())
      throw value_error("JET_SEED must be a whole number in [0, 2^64), got '" + std::string(s) +
                        "'");
    return value;
  }
  std::random_device entropy;
  return static_cast<std::uint64_t>(entropy()) << 32 | entropy();
}

struct default_generators {
  struct slot {
    std::unique_ptr<generator> made;
    int device = 0;
    int ordinal = 0;  // 0 for the legacy stream, then 1, 2, ... in order of first use
  };
  std::mutex mutex;
  std::optional<std::uint64_t> base;
  std::map<std::pair<int, cudaStream_t>, slot> slots;
  std::map<int, int> ordinals;  // per device: the last ordinal handed out
};

void release_default(cudaStream_t stream);

// Never destroyed: generators may be in use by other static objects' destructors. A jet::stream's
// generator goes with the stream.
default_generators& defaults() {
  static default_generators* const d = [] {
    ::jet::detail::on_stream_destroyed(&release_default);
    return new default_generators;
  }();
  return *d;
}

void release_default(cudaStream_t stream) {
  default_generators& d = defaults();
  std::lock_guard lock(d.mutex);
  std::erase_if(d.slots, [stream](const auto& entry) { return entry.first.second == stream; });
}

}  // namespace

generator& default_generator() {
  int device = 0;
  ::jet::detail::check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  const cudaStream_t stream = ::jet::detail::current_stream();
  default_generators& d = defaults();
  std::lock_guard lock(d.mutex);
  const auto found = d.slots.find({device, stream});
  if (found != d.slots.end()) return *found->second.made;
  if (!d.base) d.base = initial_seed();
  default_generators::slot s;
  s.device = device;
  s.ordinal = stream == nullptr ? 0 : ++d.ordinals[device];
  s.made = std::make_unique<generator>(derived_seed(*d.base, device, s.ordinal));
  return *d.slots.emplace(std::pair(device, stream), std::move(s)).first->second.made;
}

std::size_t detail::default_generator_count() {
  default_generators& d = defaults();
  std::lock_guard lock(d.mutex);
  return d.slots.size();
}

void seed(std::uint64_t n) {
  default_generators& d = defaults();
  std::lock_guard lock(d.mutex);
  d.base = n;
  for (auto& [key, s] : d.slots) s.made->seed(derived_seed(n, s.device, s.ordinal));
}

}  // namespace jet::random
