// CUDA C for user reduction kernels: the body of Jet's own reduction kernels (render_reduce.cpp:
// a warp or a block per output, or a thread per output when the reduced axes are outer in
// memory; chunks of the reduced axes merged by the last block to finish) around the user's
// map, reduce and post-map expressions. The state is the reduce type itself, from the
// identity, so the reduce type may be any dtype the user's reduce_expr accepts.
#include <algorithm>
#include <string>

#include "codegen/render/preamble.hpp"
#include "codegen/render/render.hpp"
#include "codegen/user/user_kernels.hpp"

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
  l.counters = block.add(8, 8);
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
  std::vector<std::size_t> strided, strided_inputs, strided_outputs;
  std::vector<std::string> offsets(spec.params.size());
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    offsets[k] = "jet_o" + std::to_string(k);
    if (spec.access[k] != user_access::strided) continue;
    strided.push_back(k);
    (spec.params[k].output ? strided_outputs : strided_inputs).push_back(k);
  }
  const auto kept_stride = [&](std::size_t k, int d) { return l.strides[k] + 8 * static_cast<std::size_t>(d); };
  const auto reduced_stride = [&](std::size_t k, int d) {
    return l.strides[k] + 8 * (static_cast<std::size_t>(spec.kept) + static_cast<std::size_t>(d));
  };
  // Offsets into jet_b[], one per parameter (those not strided stay unused).
  const std::string slots = std::to_string(std::max<std::size_t>(spec.params.size(), 1));
  auto take_offsets = [&](const std::vector<std::size_t>& params, std::string& s) {
    for (std::size_t k : params) s += "  long long jet_o" + std::to_string(k) + " = jet_b[" + std::to_string(k) + "];\n";
  };

  std::string s;
  render_user_prologue(spec.binding, {{"jet_reduce_t", spec.reduce_type}, {"_type_reduce", spec.reduce_type}}, l.bytes,
                       spec.preamble, s);
  s += preamble_reduce_combine;
  s += "typedef unsigned long long jet_idx;\ntypedef long long jet_off;\n";
  s += "__device__ __forceinline__ jet_reduce_t jet_reduce_op(const jet_reduce_t& a, const jet_reduce_t& b) {\n"
       "  return (jet_reduce_t)(" + spec.reduce_expr + ");\n}\n";
  // The engine's state: the user's reduce_expr from the identity (which merges as nothing);
  // at least 8-byte aligned, so that it shuffles and loads in whole words.
  s += "struct alignas(alignof(jet_reduce_t) > 8 ? alignof(jet_reduce_t) : 8) jet_state {\n  jet_reduce_t v;\n"
       "  __device__ __forceinline__ void init() { v = (jet_reduce_t)(" + spec.identity + "); }\n"
       "  __device__ __forceinline__ void add(const jet_reduce_t& x, long long) { v = jet_reduce_op(v, x); }\n"
       "  __device__ __forceinline__ void merge(const jet_state& o) { v = jet_reduce_op(v, o.v); }\n};\n"
       "typedef jet_reduce_t jet_value;\n\n";
  // Offsets of output m's kept axes, in every strided parameter.
  s += "__device__ __forceinline__ void jet_bases(const jet_params& p, jet_idx jet_m, jet_off* jet_b) {\n";
  for (std::size_t k : strided) s += "  long long jet_k" + std::to_string(k) + " = 0;\n";
  decompose("(long long)jet_m", spec.kept, l.kept_extents, strided, "jet_k", kept_stride, s);
  for (std::size_t k : strided) s += "  jet_b[" + std::to_string(k) + "] = jet_k" + std::to_string(k) + ";\n";
  s += "}\n\n";
  // map_expr at reduced position jet_j of the output whose offsets are jet_b.
  s += "__device__ __forceinline__ jet_value jet_at(const jet_params& p, jet_idx jet_j, const jet_off* jet_b) {\n";
  take_offsets(strided_inputs, s);
  decompose("(long long)jet_j", spec.reduced, l.reduced_extents, strided_inputs, "jet_o", reduced_stride, s);
  render_user_operands(spec.params, spec.binding.types, spec.access, l.slots, offsets, "  ", false, s);
  s += "  return (jet_value)(" + spec.map_expr + ");\n}\n\n";
  // post_map_expr with the reduced value `a`.
  s += "__device__ __noinline__ void jet_store(const jet_params& p, const jet_off* jet_b, const jet_state& jet_s) {\n";
  take_offsets(strided_outputs, s);
  s += "  const jet_reduce_t a = jet_s.v;\n";
  render_user_operands(spec.params, spec.binding.types, spec.access, l.slots, offsets, "  ", true, s);
  s += "  " + spec.post_map_expr + ";\n}\n\n";

  s += "extern \"C\" __global__ void __launch_bounds__(256) " + spec.name + "(const __grid_constant__ jet_params p) {\n";
  s += "  const jet_idx M = " + get("jet_idx", l.outputs) + ", K = " + get("jet_idx", l.length) + ", chunk = " +
       get("jet_idx", l.chunk) + ";\n";
  s += "  const unsigned long long jet_splits = " + get("unsigned long long", l.splits) + ";\n";
  s += "  void* const jet_work = " + get("void*", l.work) + ";\n  unsigned* const jet_counters = " +
       get("unsigned*", l.counters) + ";\n";
  reduction_body body;
  body.columns = spec.group == 1;
  body.group = body.columns ? 256 : spec.group;
  body.parts = itemsize(spec.reduce_type) <= 8 ? 4 : 2;
  body.slots = std::stoi(slots);
  render_reduction_body(body, s);
  s += "}\n";
  return {spec.name, s};
}

}  // namespace jet::codegen
