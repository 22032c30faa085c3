// reduction_kernel: the reduced axes split from the kept ones (a transposed view, no copy),
// each group collapsed, then one launch of a kernel on the body of Jet's own reductions, with
// their layout choice, chunk planning and partial-state scratch (src/pipeline/evaluate.hpp).
#include <algorithm>
#include <cstdlib>

#include "codegen/core/axes.hpp"
#include "codegen/ir/ir.hpp"
#include "codegen/ir/passes.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/pipeline/evaluate.hpp"
#include "src/device/memory.hpp"
#include "src/user/user_kernels.hpp"

namespace jet {
namespace {

using detail::put_param;

// A group of axes with the strides of each operand, collapsed as Jet's kernels collapse them.
struct axis_group {
  ir::graph g;
  std::vector<std::size_t> operands;  // parameter index of each of g.inputs
  void add(std::size_t param, const shape& strides) {
    ir::operand op;
    op.strides = strides;
    g.inputs.push_back(op);
    operands.push_back(param);
  }
  void collapse() {
    if (g.inputs.empty()) add(0, contiguous_strides(g.extents));
    g.output = g.inputs.front();
    codegen::collapse_axes(g);
  }
  const shape& strides_of(std::size_t param) const {
    for (std::size_t k = 0; k < operands.size(); ++k)
      if (operands[k] == param) return g.inputs[k].strides;
    throw internal_error("user reduction: no strides for a parameter");
  }
};

}  // namespace

struct reduction_kernel::state {
  std::vector<codegen::user_param> params;
  std::string name, map_expr, reduce_expr, post_map_expr, identity, reduce_type, preamble, id;
  detail::compile_extras extras;
};

reduction_kernel::reduction_kernel(std::string in_params, std::string out_params, std::string map_expr,
                                   std::string reduce_expr, std::string post_map_expr, std::string identity,
                                   std::string name, std::string reduce_type, std::string preamble,
                                   std::vector<std::string> options)
    : state_(std::make_unique<state>()) {
  state_->params = codegen::parse_user_params(in_params, out_params);
  const auto output = [](const codegen::user_param& p) { return p.output; };
  if (std::none_of(state_->params.begin(), state_->params.end(), output))
    throw value_error("reduction kernel " + name + " has no output parameter");
  for (const codegen::user_param& p : state_->params)
    if (p.output && p.raw) throw value_error("reduction kernel " + name + ": output '" + p.name + "' cannot be raw");
  if (identity.empty()) throw value_error("reduction kernel " + name + " needs an identity, the value of an empty reduction");
  if (reduce_type.size() > 1) dtype_from_name(reduce_type);
  detail::check_kernel_name(name);
  state_->id = detail::user_kernel_id(
      {"reduction", in_params, out_params, map_expr, reduce_expr, post_map_expr, identity, name, reduce_type, preamble});
  for (const std::string& o : options) state_->id = detail::user_kernel_id({state_->id, o});
  state_->name = std::move(name);
  state_->map_expr = std::move(map_expr);
  state_->reduce_expr = std::move(reduce_expr);
  state_->post_map_expr = std::move(post_map_expr);
  state_->identity = std::move(identity);
  state_->reduce_type = std::move(reduce_type);
  state_->preamble = std::move(preamble);
  state_->extras = detail::user_extras(options);
}

reduction_kernel::~reduction_kernel() = default;
reduction_kernel::reduction_kernel(reduction_kernel&&) noexcept = default;
reduction_kernel& reduction_kernel::operator=(reduction_kernel&&) noexcept = default;

kernel_outputs reduction_kernel::call(const std::vector<kernel_arg>& args, axes axis, bool keepdims) const {
  const state& st = *state_;
  const std::vector<codegen::user_param>& params = st.params;
  codegen::user_reduction_spec spec;
  spec.binding = codegen::bind_user_params(params, detail::describe_args(args), st.name);
  std::vector<array> arrays = detail::bound_arrays(params, spec.binding, args);
  const auto is_array_input = [&](std::size_t k) {
    return !params[k].output && !params[k].raw && k < args.size() && args[k].is_array();
  };
  shape in_shape;
  bool any = false;
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (!is_array_input(k)) continue;
    in_shape = any ? broadcast_shapes(in_shape, arrays[k].shape()) : arrays[k].shape();
    any = true;
  }
  if (!any) throw value_error("reduction kernel " + st.name + " has no non-raw input array to reduce");
  const std::uint32_t mask = detail::axis_mask(axis, in_shape.size());
  const auto reduced = [&](int d) { return ((mask >> d) & 1u) != 0; };
  shape out_shape, kept_extents, reduced_extents;
  for (int d = 0; d < in_shape.size(); ++d) {
    if (!reduced(d)) {
      out_shape.push_back(in_shape[d]);
      kept_extents.push_back(in_shape[d]);
    } else {
      reduced_extents.push_back(in_shape[d]);
      if (keepdims) out_shape.push_back(1);
    }
  }
  // Operands: inputs with kept and reduced strides, outputs with kept strides.
  axis_group kept, over;
  kept.g.extents = kept_extents;
  over.g.extents = reduced_extents;
  spec.access.assign(params.size(), codegen::user_access::strided);
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (params[k].raw) {
      spec.access[k] = codegen::user_access::raw;
    } else if (!params[k].output && !is_array_input(k)) {
      spec.access[k] = codegen::user_access::scalar;
    } else if (!params[k].output) {
      const shape strides = arrays[k].broadcast_to(in_shape).strides();
      shape kept_strides, reduced_strides;
      for (int d = 0; d < in_shape.size(); ++d)
        (reduced(d) ? reduced_strides : kept_strides).push_back(strides[d]);
      kept.add(k, kept_strides);
      over.add(k, reduced_strides);
    } else {
      if (k >= args.size()) {
        arrays[k] = empty(out_shape, spec.binding.types[k]);
      } else if (!(arrays[k].shape() == out_shape)) {
        throw shape_error("reduction kernel " + st.name + ": output '" + params[k].name + "' has shape " +
                          to_string(arrays[k].shape()) + ", the reduction gives " + to_string(out_shape));
      }
      shape kept_strides;
      for (int d = 0, o = 0; d < in_shape.size(); ++d) {
        if (!reduced(d)) kept_strides.push_back(arrays[k].strides()[o]);
        if (!reduced(d) || keepdims) ++o;
      }
      kept.add(k, kept_strides);
    }
  }
  kept.collapse();
  over.collapse();
  kernel_outputs outputs;
  for (std::size_t k = 0; k < params.size(); ++k)
    if (params[k].output) outputs.push_back(arrays[k]);
  const std::int64_t m = kept.g.size(), length = over.g.size();
  if (m == 0) return outputs;

  // Reduce type: as given (a dtype name or a placeholder), else the first output's.
  spec.reduce_type = dtype::float64;
  for (std::size_t k = 0; k < params.size(); ++k)
    if (params[k].output) {
      spec.reduce_type = spec.binding.types[k];
      break;
    }
  if (st.reduce_type.size() == 1) {
    bool found = false;
    for (const auto& [c, t] : spec.binding.placeholders)
      if (c == st.reduce_type[0]) {
        spec.reduce_type = t;
        found = true;
      }
    if (!found) throw dtype_error("reduction kernel " + st.name + ": reduce type " + st.reduce_type + " is no placeholder of its parameters");
  } else if (!st.reduce_type.empty()) {
    spec.reduce_type = dtype_from_name(st.reduce_type);
  }
  // The layout Jet's reductions would choose for the first operand: a thread per output,
  // else a warp or a block per output.
  ir::reduction_geometry geometry;
  geometry.outputs = m;
  geometry.length = length;
  ir::operand primary;
  for (std::int64_t s : kept.g.inputs.front().strides) primary.strides.push_back(s);
  for (std::int64_t s : over.g.inputs.front().strides) primary.strides.push_back(s);
  codegen::choose_reduction_layout(geometry, &primary, kept.g.extents.size(),
                                   kept.g.extents.size() + over.g.extents.size(),
                                   device::current().multiprocessors);
  // The state is the reduce type, at least 8-byte aligned (codegen/user/render_user_reduction.cpp).
  geometry.state_bytes = (static_cast<std::size_t>(itemsize(spec.reduce_type)) + 7) / 8 * 8;
  const bool columns = geometry.columns;
  spec.group = columns ? 1 : geometry.group;
  spec.kept = kept.g.extents.size();
  spec.reduced = over.g.extents.size();
  spec.params = params;
  spec.name = st.name;
  spec.map_expr = st.map_expr;
  spec.reduce_expr = st.reduce_expr;
  spec.post_map_expr = st.post_map_expr;
  spec.identity = st.identity;
  spec.preamble = st.preamble;

  const codegen::user_reduction_layout l = codegen::layout_user_reduction(spec);
  detail::check_block_size(l.bytes, st.name);
  std::string signature = "jet.user.reduction/" + st.id + "/";
  detail::append_bound_signature(spec.binding, spec.access, signature);
  signature += "/" + std::string(name(spec.reduce_type)) + "/" + std::to_string(spec.kept) + "/" +
               std::to_string(spec.reduced) + "/" + std::to_string(spec.group);
  const detail::loaded_kernel& kernel =
      detail::obtain_kernel(signature, [&] { return codegen::render_user_reduction(spec); }, st.extras);

  // Chunks and partial states as for Jet's reductions.
  std::shared_ptr<detail::buffer> work;
  const dim3 grid = detail::plan_reduction_launch(geometry, kernel, work);

  alignas(16) std::byte block[4096] = {};
  detail::pack_slots(l.slots, spec.access, spec.binding, args, arrays, block);
  put_param(block + l.outputs, m);
  put_param(block + l.length, length);
  put_param(block + l.splits, geometry.splits);
  put_param(block + l.chunk, geometry.chunk);
  put_param(block + l.work, geometry.work);
  put_param(block + l.counters, static_cast<void*>(geometry.counters));
  for (int d = 0; d < spec.kept; ++d) put_param(block + l.kept_extents + 8 * d, kept.g.extents[d]);
  for (int d = 0; d < spec.reduced; ++d) put_param(block + l.reduced_extents + 8 * d, over.g.extents[d]);
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (spec.access[k] != codegen::user_access::strided) continue;
    for (int d = 0; d < spec.kept; ++d) put_param(block + l.strides[k] + 8 * d, kept.strides_of(k)[d]);
    if (!params[k].output)
      for (int d = 0; d < spec.reduced; ++d)
        put_param(block + l.strides[k] + 8 * (spec.kept + d), over.strides_of(k)[d]);
  }
  detail::launch_grid(kernel.handle(), grid, block);
  return outputs;
}

}  // namespace jet
