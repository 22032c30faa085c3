// CUDA C for user elementwise kernels: a grid-stride loop over the broadcast shape after
// collapsing, with each non-raw operand read contiguously, through its strides, or as one
// scalar, the way Jet's own elementwise kernels index.
#include "codegen/render/render.hpp"
#include "codegen/user/user_kernels.hpp"

namespace jet::codegen {

kernel_source render_user_elementwise(const user_elementwise_spec& spec,
                                      const param_layout& params) {
  const std::string index = spec.index64 ? "long long" : "int";
  const std::size_t extents = params.at(param_role::extents).offset;
  std::string s;
  render_user_prologue(spec.binding, {}, params.bytes(), spec.preamble, s);
  s += "struct jet_index { long long n_; __device__ long long size() const { return n_; } };\n\n";
  s += kernel_entry(spec.name);
  s += "  const " + index + " jet_n = (" + index + ")jet_get<long long>(p, " +
       std::to_string(params.at(param_role::count).offset) + ");\n";
  s += "  const jet_index _ind{jet_n};\n";
  s += "  for (" + index + " jet_k = (" + index +
       ")blockIdx.x * blockDim.x + threadIdx.x; jet_k < jet_n; jet_k += (" + index +
       ")gridDim.x * blockDim.x) {\n";
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
      const std::string extent = "jet_get<long long>(p, " + std::to_string(extents + 8 * d) + ")";
      if (d > 0)
        s += "      const " + index + " jet_c" + std::to_string(d) + " = jet_r % (" + index + ")" +
             extent + ";\n      jet_r /= (" + index + ")" + extent + ";\n";
      else
        s += "      const " + index + " jet_c0 = jet_r;\n";
      for (std::size_t k = 0; k < spec.params.size(); ++k)
        if (spec.access[k] == user_access::strided)
          s += "      " + offsets[k] + " += jet_c" + std::to_string(d) + " * (" + index +
               ")jet_get<long long>(p, " +
               std::to_string(params.at(param_role::strides, static_cast<int>(k)).offset + 8 * d) +
               ");\n";
    }
    s += "    }\n";
  }
  render_user_operands(spec.params, spec.binding.types, spec.access, params, offsets, "    ", false,
                       s);
  render_user_operands(spec.params, spec.binding.types, spec.access, params, offsets, "    ", true,
                       s);
  s += "    {\n" + spec.operation + "\n    ;}\n  }\n}\n";
  return {spec.name, s};
}

}  // namespace jet::codegen
