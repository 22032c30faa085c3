// CUDA C for user reduction kernels: the body of Jet's own reduction kernels (a warp or a
// block per output, or a thread per output when the reduced axes are outer in memory; chunks of
// the reduced axes merged by the last block to finish) around the user's map, reduce and
// post-map expressions. The state is the reduce type itself, from the
// identity, so the reduce type may be any dtype the user's reduce_expr accepts.
#include <algorithm>
#include <string>

#include "codegen/core/limits.hpp"
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
void decompose(const std::string& flat, int axes, std::size_t extents,
               const std::vector<std::size_t>& params, const std::string& prefix,
               StrideAt&& stride_at, std::string& s) {
  if (axes == 0) return;
  const std::string tag = prefix + "r";
  s += "      {\n        long long " + tag + " = " + flat + ";\n";
  for (int d = axes - 1; d >= 0; --d) {
    const std::string c = prefix + "c" + std::to_string(d);
    if (d > 0) {
      const std::string extent = get("long long", extents + 8 * static_cast<std::size_t>(d));
      s += "        const long long " + c + " = " + tag + " % " + extent + ";\n        " + tag +
           " /= " + extent + ";\n";
    } else {
      s += "        const long long " + c + " = " + tag + ";\n";
    }
    for (std::size_t k : params)
      s += "        " + prefix + std::to_string(k) + " += " + c + " * " +
           get("long long", stride_at(k, d)) + ";\n";
  }
  s += "      }\n";
}

// The engine's state: the user's reduce_expr from the identity (which merges as nothing), at
// least 8-byte aligned, so that it shuffles and loads in whole words.
void render_state(const user_reduction_spec& spec, std::string& s) {
  s += "__device__ __forceinline__ jet_reduce_t jet_reduce_op(const jet_reduce_t& a, const "
       "jet_reduce_t& b) {\n"
       "  return (jet_reduce_t)(" +
       spec.reduce_expr + ");\n}\n";
  s += "struct alignas(alignof(jet_reduce_t) > 8 ? alignof(jet_reduce_t) : 8) jet_state {\n  "
       "jet_reduce_t v;\n"
       "  __device__ __forceinline__ void init() { v = (jet_reduce_t)(" +
       spec.identity +
       "); }\n"
       "  __device__ __forceinline__ void add(const jet_reduce_t& x, long long) { v = "
       "jet_reduce_op(v, x); }\n"
       "  __device__ __forceinline__ void merge(const jet_state& o) { v = jet_reduce_op(v, o.v); "
       "}\n};\n"
       "typedef jet_reduce_t jet_value;\n\n";
}

// jet_bases (the offsets of output m's kept axes in every strided parameter), jet_at (map_expr
// at reduced position jet_j of the output whose offsets are jet_b) and jet_store
// (post_map_expr with the reduced value `a`).
void render_access(const user_reduction_spec& spec, const param_layout& params, std::string& s) {
  std::vector<std::size_t> strided, strided_inputs, strided_outputs;
  std::vector<std::string> offsets(spec.params.size());
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    offsets[k] = "jet_o" + std::to_string(k);
    if (spec.access[k] != user_access::strided) continue;
    strided.push_back(k);
    (spec.params[k].output ? strided_outputs : strided_inputs).push_back(k);
  }
  const auto kept_stride = [&](std::size_t k, int d) {
    return params.at(param_role::strides, static_cast<int>(k)).offset +
           8 * static_cast<std::size_t>(d);
  };
  const auto reduced_stride = [&](std::size_t k, int d) { return kept_stride(k, spec.kept + d); };
  // Offsets into jet_b[], one per parameter (those not strided stay unused).
  auto take_offsets = [&](const std::vector<std::size_t>& list) {
    for (std::size_t k : list)
      s += "  long long jet_o" + std::to_string(k) + " = jet_b[" + std::to_string(k) + "];\n";
  };
  s += "__device__ __forceinline__ void jet_bases(const jet_params& p, jet_idx jet_m, jet_off* "
       "jet_b) {\n";
  for (std::size_t k : strided) s += "  long long jet_k" + std::to_string(k) + " = 0;\n";
  decompose("(long long)jet_m", spec.kept, params.at(param_role::extents, 0).offset, strided,
            "jet_k", kept_stride, s);
  for (std::size_t k : strided)
    s += "  jet_b[" + std::to_string(k) + "] = jet_k" + std::to_string(k) + ";\n";
  s += "}\n\n";
  s += "__device__ __forceinline__ jet_value jet_at(const jet_params& p, jet_idx jet_j, const "
       "jet_off* jet_b) {\n";
  take_offsets(strided_inputs);
  decompose("(long long)jet_j", spec.reduced, params.at(param_role::extents, 1).offset,
            strided_inputs, "jet_o", reduced_stride, s);
  render_user_operands(spec.params, spec.binding.types, spec.access, params, offsets, "  ", false,
                       s);
  s += "  return (jet_value)(" + spec.map_expr + ");\n}\n\n";
  s += "__device__ __noinline__ void jet_store(const jet_params& p, const jet_off* jet_b, const "
       "jet_state& jet_s) {\n";
  take_offsets(strided_outputs);
  s += "  const jet_reduce_t a = jet_s.v;\n";
  render_user_operands(spec.params, spec.binding.types, spec.access, params, offsets, "  ", true,
                       s);
  s += "  " + spec.post_map_expr + ";\n}\n\n";
}

}  // namespace

kernel_source render_user_reduction(const user_reduction_spec& spec, const param_layout& params) {
  const auto get_param = [&](const char* type, param_role role) {
    return get(type, params.at(role).offset);
  };
  std::string s;
  render_user_prologue(spec.binding,
                       {{"jet_reduce_t", spec.reduce_type}, {"_type_reduce", spec.reduce_type}},
                       params.bytes(), spec.preamble, s);
  s += preamble_reduce_combine;
  s += "typedef unsigned long long jet_idx;\ntypedef long long jet_off;\n";
  render_state(spec, s);
  render_access(spec, params, s);
  s += kernel_entry(spec.name);
  s += "  const jet_idx M = " + get_param("jet_idx", param_role::reduce_outputs) +
       ", K = " + get_param("jet_idx", param_role::reduce_length) +
       ", chunk = " + get_param("jet_idx", param_role::reduce_chunk) + ";\n";
  s += "  const unsigned long long jet_splits = " +
       get_param("unsigned long long", param_role::reduce_splits) + ";\n";
  s +=
      "  void* const jet_work = " + get_param("void*", param_role::reduce_work) +
      ";\n  unsigned* const jet_counters = " + get_param("unsigned*", param_role::reduce_counters) +
      ";\n";
  reduction_body body;
  body.columns = spec.group == 1;
  body.group = body.columns ? block_threads : spec.group;
  body.parts = itemsize(spec.reduce_type) <= 8 ? 4 : 2;
  body.slots = static_cast<int>(std::max<std::size_t>(spec.params.size(), 1));
  render_reduction_body(body, s);
  s += "}\n";
  return {spec.name, s};
}

}  // namespace jet::codegen
