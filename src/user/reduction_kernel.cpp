// reduction_kernel: the arguments bound, the reduced axes ordered after the kept ones (a
// transposed view, no copy) and each group collapsed, then one plan on the body of Jet's own
// reductions, with their layout choice and chunk planning, run by the pipeline's driver.
#include <algorithm>

#include "codegen/core/axes.hpp"
#include "codegen/ir/passes.hpp"
#include "codegen/user/user_kernels.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/pipeline/run_plan.hpp"
#include "src/user/arguments.hpp"

namespace jet {

struct reduction_kernel::state {
  codegen::user_reduction_spec definition;  // the spec's fields that every call shares
  std::string reduce_type;                  // as written: a dtype name, a placeholder, or ""
  detail::compile_extras extras;
};

namespace {

bool is_array_input(const codegen::user_param& p, std::size_t k,
                    const std::vector<kernel_arg>& args) {
  return !p.output && !p.raw && k < args.size() && args[k].is_array();
}

// The broadcast shape of every non-raw input array.
shape input_extents(const codegen::user_reduction_spec& spec, const std::vector<kernel_arg>& args,
                    const std::vector<array>& arrays) {
  shape extents;
  bool any = false;
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    if (!is_array_input(spec.params[k], k, args)) continue;
    extents = any ? broadcast_shapes(extents, arrays[k].shape()) : arrays[k].shape();
    any = true;
  }
  if (!any)
    throw value_error("reduction kernel " + spec.name + " has no non-raw input array to reduce");
  return extents;
}

// The axes of a reduction over the `reduced` ones (a bit mask) of an input of shape `in`: the
// kept axes first, then the reduced ones, each in order.
struct reduction_order {
  shape axes, extents, out_shape;  // out_shape: NumPy's result shape
  int kept = 0;
  reduction_order(const shape& in, std::uint32_t reduced, bool keepdims) {
    for (int pass = 0; pass < 2; ++pass)
      for (int d = 0; d < in.size(); ++d)
        if (((reduced >> d) & 1u) == static_cast<unsigned>(pass)) axes.push_back(d);
    for (std::int64_t d : axes) extents.push_back(in[d]);
    for (int d = 0; d < in.size(); ++d) {
      const bool is_reduced = (reduced >> d) & 1u;
      kept += !is_reduced;
      if (!is_reduced || keepdims) out_shape.push_back(is_reduced ? 1 : in[d]);
    }
  }
};

// An output's strides over the ordered axes: its own over the kept ones, which come first in
// input order (the output's axis i, or with keepdims its axis axes[i]), and 0 over the reduced.
shape output_strides(const array& out, const reduction_order& order, bool keepdims) {
  shape strides = shape::filled(order.axes.size(), 0);
  for (int i = 0; i < order.kept; ++i)
    strides[i] = out.strides()[keepdims ? static_cast<int>(order.axes[i]) : i];
  return strides;
}

// Every array's strides over the ordered axes; outputs not given are allocated, those given
// checked. Fills `outputs` in parameter order.
std::vector<shape> operand_strides(const codegen::user_reduction_spec& spec,
                                   const std::vector<kernel_arg>& args, const shape& in,
                                   const reduction_order& order, bool keepdims,
                                   std::vector<array>& arrays, kernel_outputs& outputs) {
  std::vector<shape> strides(spec.params.size());
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    const codegen::user_param& p = spec.params[k];
    if (is_array_input(p, k, args)) {
      const shape s = arrays[k].broadcast_to(in).strides();
      for (std::int64_t d : order.axes) strides[k].push_back(s[d]);
    } else if (p.output) {
      if (k >= args.size()) {
        arrays[k] = empty(order.out_shape, spec.binding.types[k]);
      } else if (!(arrays[k].shape() == order.out_shape)) {
        throw shape_error("reduction kernel " + spec.name + ": output '" + p.name + "' has shape " +
                          to_string(arrays[k].shape()) + ", the reduction gives " +
                          to_string(order.out_shape));
      }
      strides[k] = output_strides(arrays[k], order, keepdims);
      outputs.push_back(arrays[k]);
    }
  }
  return strides;
}

}  // namespace

reduction_kernel::reduction_kernel(std::string in_params, std::string out_params,
                                   std::string map_expr, std::string reduce_expr,
                                   std::string post_map_expr, std::string identity,
                                   std::string name, std::string reduce_type, std::string preamble,
                                   std::vector<std::string> options)
    : state_(std::make_unique<state>()) {
  codegen::user_reduction_spec& d = state_->definition;
  d.params =
      codegen::parse_user_params(in_params, out_params, codegen::user_kernel_kind::reduction);
  const auto output = [](const codegen::user_param& p) { return p.output; };
  if (std::none_of(d.params.begin(), d.params.end(), output))
    throw value_error("reduction kernel " + name + " has no output parameter");
  for (const codegen::user_param& p : d.params)
    if (p.output && p.raw)
      throw value_error("reduction kernel " + name + ": output '" + p.name + "' cannot be raw");
  if (identity.empty())
    throw value_error("reduction kernel " + name +
                      " needs an identity, the value of an empty reduction");
  if (reduce_type.size() > 1) dtype_from_name(reduce_type);
  codegen::check_kernel_name(name, d.params);
  d.id = detail::user_kernel_id({"reduction", in_params, out_params, map_expr, reduce_expr,
                                 post_map_expr, identity, name, reduce_type, preamble});
  for (const std::string& o : options) d.id = detail::user_kernel_id({d.id, o});
  d.name = std::move(name);
  d.map_expr = std::move(map_expr);
  d.reduce_expr = std::move(reduce_expr);
  d.post_map_expr = std::move(post_map_expr);
  d.identity = std::move(identity);
  d.preamble = std::move(preamble);
  state_->reduce_type = std::move(reduce_type);
  state_->extras = detail::user_extras(options);
}

reduction_kernel::~reduction_kernel() = default;
reduction_kernel::reduction_kernel(reduction_kernel&&) noexcept = default;
reduction_kernel& reduction_kernel::operator=(reduction_kernel&&) noexcept = default;

kernel_outputs reduction_kernel::call(const std::vector<kernel_arg>& args, axes axis,
                                      bool keepdims) const {
  codegen::user_reduction_spec spec = state_->definition;
  const std::vector<codegen::user_param>& params = spec.params;
  spec.binding = codegen::bind_user_params(params, detail::describe_args(args), spec.name);
  std::vector<array> arrays = detail::bound_arrays(params, spec.binding, args);
  const shape in = input_extents(spec, args, arrays);
  const reduction_order order(in, detail::axis_mask(axis, in.size()), keepdims);
  kernel_outputs outputs;
  const std::vector<shape> strides =
      operand_strides(spec, args, in, order, keepdims, arrays, outputs);
  std::vector<const shape*> operands(params.size(), nullptr);
  for (std::size_t k = 0; k < params.size(); ++k)
    if (params[k].output || is_array_input(params[k], k, args)) operands[k] = &strides[k];
  const codegen::user_axes collapsed =
      codegen::reduction_axes(params, operands, order.extents, order.kept);
  ir::reduction_geometry geometry;
  const int n = collapsed.space.extents.size();
  for (int d = 0; d < n; ++d)
    (d < collapsed.kept ? geometry.outputs : geometry.length) *= collapsed.space.extents[d];
  if (geometry.outputs == 0) return outputs;
  spec.reduce_type = codegen::reduce_type_of(state_->reduce_type, params, spec.binding, spec.name);
  // The layout Jet's reductions would choose for the first input; the state is the reduce
  // type, at least 8-byte aligned (codegen/user/render_user_reduction.cpp).
  codegen::choose_reduction_layout(geometry, &collapsed.space.inputs.front(), collapsed.kept, n,
                                   device::current().multiprocessors);
  geometry.state_bytes = (static_cast<std::size_t>(itemsize(spec.reduce_type)) + 7) / 8 * 8;
  spec.access = collapsed.access;
  spec.kept = collapsed.kept;
  spec.reduced = n - collapsed.kept;
  spec.group = geometry.columns ? 1 : geometry.group;
  const std::vector<codegen::user_value> values =
      detail::user_values(params, spec.binding, args, arrays);
  codegen::kernel_plan plan;
  plan.body = &spec;
  codegen::layout_user_reduction(spec, values, collapsed, geometry, plan.params);
  detail::check_block_size(plan.params.bytes(), spec.name);
  plan.launch.reduction = &geometry;
  plan.extras = &state_->extras;
  detail::run_plan(plan);
  return outputs;
}

}  // namespace jet
