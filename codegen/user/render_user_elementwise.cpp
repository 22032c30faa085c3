// CUDA C for user elementwise kernels: a grid-stride loop over the broadcast shape after
// collapsing, with each non-raw operand read contiguously, through its strides, or as one
// scalar, the way Jet's own elementwise kernels index.
#include "codegen/user/user_kernels.hpp"

namespace jet::codegen {

user_elementwise_layout layout_user_elementwise(const user_elementwise_spec& spec) {
  user_elementwise_layout l;
  user_block block;
  l.slots = layout_slots(spec.access, block);
  l.count = block.add(8, 8);
  const std::size_t axes = static_cast<std::size_t>(spec.ndim);
  l.extents = block.add(8 * axes, 8);
  l.strides.assign(spec.access.size(), 0);
  for (std::size_t k = 0; k < spec.access.size(); ++k)
    if (spec.access[k] == user_access::strided) l.strides[k] = block.add(8 * axes, 8);
  l.bytes = block.bytes;
  return l;
}

kernel_source render_user_elementwise(const user_elementwise_spec& spec) {
  const user_elementwise_layout l = layout_user_elementwise(spec);
  const std::string index = spec.index64 ? "long long" : "int";
  std::string s;
  render_user_prologue(spec.binding, {}, l.bytes, spec.preamble, s);
  s += "struct jet_index { long long n_; __device__ long long size() const { return n_; } };\n\n";
  s += "extern \"C\" __global__ void __launch_bounds__(256) " + spec.name +
       "(const __grid_constant__ jet_params p) {\n";
  s += "  const " + index + " jet_n = (" + index + ")jet_get<long long>(p, " + std::to_string(l.count) + ");\n";
  s += "  const jet_index _ind{jet_n};\n";
  s += "  for (" + index + " jet_k = (" + index + ")blockIdx.x * blockDim.x + threadIdx.x; jet_k < jet_n; jet_k += (" +
       index + ")gridDim.x * blockDim.x) {\n";
  s += "    const long long i = jet_k;\n";
  std::vector<std::string> offsets(spec.params.size(), "jet_k");
  bool strided = false;
  for (std::size_t k = 0; k < spec.params.size(); ++k) {
    if (spec.access[k] != user_access::strided) continue;
    offsets[k] = "jet_o" + std::to_string(k);
    s += "    " + index + " " + offsets[k] + " = 0;\n";
    strided = true;
  }
  if (strided) {
    s += "    {\n      " + index + " jet_r = jet_k;\n";
    for (int d = spec.ndim - 1; d >= 0; --d) {
      const std::string extent = "jet_get<long long>(p, " + std::to_string(l.extents + 8 * d) + ")";
      if (d > 0)
        s += "      const " + index + " jet_c" + std::to_string(d) + " = jet_r % (" + index + ")" + extent +
             ";\n      jet_r /= (" + index + ")" + extent + ";\n";
      else
        s += "      const " + index + " jet_c0 = jet_r;\n";
      for (std::size_t k = 0; k < spec.params.size(); ++k)
        if (spec.access[k] == user_access::strided)
          s += "      " + offsets[k] + " += jet_c" + std::to_string(d) + " * (" + index + ")jet_get<long long>(p, " +
               std::to_string(l.strides[k] + 8 * d) + ");\n";
    }
    s += "    }\n";
  }
  render_user_operands(spec.params, spec.binding.types, spec.access, l.slots, offsets, "    ", false, s);
  render_user_operands(spec.params, spec.binding.types, spec.access, l.slots, offsets, "    ", true, s);
  s += "    {\n" + spec.operation + "\n    ;}\n  }\n}\n";
  return {spec.name, s};
}

}  // namespace jet::codegen
