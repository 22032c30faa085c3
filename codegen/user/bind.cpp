// Binding arguments to user kernels' parameters, and the code both user renderers share.
#include <algorithm>
#include <optional>

#include "codegen/render/render.hpp"
#include "codegen/user/user_kernels.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string described(const user_param& p) {
  return std::string(p.output ? "output" : "input") + " " + quoted(p.name);
}

}  // namespace

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

user_binding bind_user_params(const std::vector<user_param>& params, std::span<const user_arg_info> args,
                              const std::string& kernel) {
  const std::size_t inputs = static_cast<std::size_t>(
      std::count_if(params.begin(), params.end(), [](const user_param& p) { return !p.output; }));
  const std::size_t outputs = params.size() - inputs;
  if (args.size() != inputs && args.size() != params.size())
    throw value_error("kernel " + kernel + " takes " + std::to_string(inputs) + " inputs" +
                      (outputs ? " (then optionally " + std::to_string(outputs) + " outputs)" : std::string()) +
                      "; " + std::to_string(args.size()) + " arguments were given");
  user_binding b;
  b.outputs_given = outputs > 0 && args.size() == params.size();
  b.types.assign(params.size(), dtype::float64);
  struct letter {
    char name;
    std::optional<dtype> type;
    std::string from;  // the parameter that fixed it
    std::optional<dtype> weak;
  };
  std::vector<letter> letters;
  auto letter_of = [&](char c) -> letter& {
    for (letter& l : letters)
      if (l.name == c) return l;
    letters.push_back({c, std::nullopt, {}, std::nullopt});
    return letters.back();
  };
  for (std::size_t k = 0; k < params.size(); ++k) {
    const user_param& p = params[k];
    if (p.placeholder) letter_of(p.placeholder);
    if (k >= args.size()) continue;
    const user_arg_info& a = args[k];
    const bool typed = a.is_array || a.weak == weak_kind::none;  // an array or a 16-bit float scalar
    if (!a.is_array && (p.raw || p.output))
      throw value_error("kernel " + kernel + ": " + described(p) + " takes an array, not a scalar");
    if (p.placeholder) {
      letter& l = letter_of(p.placeholder);
      if (!typed) {
        const dtype t = default_dtype(a.weak);
        l.weak = l.weak ? promote_types(*l.weak, t) : t;
      } else if (!l.type) {
        l.type = a.type;
        l.from = p.name;
      } else if (*l.type != a.type) {
        throw dtype_error("kernel " + kernel + ": " + described(p) + " is " + std::string(name(a.type)) +
                          " but type " + std::string(1, p.placeholder) + " is " + std::string(name(*l.type)) +
                          " from " + quoted(l.from));
      }
    } else if (typed && *p.type != a.type) {
      if (p.output || p.raw || !can_cast(a.type, *p.type))
        throw dtype_error("kernel " + kernel + ": " + described(p) + " is " + std::string(name(*p.type)) +
                          ", the argument is " + std::string(name(a.type)));
      if (a.is_array) b.casts.push_back(k);
    }
  }
  for (letter& l : letters) {
    if (!l.type) l.type = l.weak;
    if (!l.type) {
      for (const user_param& p : params)
        if (p.placeholder == l.name)
          throw dtype_error("kernel " + kernel + ": the type " + std::string(1, l.name) + " of " + described(p) +
                            " is not fixed by any argument");
    }
    b.placeholders.emplace_back(l.name, *l.type);
  }
  for (std::size_t k = 0; k < params.size(); ++k) {
    const user_param& p = params[k];
    if (p.type) {
      b.types[k] = *p.type;
    } else {
      for (const auto& [c, t] : b.placeholders)
        if (c == p.placeholder) b.types[k] = t;
    }
    if (k < args.size() && args[k].weak == weak_kind::complex && !is_complex(b.types[k]))
      throw dtype_error("kernel " + kernel + ": " + described(p) + " is " + std::string(name(b.types[k])) +
                        ", which cannot hold a complex scalar");
  }
  return b;
}

user_slots layout_slots(const std::vector<user_access>& access, user_block& block) {
  user_slots s;
  s.value.assign(access.size(), 0);
  s.raw_size.assign(access.size(), 0);
  for (std::size_t k = 0; k < access.size(); ++k)
    if (access[k] == user_access::scalar) s.value[k] = block.add(16, 16);
  for (std::size_t k = 0; k < access.size(); ++k)
    if (access[k] != user_access::scalar) s.value[k] = block.add(8, 8);
  for (std::size_t k = 0; k < access.size(); ++k)
    if (access[k] == user_access::raw) s.raw_size[k] = block.add(8, 8);
  return s;
}

void render_user_prologue(const user_binding& b, const std::vector<std::pair<std::string, dtype>>& extra,
                          std::size_t block_bytes, const std::string& preamble, std::string& s) {
  std::vector<std::pair<std::string, dtype>> typedefs;
  for (const auto& [c, t] : b.placeholders) typedefs.emplace_back(std::string(1, c), t);
  typedefs.insert(typedefs.end(), extra.begin(), extra.end());
  // Headers only for the types in use: cuda_fp16.h and cuda_bf16.h cost ~12 ms of NVRTC's
  // time, cuda/std/complex ~800 ms, a kernel without them ~36 ms.
  const auto uses = [&](auto&& is) {
    return std::any_of(b.types.begin(), b.types.end(), is) ||
           std::any_of(typedefs.begin(), typedefs.end(), [&](const auto& d) { return is(d.second); });
  };
  if (uses([](dtype t) { return t == dtype::float16; })) s += "#include <cuda_fp16.h>\n";
  if (uses([](dtype t) { return t == dtype::bfloat16; })) s += "#include <cuda_bf16.h>\n";
  if (uses([](dtype t) { return is_complex(t); })) s += "#include <cuda/std/complex>\n";
  for (const auto& [alias, t] : typedefs) s += "typedef " + std::string(user_ctype(t)) + " " + alias + ";\n";
  // A raw operand: the whole array, indexed by the user's code.
  s += "template <class V> struct jet_raw {\n"
       "  V* data_;\n  long long size_;\n"
       "  __device__ V& operator[](long long k) const { return data_[k]; }\n"
       "  __device__ long long size() const { return size_; }\n"
       "  __device__ V* data() const { return data_; }\n};\n";
  s += "struct alignas(16) jet_params { unsigned char bytes[" + std::to_string(std::max<std::size_t>(block_bytes, 16)) +
       "]; };\n";
  s += "template <class V> __device__ __forceinline__ V jet_get(const jet_params& p, int offset) {\n"
       "  return *reinterpret_cast<const V*>(p.bytes + offset);\n}\n";
  if (!preamble.empty()) s += "\n" + preamble + "\n\n";
}

void render_user_operands(const std::vector<user_param>& params, const std::vector<dtype>& types,
                          const std::vector<user_access>& access, const user_slots& slots,
                          const std::vector<std::string>& offsets, const std::string& indent, bool outputs,
                          std::string& s) {
  for (std::size_t k = 0; k < params.size(); ++k) {
    const user_param& p = params[k];
    if (p.output != outputs) continue;
    const std::string type = user_ctype(types[k]);
    const std::string slot = std::to_string(slots.value[k]);
    switch (access[k]) {
      case user_access::scalar:
        s += indent + "const " + type + " " + p.name + " = jet_get<" + type + ">(p, " + slot + ");\n";
        break;
      case user_access::raw:
        s += indent + "const jet_raw<" + type + "> " + p.name + "{jet_get<" + type + "*>(p, " + slot +
             "), jet_get<long long>(p, " + std::to_string(slots.raw_size[k]) + ")};\n";
        break;
      case user_access::contiguous:
      case user_access::strided:
        s += indent + (p.output ? type + "& " : "const " + type + " ") + p.name + " = jet_get<" + type + "*>(p, " +
             slot + ")[" + offsets[k] + "];\n";
        break;
    }
  }
}

}  // namespace jet::codegen
