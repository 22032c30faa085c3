// CuPy's parameter syntax for user kernels, checked token by token.
#include "codegen/user/parse_params.hpp"

#include <cctype>

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

bool is_identifier(std::string_view s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s.front()))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return true;
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
  if (name == "i" || name.starts_with("jet_"))
    throw value_error(quoted(name) + " in " + where +
                      " is reserved: `i` is the element index, jet_ names are Jet's");
  p.name = std::string(name);
  return p;
}

void parse_list(std::string_view list, bool output, std::vector<user_param>& out) {
  if (trimmed(list).empty()) return;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = list.find(',', start);
    const std::string_view piece =
        list.substr(start, comma == std::string_view::npos ? list.npos : comma - start);
    user_param p = parse_one(piece, output);
    for (const user_param& seen : out)
      if (seen.name == p.name)
        throw value_error("kernel parameter name " + quoted(p.name) + " is given twice");
    out.push_back(std::move(p));
    if (comma == std::string_view::npos) return;
    start = comma + 1;
  }
}

}  // namespace

void check_kernel_name(std::string_view name) {
  if (!is_identifier(name))
    throw value_error("kernel name " + quoted(name) + " is no C identifier");
}

std::vector<user_param> parse_user_params(std::string_view inputs, std::string_view outputs) {
  std::vector<user_param> params;
  parse_list(inputs, false, params);
  parse_list(outputs, true, params);
  return params;
}

}  // namespace jet::codegen
