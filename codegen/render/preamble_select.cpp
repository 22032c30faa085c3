// Which helpers a kernel's source holds: those its code names, and those they name in turn.
#include <array>
#include <cctype>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "codegen/render/preamble.hpp"

namespace jet::codegen {
namespace {

using names = std::unordered_set<std::string_view>;

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Adds to `used` the jet_ identifiers of `code`, outside // comments.
void add_names(std::string_view code, names& used) {
  std::size_t i = 0;
  while (i < code.size()) {
    if (code.compare(i, 2, "//") == 0) {
      i = code.find('\n', i);
      if (i == std::string_view::npos) return;
    } else if (identifier_char(code[i])) {
      const std::size_t start = i;
      while (i < code.size() && identifier_char(code[i])) ++i;
      const std::string_view word = code.substr(start, i - start);
      if (word.starts_with("jet_")) used.insert(word);
      continue;
    }
    ++i;
  }
}

std::vector<const helper*> table() {
  std::vector<const helper*> all;
  const std::array parts{base_helpers(),   complex_helpers(), scatter_helpers(),
                         reduce_helpers(), combine_helpers(), accumulator_helpers(),
                         scan_helpers(),   random_helpers()};
  for (std::span<const helper> part : parts)
    for (const helper& h : part) all.push_back(&h);
  return all;
}

}  // namespace

std::string helpers_named_by(const std::string& code) {
  static const std::vector<const helper*> helpers = table();
  names used;
  add_names(code, used);
  // Until no helper is added: a helper's `also` may be named by one that comes before it.
  std::vector<bool> taken(helpers.size());
  for (bool grew = true; grew;) {
    grew = false;
    for (std::size_t k = helpers.size(); k-- > 0;) {
      const helper& h = *helpers[k];
      if (taken[k] || !used.contains(h.name) || (h.also && !used.contains(h.also))) continue;
      taken[k] = true;
      add_names(h.code, used);
      grew = true;
    }
  }
  std::string s;
  for (std::size_t k = 0; k < helpers.size(); ++k)
    if (taken[k]) s += helpers[k]->code;
  return s;
}

}  // namespace jet::codegen
