// User elementwise and reduction kernels (jet/kernel.hpp): binding arguments to CuPy-style
// parameters, the parameter block, and the CUDA C. Pure C++, as the rest of codegen/.
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "codegen/ir/passes.hpp"
#include "codegen/user/parse_params.hpp"
#include "jet/dtype.hpp"

namespace jet::codegen {

// What binding needs to know of one argument.
struct user_arg_info {
  bool is_array = false;
  dtype type = dtype::float64;       // an array's dtype, or a typed scalar's
  weak_kind weak = weak_kind::none;  // a weak scalar's kind; none for a typed scalar
};

// The dtypes of a call: one per parameter (inputs then outputs), and each placeholder's.
struct user_binding {
  std::vector<dtype> types;
  std::vector<std::pair<char, dtype>> placeholders;
  bool outputs_given = false;
  // Inputs whose array must be cast to its parameter's dtype first (a safe cast).
  std::vector<std::size_t> casts;
};

// Resolves the parameters' dtypes from the arguments (inputs, then optionally every output).
// An array, or a scalar with a dtype of its own (weak none: jet::float16_t, jet::bfloat16_t),
// fixes a placeholder; weak scalars fix one only when nothing else does. Throws
// jet::value_error for a wrong argument count or a scalar where an array is needed, and
// jet::dtype_error for a dtype a parameter cannot take (a complex scalar included), or
// placeholders that disagree, each naming the kernel and the parameter.
user_binding bind_user_params(const std::vector<user_param>& params, std::span<const user_arg_info> args,
                              const std::string& kernel);

// How a kernel reaches one parameter.
enum class user_access : std::uint8_t { contiguous, strided, scalar, raw };

// Offsets in a kernel's parameter block, which the renderer and the launch share.
struct user_block {
  std::size_t bytes = 0;
  // Reserves `size` bytes aligned to `align`; returns their offset.
  std::size_t add(std::size_t size, std::size_t align) {
    bytes = (bytes + align - 1) / align * align;
    const std::size_t at = bytes;
    bytes += size;
    return at;
  }
};

// Scalars take 16-byte slots, arrays 8-byte pointers; raw arrays add their element count.
struct user_slots {
  std::vector<std::size_t> value;     // per parameter: its scalar or pointer
  std::vector<std::size_t> raw_size;  // per parameter: a raw array's element count
};
user_slots layout_slots(const std::vector<user_access>& access, user_block& block);

struct user_elementwise_spec {
  std::string name, operation, preamble;
  std::vector<user_param> params;
  user_binding binding;
  std::vector<user_access> access;
  int ndim = 1;          // axes after collapsing
  bool index64 = false;  // 64-bit element offsets
};

struct user_elementwise_layout {
  user_slots slots;
  std::vector<std::size_t> strides;  // per parameter: a strided operand's ndim strides
  std::size_t count = 0, extents = 0;  // the element count, the ndim extents
  std::size_t bytes = 0;
};
user_elementwise_layout layout_user_elementwise(const user_elementwise_spec& spec);
kernel_source render_user_elementwise(const user_elementwise_spec& spec);

struct user_reduction_spec {
  std::string name, map_expr, reduce_expr, post_map_expr, identity, preamble;
  std::vector<user_param> params;
  user_binding binding;
  std::vector<user_access> access;  // inputs: scalar, strided or raw; outputs: strided
  dtype reduce_type = dtype::float64;
  int kept = 0, reduced = 0;  // axes of the outputs and of each reduction, after collapsing
  int group = 256;            // threads per output: 1 (a columns reduction), 32 or 256
};

struct user_reduction_layout {
  user_slots slots;
  std::vector<std::size_t> strides;  // per strided parameter: kept strides, then (inputs) reduced ones
  std::size_t outputs = 0, length = 0, splits = 0, chunk = 0, work = 0, counters = 0;
  std::size_t kept_extents = 0, reduced_extents = 0;
  std::size_t bytes = 0;
};
user_reduction_layout layout_user_reduction(const user_reduction_spec& spec);
// One kernel on the body of Jet's reductions: chunks of every output's reduced axes, whose
// partial states (when splits > 1) the last block of each grid column merges.
kernel_source render_user_reduction(const user_reduction_spec& spec);

// Shared by both renderers: the CUDA headers the kernel's types need, typedefs of the
// placeholders and of `extra` (a reduction's jet_reduce_t), the raw-array view, the
// parameter-block accessor, then the user's preamble, which may use every typedef.
void render_user_prologue(const user_binding& b, const std::vector<std::pair<std::string, dtype>>& extra,
                          std::size_t block_bytes, const std::string& preamble, std::string& s);
// The C type of a dtype in user kernels: CUDA's __half and __nv_bfloat16 for the 16-bit floats,
// cuda::std::complex<float> and <double> for complex64 and complex128.
const char* user_ctype(dtype t);
// Declarations of the parameters' names for one element: "const float x = ...;".
void render_user_operands(const std::vector<user_param>& params, const std::vector<dtype>& types,
                          const std::vector<user_access>& access, const user_slots& slots,
                          const std::vector<std::string>& offsets, const std::string& indent, bool outputs,
                          std::string& s);

}  // namespace jet::codegen
