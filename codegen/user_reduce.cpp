// CUDA C for user reduction kernels. The algorithm of Jet's own reductions in a simpler form:
// G threads per output (a block, a warp, or one thread when the reduced axes are outer in
// memory), each walking a strided share of its output's elements; the reduced axes cut into
// chunks along gridDim.y when outputs are few, whose partial results a second launch of the
// same kernel (merge = 1) combines. The G partial values meet in a shared-memory tree, so the
// reduce type may be any dtype the user's reduce_expr accepts.
#include "codegen/user_kernels.hpp"

namespace jet::codegen {
namespace {

std::string get(const char* type, std::size_t offset) {
  return "jet_get<" + std::string(type) + ">(p, " + std::to_string(offset) + ")";
}

// Adds to each strided parameter's offset its share of the flat index `flat` over `axes`
// extents at `extents`; `stride_at(k, d)` is the block offset of parameter k's stride d.
template <class StrideAt>
void decompose(const std::string& flat, int axes, std::size_t extents, const std::vector<std::size_t>& params,
               const std::string& prefix, StrideAt&& stride_at, std::string& s) {
  if (axes == 0) return;
  const std::string tag = prefix + "r";
  s += "      {\n        long long " + tag + " = " + flat + ";\n";
  for (int d = axes - 1; d >= 0; --d) {
    const std::string c = prefix + "c" + std::to_string(d);
    if (d > 0) {
      const std::string extent = get("long long", extents + 8 * static_cast<std::size_t>(d));
      s += "        const long long " + c + " = " + tag + " % " + extent + ";\n        " + tag + " /= " + extent + ";\n";
    } else {
      s += "        const long long " + c + " = " + tag + ";\n";
    }
    for (std::size_t k : params)
      s += "        " + prefix + std::to_string(k) + " += " + c + " * " + get("long long", stride_at(k, d)) + ";\n";
  }
  s += "      }\n";
}

}  // namespace

user_reduction_layout layout_user_reduction(const user_reduction_spec& spec) {
  user_reduction_layout l;
  user_block block;
  l.slots = layout_slots(spec.access, block);
  l.outputs = block.add(8, 8);
  l.length = block.add(8, 8);
  l.splits = block.add(8, 8);
  l.chunk = block.add(8, 8);
  l.work = block.add(8, 8);
  l.merge = block.add(8, 8);
  const auto kept = static_cast<std::size_t>(spec.kept), reduced = static_cast<std::size_t>(spec.reduced);
  l.kept_extents = block.add(8 * kept, 8);
  l.reduced_extents = block.add(8 * reduced, 8);
  l.strides.assign(spec.access.size(), 0);
  for (std::size_t k = 0; k < spec.access.size(); ++k)
    if (spec.access[k] == user_access::strided)
      l.strides[k] = block.add(8 * (kept + (spec.params[k].output ? 0 : reduced)), 8);
  l.bytes = block.bytes;
  return l;
}

kernel_source render_user_reduction(const user_reduction_spec& spec) {
  const user_reduction_layout l = layout_user_reduction(spec);
  const std::string group = std::to_string(spec.group);
  std::vector<std::size_t> strided_inputs, strided_outputs;
  std::vector<std::string> offsets(spec.params.size());
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    offsets[k] = "jet_o" + std::to_string(k);
    if (spec.access[k] == user_access::strided)
      (spec.params[k].output ? strided_outputs : strided_inputs).push_back(k);
  }
  std::string s;
  render_user_prologue(spec.binding, {{"jet_reduce_t", spec.reduce_type}, {"_type_reduce", spec.reduce_type}}, l.bytes,
                       spec.preamble, s);
  s += "__device__ __forceinline__ jet_reduce_t jet_reduce_op(const jet_reduce_t& a, const jet_reduce_t& b) {\n"
       "  return (jet_reduce_t)(" + spec.reduce_expr + ");\n}\n\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) " + spec.name + "(const __grid_constant__ jet_params p) {\n";
  s += "  __shared__ alignas(16) unsigned char jet_shared[256 * sizeof(jet_reduce_t)];\n"
       "  jet_reduce_t* jet_buffer = reinterpret_cast<jet_reduce_t*>(jet_shared);\n";
  s += "  const long long jet_m = " + get("long long", l.outputs) + ", jet_len = " + get("long long", l.length) +
       ";\n  const long long jet_splits = " + get("long long", l.splits) + ", jet_chunk = " +
       get("long long", l.chunk) + ";\n  const bool jet_merge = " + get("long long", l.merge) +
       " != 0;\n  jet_reduce_t* jet_work = " + get("jet_reduce_t*", l.work) + ";\n";
  s += "  const long long jet_out = (long long)blockIdx.x * (256 / " + group + ") + threadIdx.x / " + group +
       ";\n  const int jet_lane = threadIdx.x % " + group + ";\n  const bool jet_active = jet_out < jet_m;\n";
  s += "  jet_reduce_t jet_acc = (jet_reduce_t)(" + spec.identity + ");\n";
  s += "  if (jet_active && !jet_merge) {\n";
  for (std::size_t k : strided_inputs) s += "      long long jet_k" + std::to_string(k) + " = 0;\n";
  decompose("jet_out", spec.kept, l.kept_extents, strided_inputs, "jet_k",
            [&](std::size_t k, int d) { return l.strides[k] + 8 * static_cast<std::size_t>(d); }, s);
  s += "    const long long jet_begin = (long long)blockIdx.y * jet_chunk;\n"
       "    const long long jet_end = jet_len < jet_begin + jet_chunk ? jet_len : jet_begin + jet_chunk;\n";
  s += "    for (long long jet_j = jet_begin + jet_lane; jet_j < jet_end; jet_j += " + group + ") {\n";
  for (std::size_t k : strided_inputs)
    s += "      long long jet_o" + std::to_string(k) + " = jet_k" + std::to_string(k) + ";\n";
  decompose("jet_j", spec.reduced, l.reduced_extents, strided_inputs, "jet_o",
            [&](std::size_t k, int d) {
              return l.strides[k] + 8 * (static_cast<std::size_t>(spec.kept) + static_cast<std::size_t>(d));
            },
            s);
  render_user_operands(spec.params, spec.binding.types, spec.access, l.slots, offsets, "      ", false, s);
  s += "      jet_acc = jet_reduce_op(jet_acc, (jet_reduce_t)(" + spec.map_expr + "));\n    }\n";
  s += "  } else if (jet_active) {\n"
       "    for (long long jet_s = jet_lane; jet_s < jet_splits; jet_s += " + group +
       ")\n      jet_acc = jet_reduce_op(jet_acc, jet_work[jet_s * jet_m + jet_out]);\n  }\n";
  if (spec.group > 1) {
    s += "  jet_buffer[threadIdx.x] = jet_acc;\n  __syncthreads();\n";
    s += "  for (int jet_s = " + group + " / 2; jet_s > 0; jet_s >>= 1) {\n"
         "    if (jet_lane < jet_s) jet_buffer[threadIdx.x] = jet_reduce_op(jet_buffer[threadIdx.x], "
         "jet_buffer[threadIdx.x + jet_s]);\n    __syncthreads();\n  }\n  jet_acc = jet_buffer[threadIdx.x];\n";
  }
  s += "  if (!jet_active || jet_lane != 0) return;\n";
  s += "  if (!jet_merge && jet_splits > 1) {\n    jet_work[(long long)blockIdx.y * jet_m + jet_out] = jet_acc;\n"
       "    return;\n  }\n";
  for (std::size_t k : strided_outputs) s += "  long long jet_o" + std::to_string(k) + " = 0;\n";
  s += "  {\n";
  decompose("jet_out", spec.kept, l.kept_extents, strided_outputs, "jet_o",
            [&](std::size_t k, int d) { return l.strides[k] + 8 * static_cast<std::size_t>(d); }, s);
  s += "  }\n  {\n    const jet_reduce_t a = jet_acc;\n";
  render_user_operands(spec.params, spec.binding.types, spec.access, l.slots, offsets, "    ", true, s);
  s += "    " + spec.post_map_expr + ";\n  }\n}\n";
  return {spec.name, s};
}

}  // namespace jet::codegen
