// The state behind jet::random::generator, the draws every distribution starts from,
// and the argument checks they share.
#pragma once

#include <curand.h>

#include <cstddef>
#include <cstdint>
#include <mutex>

#include "codegen/expr/node.hpp"
#include "jet/expr.hpp"
#include "jet/random.hpp"

namespace jet::random::detail {

struct generator_state {
  std::uint64_t seed = 0;
  std::uint64_t offset = 0;
  std::uint64_t counter = 0;  // Philox4x32-10: the counter the next draw starts at
  algorithm kind = algorithm::philox4x32_10;
  std::mutex mutex;                    // one cuRAND call at a time per generator
  curandGenerator_t handle = nullptr;  // made on the first draw, on the device current then
  int device = -1;

  generator_state() = default;
  generator_state(const generator_state&) = delete;
  generator_state& operator=(const generator_state&) = delete;
  ~generator_state();
};

// Throws jet::cuda_error naming the cuRAND call and its status.
void check_curand(curandStatus_t status, const char* call);

// The generator, locked for the lifetime of this object (one cuRAND call): made and seeded on
// first use, and pointed at Jet's current stream, so that its output is ordered with the
// stream-ordered allocation it writes into.
class locked_generator {
 public:
  explicit locked_generator(generator_state& g);
  curandGenerator_t get() const { return handle_; }

 private:
  std::lock_guard<std::mutex> lock_;
  curandGenerator_t handle_ = nullptr;
};

// A draw of `size` values of `dist` as dtype t (uint32 words; float32 or float64 uniforms on
// [0, 1) or standard normals). Philox4x32-10 generators give a random node, made by the kernel
// that reads it, and advance their counter past it now; the others draw into memory through
// cuRAND.
expr draw(generator_state& g, ::jet::detail::random_dist dist, const shape& size, dtype t);
// `count` uint32 words.
array draw_words(generator_state& g, std::int64_t count);
// `count` uint64 words (two words each).
array draw_words64(generator_state& g, std::int64_t count);
// Four words keying one launch of a random kernel (src/random/kernels.hpp).
array draw_key(generator_state& g);
// `count` uniform draws on [0, 1) of dtype float32 or float64.
array draw_unit(generator_state& g, std::int64_t count, dtype t);

// The element count of `size`; a negative extent throws jet::value_error as jet::empty does.
std::int64_t element_count(const shape& size);
// The dtype a continuous distribution computes in for output dtype `t` (float32 for the 16-bit
// floats); jet::dtype_error naming `function` and `t` when `t` is not floating.
dtype compute_dtype(const char* function, dtype t);
// jet::value_error "<function>: <name> < 0 (got <value>)" for a negative value; with
// `nan_allowed` false, also "<function>: <name> is NaN".
void check_non_negative(const char* function, const char* name, double value, bool nan_allowed);

// How many default generators exist: one per device and stream that drew from its own, until
// that jet::stream is destroyed.
std::size_t default_generator_count();

}  // namespace jet::random::detail
