// Binding arguments to user kernels' parameters, and the code both user renderers share.
#include <algorithm>
#include <optional>

#include "codegen/render_common.hpp"
#include "codegen/user_kernels.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string described(const user_param& p) {
  return std::string(p.output ? "output" : "input") + " " + quoted(p.name);
}

}  // namespace

const char* user_ctype(dtype t, const std::string& kernel, const std::string& param) {
  // Halves and complex values would need CUDA headers or Jet's own types in user code.
  if (t != dtype::float16 && t != dtype::bfloat16 && !is_complex(t)) return value_type(t);
  throw dtype_error("kernel " + kernel + ": parameter " + quoted(param) + " would be " + std::string(name(t)) +
                    ", which user kernels do not support (bool, integer, float32 and float64 only)");
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
    if (!a.is_array && (p.raw || p.output))
      throw value_error("kernel " + kernel + ": " + described(p) + " takes an array, not a scalar");
    if (p.placeholder) {
      letter& l = letter_of(p.placeholder);
      if (!a.is_array) {
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
    } else if (a.is_array && *p.type != a.type) {
      if (p.output || p.raw || !can_cast(a.type, *p.type))
        throw dtype_error("kernel " + kernel + ": " + described(p) + " is " + std::string(name(*p.type)) +
                          ", the argument is " + std::string(name(a.type)));
      b.casts.push_back(k);
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
    user_ctype(b.types[k], kernel, p.name);
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

void render_user_prologue(const std::vector<std::pair<char, dtype>>& placeholders, std::size_t block_bytes,
                          const std::string& preamble, std::string& s) {
  for (const auto& [c, t] : placeholders)
    s += "typedef " + std::string(user_ctype(t, "", std::string(1, c))) + " " + c + ";\n";
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
    const std::string type = user_ctype(types[k], "", p.name);
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
