// What both user renderers spell alike: C types, the prologue, and the parameters' names.
#include <algorithm>

#include "codegen/render/render.hpp"
#include "codegen/user/user_kernels.hpp"

namespace jet::codegen {

const char* user_ctype(dtype t) {
  // CUDA's own 16-bit types and libcu++'s complex, as CuPy's kernels offer float16 and complex
  // values; Jet's generated kernels compute halves in float and use their own complex type.
  switch (t) {
    case dtype::float16: return "__half";
    case dtype::bfloat16: return "__nv_bfloat16";
    case dtype::complex64: return "cuda::std::complex<float>";
    case dtype::complex128: return "cuda::std::complex<double>";
    default: return value_type(t);
  }
}

void render_user_prologue(const user_binding& b,
                          const std::vector<std::pair<std::string, dtype>>& extra,
                          std::size_t block_bytes, const std::string& preamble, std::string& s) {
  std::vector<std::pair<std::string, dtype>> typedefs;
  for (const auto& [c, t] : b.placeholders) typedefs.emplace_back(std::string(1, c), t);
  typedefs.insert(typedefs.end(), extra.begin(), extra.end());
  // Headers only for the types in use: cuda_fp16.h and cuda_bf16.h cost ~12 ms of NVRTC's
  // time, cuda/std/complex ~800 ms, a kernel without them ~36 ms.
  const auto uses = [&](auto&& is) {
    return std::any_of(b.types.begin(), b.types.end(), is) ||
           std::any_of(typedefs.begin(), typedefs.end(),
                       [&](const auto& d) { return is(d.second); });
  };
  if (uses([](dtype t) { return t == dtype::float16; })) s += "#include <cuda_fp16.h>\n";
  if (uses([](dtype t) { return t == dtype::bfloat16; })) s += "#include <cuda_bf16.h>\n";
  if (uses([](dtype t) { return is_complex(t); })) s += "#include <cuda/std/complex>\n";
  for (const auto& [alias, t] : typedefs)
    s += "typedef " + std::string(user_ctype(t)) + " " + alias + ";\n";
  // A raw operand: the whole array, indexed by the user's code.
  s += "template <class V> struct jet_raw {\n"
       "  V* data_;\n  long long size_;\n"
       "  __device__ V& operator[](long long k) const { return data_[k]; }\n"
       "  __device__ long long size() const { return size_; }\n"
       "  __device__ V* data() const { return data_; }\n};\n";
  s += "struct alignas(16) jet_params { unsigned char bytes[" +
       std::to_string(std::max<std::size_t>(block_bytes, 16)) + "]; };\n";
  s +=
      "template <class V> __device__ __forceinline__ V jet_get(const jet_params& p, int offset) {\n"
      "  return *reinterpret_cast<const V*>(p.bytes + offset);\n}\n";
  if (!preamble.empty()) s += "\n" + preamble + "\n\n";
}

void render_user_operands(const std::vector<user_param>& params, const std::vector<dtype>& types,
                          const std::vector<user_access>& access, const param_layout& params_block,
                          const std::vector<std::string>& offsets, const std::string& indent,
                          bool outputs, std::string& s) {
  for (std::size_t k = 0; k < params.size(); ++k) {
    const user_param& p = params[k];
    if (p.output != outputs) continue;
    const std::string type = user_ctype(types[k]);
    const int at = static_cast<int>(k);
    const param_role role = access[k] == user_access::scalar ? param_role::scalar
                            : p.output                       ? param_role::output
                                                             : param_role::input;
    const std::string slot = std::to_string(params_block.at(role, at).offset);
    switch (access[k]) {
      case user_access::scalar:
        s += indent + "const " + type + " " + p.name + " = jet_get<" + type + ">(p, " + slot +
             ");\n";
        break;
      case user_access::raw:
        s += indent + "const jet_raw<" + type + "> " + p.name + "{jet_get<" + type + "*>(p, " +
             slot + "), jet_get<long long>(p, " +
             std::to_string(params_block.at(param_role::raw_size, at).offset) + ")};\n";
        break;
      case user_access::contiguous:
      case user_access::strided:
        s += indent + (p.output ? type + "& " : "const " + type + " ") + p.name + " = jet_get<" +
             type + "*>(p, " + slot + ")[" + offsets[k] + "];\n";
        break;
    }
  }
}

}  // namespace jet::codegen
