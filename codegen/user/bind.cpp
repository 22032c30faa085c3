// Binding arguments to user kernels' parameters: each parameter's dtype, placeholders resolved.
#include <algorithm>
#include <optional>

#include "codegen/user/user_kernels.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

std::string quoted(const std::string& s) { return "'" + s + "'"; }

std::string described(const user_param& p) {
  return std::string(p.output ? "output" : "input") + " " + quoted(p.name);
}

// Inputs, then optionally every output.
void check_count(const std::vector<user_param>& params, std::size_t given,
                 const std::string& kernel) {
  const auto inputs = static_cast<std::size_t>(
      std::count_if(params.begin(), params.end(), [](const user_param& p) { return !p.output; }));
  const std::size_t outputs = params.size() - inputs;
  if (given != inputs && given != params.size())
    throw value_error(
        "kernel " + kernel + " takes " + std::to_string(inputs) + " inputs" +
        (outputs ? " (then optionally " + std::to_string(outputs) + " outputs)" : std::string()) +
        "; " + std::to_string(given) + " arguments were given");
}

// What the arguments say of one placeholder.
struct letter {
  char name;
  std::optional<dtype> type;  // fixed by an array or a typed scalar
  std::string from;           // the parameter that fixed it
  std::optional<dtype> weak;  // the weak scalars' promoted dtype
};

// Every placeholder's dtype from the arguments, in the order the parameters name them. Also
// checks each argument against its parameter, and records the inputs that need a cast.
std::vector<letter> read_letters(const std::vector<user_param>& params,
                                 std::span<const user_arg_info> args, const std::string& kernel,
                                 user_binding& b) {
  std::vector<letter> letters;
  auto letter_of = [&](char c) -> letter& {
    for (letter& l : letters)
      if (l.name == c) return l;
    return letters.emplace_back(letter{c, std::nullopt, {}, std::nullopt});
  };
  for (std::size_t k = 0; k < params.size(); ++k) {
    const user_param& p = params[k];
    if (p.placeholder) letter_of(p.placeholder);
    if (k >= args.size()) continue;
    const user_arg_info& a = args[k];
    const bool typed =
        a.is_array || a.weak == weak_kind::none;  // an array or a 16-bit float scalar
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
        throw dtype_error("kernel " + kernel + ": " + described(p) + " is " +
                          std::string(name(a.type)) + " but type " + std::string(1, p.placeholder) +
                          " is " + std::string(name(*l.type)) + " from " + quoted(l.from));
      }
    } else if (typed && *p.type != a.type) {
      if (p.output || p.raw || !can_cast(a.type, *p.type))
        throw dtype_error("kernel " + kernel + ": " + described(p) + " is " +
                          std::string(name(*p.type)) + ", the argument is " +
                          std::string(name(a.type)));
      if (a.is_array) b.casts.push_back(k);
    }
  }
  return letters;
}

}  // namespace

user_binding bind_user_params(const std::vector<user_param>& params,
                              std::span<const user_arg_info> args, const std::string& kernel) {
  check_count(params, args.size(), kernel);
  user_binding b;
  const bool any_output =
      std::any_of(params.begin(), params.end(), [](const user_param& p) { return p.output; });
  b.outputs_given = any_output && args.size() == params.size();
  for (letter& l : read_letters(params, args, kernel, b)) {
    if (!l.type) l.type = l.weak;
    if (!l.type) {
      for (const user_param& p : params)
        if (p.placeholder == l.name)
          throw dtype_error("kernel " + kernel + ": the type " + std::string(1, l.name) + " of " +
                            described(p) + " is not fixed by any argument");
    }
    b.placeholders.emplace_back(l.name, *l.type);
  }
  b.types.assign(params.size(), dtype::float64);
  for (std::size_t k = 0; k < params.size(); ++k) {
    const user_param& p = params[k];
    if (p.type) {
      b.types[k] = *p.type;
    } else {
      for (const auto& [c, t] : b.placeholders)
        if (c == p.placeholder) b.types[k] = t;
    }
    if (k < args.size() && args[k].weak == weak_kind::complex && !is_complex(b.types[k]))
      throw dtype_error("kernel " + kernel + ": " + described(p) + " is " +
                        std::string(name(b.types[k])) + ", which cannot hold a complex scalar");
  }
  return b;
}

dtype reduce_type_of(const std::string& written, const std::vector<user_param>& params,
                     const user_binding& b, const std::string& kernel) {
  if (written.size() > 1) return dtype_from_name(written);
  if (written.size() == 1) {
    for (const auto& [c, t] : b.placeholders)
      if (c == written[0]) return t;
    throw dtype_error("reduction kernel " + kernel + ": reduce type " + written +
                      " is no placeholder of its parameters");
  }
  for (std::size_t k = 0; k < params.size(); ++k)
    if (params[k].output) return b.types[k];
  return dtype::float64;
}

}  // namespace jet::codegen
