// elementwise_kernel: the arguments bound and broadcast, the operands collapsed as Jet's own
// kernels collapse theirs, then the specialization's plan run by the pipeline's driver.
#include <algorithm>

#include "codegen/user/user_kernels.hpp"
#include "jet/error.hpp"
#include "src/pipeline/run_plan.hpp"
#include "src/user/arguments.hpp"

namespace jet {

struct elementwise_kernel::state {
  codegen::user_elementwise_spec definition;  // the spec's fields that every call shares
  detail::compile_extras extras;
};

namespace {

// The broadcast shape of every non-raw array argument.
shape broadcast_extents(const codegen::user_elementwise_spec& spec,
                        const std::vector<kernel_arg>& args, const std::vector<array>& arrays) {
  shape extents;
  bool any = false;
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (spec.params[k].raw || !args[k].is_array()) continue;
    extents = any ? broadcast_shapes(extents, arrays[k].shape()) : arrays[k].shape();
    any = true;
  }
  if (!any)
    throw value_error("kernel " + spec.name +
                      " has no non-raw array argument to take its shape from");
  return extents;
}

// Allocates the outputs not given, with the broadcast shape, and checks those given.
kernel_outputs outputs_of(const codegen::user_elementwise_spec& spec, std::size_t given,
                          const shape& extents, std::vector<array>& arrays) {
  kernel_outputs outputs;
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    const codegen::user_param& p = spec.params[k];
    if (!p.output) continue;
    if (k >= given) {
      if (p.raw)
        throw value_error("kernel " + spec.name + ": raw output '" + p.name + "' must be passed");
      arrays[k] = empty(extents, spec.binding.types[k]);
    } else if (!p.raw && !(arrays[k].shape() == extents)) {
      throw shape_error("kernel " + spec.name + ": output '" + p.name + "' has shape " +
                        to_string(arrays[k].shape()) + ", the arguments broadcast to " +
                        to_string(extents));
    }
    outputs.push_back(arrays[k]);
  }
  return outputs;
}

}  // namespace

elementwise_kernel::elementwise_kernel(std::string in_params, std::string out_params,
                                       std::string operation, std::string name,
                                       std::string preamble, std::vector<std::string> options)
    : state_(std::make_unique<state>()) {
  codegen::user_elementwise_spec& d = state_->definition;
  d.params = codegen::parse_user_params(in_params, out_params);
  codegen::check_kernel_name(name, d.params);
  if (std::none_of(d.params.begin(), d.params.end(),
                   [](const codegen::user_param& p) { return p.output; }))
    throw value_error("kernel " + name + " has no output parameter");
  d.id = detail::user_kernel_id({"elementwise", in_params, out_params, operation, name, preamble});
  for (const std::string& o : options) d.id = detail::user_kernel_id({d.id, o});
  d.name = std::move(name);
  d.operation = std::move(operation);
  d.preamble = std::move(preamble);
  state_->extras = detail::user_extras(options);
}

elementwise_kernel::~elementwise_kernel() = default;
elementwise_kernel::elementwise_kernel(elementwise_kernel&&) noexcept = default;
elementwise_kernel& elementwise_kernel::operator=(elementwise_kernel&&) noexcept = default;

kernel_outputs elementwise_kernel::call(const std::vector<kernel_arg>& args) const {
  codegen::user_elementwise_spec spec = state_->definition;
  const std::vector<codegen::user_param>& params = spec.params;
  spec.binding = codegen::bind_user_params(params, detail::describe_args(args), spec.name);
  std::vector<array> arrays = detail::bound_arrays(params, spec.binding, args);
  const shape extents = broadcast_extents(spec, args, arrays);
  const kernel_outputs outputs = outputs_of(spec, args.size(), extents, arrays);
  std::vector<shape> broadcast(params.size());
  std::vector<const shape*> strides(params.size(), nullptr);
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (params[k].raw || (k < args.size() && !args[k].is_array())) continue;
    broadcast[k] = arrays[k].broadcast_to(extents).strides();
    strides[k] = &broadcast[k];
  }
  const codegen::user_axes collapsed = codegen::elementwise_axes(params, strides, extents);
  if (collapsed.space.size() == 0) return outputs;
  spec.access = collapsed.access;
  spec.ndim = collapsed.space.extents.size();
  spec.index64 = collapsed.space.needs_index64();
  const std::vector<codegen::user_value> values =
      detail::user_values(params, spec.binding, args, arrays);
  codegen::kernel_plan plan;
  plan.body = &spec;
  codegen::layout_user_elementwise(spec, values, collapsed, plan.params);
  detail::check_block_size(plan.params.bytes(), spec.name);
  plan.launch.work_items = collapsed.space.size();
  plan.extras = &state_->extras;
  detail::run_plan(plan);
  return outputs;
}

}  // namespace jet
