// The parameter blocks of user kernels, as tables (codegen/ir/params.hpp).
#include "codegen/user/user_kernels.hpp"

namespace jet::codegen {
namespace {

// Each parameter's own fields: scalars in 16-byte slots, then the arrays' addresses, then the
// element counts of raw arrays.
void layout_values(const std::vector<user_param>& params, const std::vector<user_access>& access,
                   std::span<const user_value> values, param_layout& out) {
  for (std::size_t k = 0; k < params.size(); ++k)
    if (access[k] == user_access::scalar)
      out.add_value(param_role::scalar, static_cast<int>(k), 16, 16, values[k].bytes);
  for (std::size_t k = 0; k < params.size(); ++k)
    if (access[k] != user_access::scalar)
      out.add_value(params[k].output ? param_role::output : param_role::input, static_cast<int>(k),
                    8, 8, values[k].bytes);
  for (std::size_t k = 0; k < params.size(); ++k)
    if (access[k] == user_access::raw)
      out.add_value(param_role::raw_size, static_cast<int>(k), 8, 8, &values[k].size);
}

// Parameter k's strides over the first `axes` axes of the space.
void layout_strides(const user_axes& a, std::size_t k, int axes, param_layout& out) {
  const ir::operand& op = a.space.inputs[a.operand[k]];
  out.add(param_role::strides, static_cast<int>(k), 8 * static_cast<std::size_t>(axes), 8,
          op.strides.begin());
}

}  // namespace

void layout_user_elementwise(const user_elementwise_spec& spec, std::span<const user_value> values,
                             const user_axes& axes, param_layout& out) {
  out.clear();
  layout_values(spec.params, spec.access, values, out);
  const std::int64_t count = axes.space.size();
  out.add_value(param_role::count, 0, 8, 8, &count);
  out.add(param_role::extents, 0, 8 * static_cast<std::size_t>(spec.ndim), 8,
          axes.space.extents.begin());
  for (std::size_t k = 0; k < spec.params.size(); ++k)
    if (spec.access[k] == user_access::strided) layout_strides(axes, k, spec.ndim, out);
}

void layout_user_reduction(const user_reduction_spec& spec, std::span<const user_value> values,
                           const user_axes& axes, const ir::reduction_geometry& r,
                           param_layout& out) {
  out.clear();
  layout_values(spec.params, spec.access, values, out);
  add_reduction_fields(
      r,
      {param_role::reduce_outputs, param_role::reduce_length, param_role::reduce_splits,
       param_role::reduce_chunk, param_role::reduce_work, param_role::reduce_counters},
      out);
  const std::int64_t* extents = axes.space.extents.begin();
  out.add(param_role::extents, 0, 8 * static_cast<std::size_t>(spec.kept), 8, extents);
  out.add(param_role::extents, 1, 8 * static_cast<std::size_t>(spec.reduced), 8,
          extents + spec.kept);
  for (std::size_t k = 0; k < spec.params.size(); ++k)
    if (spec.access[k] == user_access::strided)
      layout_strides(axes, k, spec.kept + (spec.params[k].output ? 0 : spec.reduced), out);
}

}  // namespace jet::codegen
