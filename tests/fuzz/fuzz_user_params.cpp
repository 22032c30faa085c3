// Fuzzes the parameter-string parser of user kernels (codegen/user/parse_params.cpp). An input
// is four lines: the kernel kind ("r" for a reduction, else elementwise), the inputs, the
// outputs, the kernel name. A refusal is a jet::value_error with a message (any other
// exception escapes and is a finding); an accepted list holds unique, unreserved C identifiers,
// each with a dtype or a one-letter placeholder, and written back in its canonical spelling it
// parses to the same list.
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/render/kernel_source.hpp"
#include "codegen/user/parse_params.hpp"
#include "jet/error.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using namespace jet::codegen;
using jet::fuzz::require;

// The next line of `text`, which loses it; the rest of the text for the last.
std::string_view take_line(std::string_view& text, bool last) {
  const std::size_t end = last ? text.npos : text.find('\n');
  const std::string_view line = text.substr(0, end);
  text.remove_prefix(end == text.npos ? text.size() : end + 1);
  return line;
}

std::string spelled(const std::vector<user_param>& params, bool outputs) {
  std::string text;
  for (const user_param& p : params) {
    if (p.output != outputs) continue;
    if (!text.empty()) text += ", ";
    if (p.raw) text += "raw ";
    text += p.type ? std::string(jet::name(*p.type)) : std::string(1, p.placeholder);
    text += " " + p.name;
  }
  return text;
}

bool same_params(const std::vector<user_param>& a, const std::vector<user_param>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t k = 0; k < a.size(); ++k)
    if (a[k].name != b[k].name || a[k].type != b[k].type || a[k].placeholder != b[k].placeholder ||
        a[k].raw != b[k].raw || a[k].output != b[k].output)
      return false;
  return true;
}

void check_accepted(const std::vector<user_param>& params, user_kernel_kind kind) {
  std::set<std::string> names, letters;
  for (const user_param& p : params) {
    require(is_identifier(p.name), "a parameter's name is a C identifier");
    require(names.insert(p.name).second, "no two parameters share a name");
    require(p.type.has_value() != (p.placeholder != 0), "a parameter has a dtype or a placeholder");
    require(!p.placeholder || std::isalpha(static_cast<unsigned char>(p.placeholder)),
            "a placeholder is a letter");
    if (p.placeholder) letters.insert(std::string(1, p.placeholder));
    require(p.name != "i" && p.name != "p" && p.name != "_ind" && !p.name.starts_with("jet_") &&
                !p.name.starts_with("__") && p.name != "int" && p.name != "threadIdx",
            "a parameter's name is none the generated code uses");
    require(!(kind == user_kernel_kind::reduction && p.output && p.name == "a"),
            "a reduction's output is not named a");
  }
  for (const std::string& name : names)
    require(letters.count(name) == 0, "no parameter is named like a placeholder of the list");
  bool outputs_begun = false;
  for (const user_param& p : params) {
    require(p.output || !outputs_begun, "inputs come before outputs");
    outputs_begun = outputs_begun || p.output;
  }
  const std::vector<user_param> again =
      parse_user_params(spelled(params, false), spelled(params, true), kind);
  require(same_params(again, params), "a list written back parses to the same list");
}

void check_kernel_name_of(std::string_view name, const std::vector<user_param>& params) {
  try {
    check_kernel_name(name, params);
  } catch (const jet::value_error& e) {
    require(*e.what() != 0, "a refused kernel name has a message");
    return;
  }
  require(is_identifier(name) && name != "main" && name != "int",
          "an accepted kernel name is a C identifier, neither main nor a keyword");
  for (const user_param& p : params)
    require(name != std::string_view(&p.placeholder, 1),
            "a kernel is not named like a placeholder of its parameters");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string_view text(reinterpret_cast<const char*>(data), size);
  const user_kernel_kind kind =
      take_line(text, false) == "r" ? user_kernel_kind::reduction : user_kernel_kind::elementwise;
  const std::string_view inputs = take_line(text, false), outputs = take_line(text, false);
  const std::string_view kernel_name = take_line(text, true);
  std::vector<user_param> params;
  try {
    params = parse_user_params(inputs, outputs, kind);
  } catch (const jet::value_error& e) {
    require(*e.what() != 0, "a refused parameter list has a message");
    return 0;
  }
  check_accepted(params, kind);
  check_kernel_name_of(kernel_name, params);
  return 0;
}
