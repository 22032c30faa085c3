// CuPy's parameter syntax for user kernels, checked token by token.
#include "codegen/user/parse_params.hpp"

#include <bitset>
#include <cctype>
#include <unordered_set>

#include "codegen/render/kernel_source.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::vector<std::string_view> tokens_of(std::string_view s) {
  std::vector<std::string_view> tokens;
  std::size_t at = 0;
  while (at < s.size()) {
    while (at < s.size() && std::isspace(static_cast<unsigned char>(s[at]))) ++at;
    const std::size_t start = at;
    while (at < s.size() && !std::isspace(static_cast<unsigned char>(s[at]))) ++at;
    if (at > start) tokens.push_back(s.substr(start, at - start));
  }
  return tokens;
}

// C++20's keywords and alternative tokens: NVRTC compiles C++17, whose user may still write
// the newer ones.
bool is_keyword(std::string_view s) {
  static constexpr std::string_view list =
      "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t "
      "char16_t char32_t class compl concept const consteval constexpr constinit const_cast "
      "continue co_await co_return co_yield decltype default delete do double dynamic_cast else "
      "enum explicit export extern false float for friend goto if inline int long mutable "
      "namespace new noexcept not not_eq nullptr operator or or_eq private protected public "
      "register reinterpret_cast requires return short signed sizeof static static_assert "
      "static_cast struct switch template this thread_local throw true try typedef typeid "
      "typename union unsigned using virtual void volatile wchar_t while xor xor_eq";
  static const std::unordered_set<std::string_view> keywords = [] {
    std::unordered_set<std::string_view> words;
    for (std::string_view word : tokens_of(list)) words.insert(word);
    return words;
  }();
  return keywords.count(s) > 0;
}

// Why the generated code of every user kernel could not hold `name`, or "" when it can.
std::string reason_reserved(std::string_view name) {
  if (is_keyword(name)) return "a C++ keyword";
  if (name.starts_with("jet_")) return "reserved: jet_ names are Jet's";
  if (name.starts_with("__") ||
      (name.size() > 1 && name[0] == '_' && std::isupper(static_cast<unsigned char>(name[1]))))
    return "reserved: names starting with __ or _ and a capital are the compiler's and CUDA's";
  if (name == "threadIdx" || name == "blockIdx" || name == "blockDim" || name == "gridDim" ||
      name == "warpSize")
    return "reserved: CUDA's built-in variable";
  if (name == "_type_reduce") return "reserved: reductions name their reduce type _type_reduce";
  return {};
}

// Which letters are type placeholders of `params`: the generated code typedefs each.
std::bitset<256> placeholders_of(const std::vector<user_param>& params) {
  std::bitset<256> letters;
  for (const user_param& p : params)
    if (p.placeholder) letters.set(static_cast<unsigned char>(p.placeholder));
  return letters;
}

bool is_placeholder(std::string_view name, const std::bitset<256>& placeholders) {
  return name.size() == 1 && placeholders.test(static_cast<unsigned char>(name[0]));
}

// Why the parameter `p` of a `kind` kernel could not be declared in the generated code, or ""
// when it can.
std::string reason_reserved(const user_param& p, const std::bitset<256>& placeholders,
                            user_kernel_kind kind) {
  if (std::string why = reason_reserved(p.name); !why.empty()) return why;
  if (p.name == "i") return "reserved: `i` is the element index";
  if (p.name == "p") return "reserved: `p` is the kernel's parameter block";
  if (p.name == "_ind") return "reserved: `_ind` is the kernel's index";
  if (is_placeholder(p.name, placeholders))
    return "the type placeholder " + p.name + " of these parameters";
  if (kind == user_kernel_kind::reduction && p.output && p.name == "a")
    return "reserved: a reduction's post_map_expr reads the reduced value as `a`";
  return {};
}

user_param parse_one(std::string_view text, bool output) {
  const std::vector<std::string_view> tokens = tokens_of(text);
  const std::string where = "kernel parameter " + quoted(trimmed(text));
  if (tokens.empty())
    throw value_error("empty kernel parameter: two commas in a row, or a comma at an end");
  user_param p;
  p.output = output;
  std::size_t next = 0;
  if (tokens[0] == "raw") {
    p.raw = true;
    next = 1;
  }
  if (tokens.size() - next != 2)
    throw value_error(where + " should be [raw] TYPE NAME; it has " +
                      std::to_string(tokens.size()) + " tokens");
  const std::string_view type = tokens[next], name = tokens[next + 1];
  if (type.size() == 1 && std::isalpha(static_cast<unsigned char>(type[0]))) {
    p.placeholder = type[0];
  } else {
    try {
      p.type = dtype_from_name(type);
    } catch (const dtype_error&) {
      throw value_error(
          "unknown type " + quoted(type) + " in " + where +
          ": use a dtype name (float32, int64, ...) or a one-letter type placeholder");
    }
  }
  if (!is_identifier(name))
    throw value_error(quoted(name) + " in " + where + " is no C identifier");
  p.name = std::string(name);
  return p;
}

// Appends the parameters of `list` to `out`, with the text of each to `texts`.
void parse_list(std::string_view list, bool output, std::vector<user_param>& out,
                std::vector<std::string_view>& texts) {
  if (trimmed(list).empty()) return;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string_view piece =
        list.substr(start, comma == std::string_view::npos ? list.npos : comma - start);
    out.push_back(parse_one(piece, output));
    texts.push_back(trimmed(piece));
    if (comma == std::string_view::npos) return;
    start = comma + 1;
  }
}

}  // namespace

void check_kernel_name(std::string_view name, const std::vector<user_param>& params) {
  if (!is_identifier(name))
    throw value_error("kernel name " + quoted(name) + " is no C identifier");
  std::string why = reason_reserved(name);
  if (why.empty() && name == "main") why = "reserved: C++ gives `main` to the program";
  if (why.empty() && is_placeholder(name, placeholders_of(params)))
    why = "the type placeholder " + std::string(name) + " of its parameters";
  if (!why.empty()) throw value_error("kernel name " + quoted(name) + " is " + why);
}

std::vector<user_param> parse_user_params(std::string_view inputs, std::string_view outputs,
                                          user_kernel_kind kind) {
  std::vector<user_param> params;
  std::vector<std::string_view> texts;
  parse_list(inputs, false, params, texts);
  parse_list(outputs, true, params, texts);
  // Hashed, so that a list of 10^5 parameters is checked in milliseconds.
  std::unordered_set<std::string_view> names;
  names.reserve(params.size());
  const std::bitset<256> placeholders = placeholders_of(params);
  for (std::size_t k = 0; k < params.size(); ++k) {
    const user_param& p = params[k];
    if (!names.insert(p.name).second)
      throw value_error("kernel parameter name " + quoted(p.name) + " is given twice");
    if (const std::string why = reason_reserved(p, placeholders, kind); !why.empty())
      throw value_error(quoted(p.name) + " in kernel parameter " + quoted(texts[k]) + " is " + why);
  }
  return params;
}

}  // namespace jet::codegen
