// User elementwise and reduction kernels (jet/kernel.hpp): binding arguments to CuPy-style
// parameters, the iteration space, the parameter block, and the CUDA C. Pure C++, as the rest
// of codegen/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "codegen/core/limits.hpp"
#include "codegen/ir/ir.hpp"
#include "codegen/ir/params.hpp"
#include "codegen/render/kernel_source.hpp"
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
user_binding bind_user_params(const std::vector<user_param>& params,
                              std::span<const user_arg_info> args, const std::string& kernel);

// The reduce type of a reduction kernel over bound parameters: `written` (a dtype name or a
// placeholder of the parameters), else the first output's. Throws jet::dtype_error for a
// letter that is no placeholder.
dtype reduce_type_of(const std::string& written, const std::vector<user_param>& params,
                     const user_binding& b, const std::string& kernel);

// How a kernel reaches one parameter.
enum class user_access : std::uint8_t { contiguous, strided, scalar, raw };

// The iteration space of a user kernel (user_axes.cpp): the axes of its non-raw arrays after
// collapsing, as Jet's own kernels collapse theirs, with each array's strides over them.
struct user_axes {
  ir::graph space;                  // the extents, and an operand per non-raw array parameter
  std::vector<int> operand;         // per parameter: its operand in `space`, or -1
  std::vector<user_access> access;  // per parameter
  int kept = 0;                     // reductions: the leading axes, which index the outputs
};
// An elementwise kernel's axes: `strides[k]` holds parameter k's strides over `extents` (the
// arrays' broadcast shape), none for raw arrays and scalars. An array whose collapsed strides
// are C-contiguous is read contiguously, any other through its strides.
user_axes elementwise_axes(const std::vector<user_param>& params,
                           std::span<const shape* const> strides, const shape& extents);
// A reduction kernel's axes: `extents` holds the `kept` axes, then the reduced ones, and
// `strides[k]` parameter k's strides over them (outputs: 0 over the reduced axes); the two
// groups collapse apart. Arrays are read through their strides.
user_axes reduction_axes(const std::vector<user_param>& params,
                         std::span<const shape* const> strides, const shape& extents, int kept);

// What a launch passes for one parameter, made from the bound arguments (src/user).
struct user_value {
  alignas(
      16) std::byte bytes[16] = {};  // a scalar as its parameter's C type, or an array's address
  std::int64_t size = 0;             // a raw array's element count
};

struct user_elementwise_spec {
  std::string name, operation, preamble;
  std::string id;  // names the kernel object by everything its source is made from
  std::vector<user_param> params;
  user_binding binding;
  std::vector<user_access> access;
  int ndim = 1;          // axes after collapsing
  bool index64 = false;  // 64-bit element offsets
};

struct user_reduction_spec {
  std::string name, map_expr, reduce_expr, post_map_expr, identity, preamble;
  std::string id;  // as user_elementwise_spec's
  std::vector<user_param> params;
  user_binding binding;
  std::vector<user_access> access;  // inputs: scalar, strided or raw; outputs: strided
  dtype reduce_type = dtype::float64;
  int kept = 0, reduced = 0;  // axes of the outputs and of each reduction, after collapsing
  int group = block_threads;  // threads per output: 1 (a columns reduction), a warp or a block
};

// The parameter blocks of user kernels (user_layout.cpp): first each parameter's own fields,
// scalars in 16-byte slots, then the arrays' addresses, then raw arrays' element counts. An
// elementwise kernel adds the element count, the extents and each strided array's strides over
// `axes`; a reduction its sizes and scratch (from `r`, read when the launch packs), the kept
// extents, the reduced ones, and each strided array's strides (inputs over every axis, outputs
// over the kept ones). `values` holds one entry per parameter; `axes` must outlive the table.
void layout_user_elementwise(const user_elementwise_spec& spec, std::span<const user_value> values,
                             const user_axes& axes, param_layout& out);
void layout_user_reduction(const user_reduction_spec& spec, std::span<const user_value> values,
                           const user_axes& axes, const ir::reduction_geometry& r,
                           param_layout& out);

// The CUDA C of a user kernel whose parameter block is `params` (made by the layout above):
// a grid-stride loop over the collapsed extents (render_user_elementwise.cpp), or a kernel on
// the body of Jet's reductions (render_user_reduction.cpp).
kernel_source render_user_elementwise(const user_elementwise_spec& spec,
                                      const param_layout& params);
kernel_source render_user_reduction(const user_reduction_spec& spec, const param_layout& params);

// Shared by both renderers (user_spelling.cpp): the CUDA headers the kernel's types need,
// typedefs of the placeholders and of `extra` (a reduction's jet_reduce_t), the raw-array view,
// the parameter-block accessor, then the user's preamble, which may use every typedef.
void render_user_prologue(const user_binding& b,
                          const std::vector<std::pair<std::string, dtype>>& extra,
                          std::size_t block_bytes, const std::string& preamble, std::string& s);
// The C type of a dtype in user kernels: CUDA's __half and __nv_bfloat16 for the 16-bit floats,
// cuda::std::complex<float> and <double> for complex64 and complex128.
const char* user_ctype(dtype t);
// Declarations of the parameters' names for one element: "const float x = ...;", inputs or
// outputs; `offsets[k]` indexes a strided or contiguous parameter's array.
void render_user_operands(const std::vector<user_param>& params, const std::vector<dtype>& types,
                          const std::vector<user_access>& access, const param_layout& params_block,
                          const std::vector<std::string>& offsets, const std::string& indent,
                          bool outputs, std::string& s);

}  // namespace jet::codegen
