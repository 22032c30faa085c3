// NVRTC's log and images, read back.
#include "src/nvrtc/output.hpp"

#include <elf.h>

#include <cctype>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string_view>

namespace jet::detail {
namespace {

// Where a diagnostic line of NVRTC's log ("k.cu(12): error: ...") says it is, and its kind.
struct diagnostic {
  std::string_view file;
  std::string_view line;
  std::string_view kind;  // "error", "catastrophic error", "warning #20283-D"
};

// The diagnostic that `text` starts, if it starts one. Quoted source lines and notes are
// indented, so a line that starts with a space starts none.
std::optional<diagnostic> diagnostic_of(std::string_view text) {
  if (text.empty() || text[0] == ' ') return std::nullopt;
  for (std::size_t open = text.find('('); open != std::string_view::npos;
       open = text.find('(', open + 1)) {
    std::size_t close = open + 1;
    while (close < text.size() && std::isdigit(static_cast<unsigned char>(text[close]))) ++close;
    if (close == open + 1 || text.substr(close, 3) != "): ") continue;
    const std::string_view rest = text.substr(close + 3);
    return diagnostic{text.substr(0, open), text.substr(open + 1, close - open - 1),
                      rest.substr(0, rest.find(':'))};
  }
  return std::nullopt;
}

// Copies the object at `offset` of `image` into `out`; false when it does not lie inside.
template <class T>
bool read_at(std::string_view image, std::uint64_t offset, T& out) {
  if (offset > image.size() || sizeof(T) > image.size() - offset) return false;
  std::memcpy(&out, image.data() + offset, sizeof(T));
  return true;
}

// The NUL-terminated name at `offset` of the string table `strings`, or "" when it is not there.
std::string_view name_at(std::string_view image, const Elf64_Shdr& strings, std::uint64_t offset) {
  if (strings.sh_offset > image.size() || offset >= strings.sh_size) return {};
  const std::string_view table =
      image.substr(strings.sh_offset,
                   std::min<std::uint64_t>(strings.sh_size, image.size() - strings.sh_offset));
  if (offset >= table.size()) return {};
  const std::string_view rest = table.substr(offset);
  return rest.substr(0, rest.find('\0'));
}

// A cubin is an ELF file; its kernels are the global (or, for templates, weak) functions of
// its symbol table.
bool cubin_defines(std::string_view image, std::string_view name) {
  Elf64_Ehdr elf{};
  if (!read_at(image, 0, elf) || std::memcmp(elf.e_ident, ELFMAG, SELFMAG) != 0 ||
      elf.e_ident[EI_CLASS] != ELFCLASS64)
    return false;
  const auto section = [&](std::uint64_t k, Elf64_Shdr& out) {
    return k < elf.e_shnum && read_at(image, elf.e_shoff + k * sizeof(Elf64_Shdr), out);
  };
  for (std::uint64_t s = 0; s < elf.e_shnum; ++s) {
    Elf64_Shdr symbols{}, strings{};
    if (!section(s, symbols) || symbols.sh_type != SHT_SYMTAB || !section(symbols.sh_link, strings))
      continue;
    for (std::uint64_t at = 0; at + sizeof(Elf64_Sym) <= symbols.sh_size; at += sizeof(Elf64_Sym)) {
      Elf64_Sym symbol{};
      if (!read_at(image, symbols.sh_offset + at, symbol)) break;
      const int bind = ELF64_ST_BIND(symbol.st_info);
      if (ELF64_ST_TYPE(symbol.st_info) == STT_FUNC && (bind == STB_GLOBAL || bind == STB_WEAK) &&
          name_at(image, strings, symbol.st_name) == name)
        return true;
    }
  }
  return false;
}

// PTX declares each kernel as ".entry name(".
bool ptx_defines(std::string_view ptx, std::string_view name) {
  const std::string entry = ".entry " + std::string(name);
  for (std::size_t at = ptx.find(entry); at != std::string_view::npos;
       at = ptx.find(entry, at + 1)) {
    const std::size_t end = at + entry.size();
    if (end < ptx.size() && (ptx[end] == '(' || std::isspace(static_cast<unsigned char>(ptx[end]))))
      return true;
  }
  return false;
}

}  // namespace

std::string log_of_own_source(const std::string& log, const std::string& name,
                              std::size_t max_lines) {
  const std::string own = program_file_name(name);
  std::string out;
  std::size_t lines = 0, cut = 0;
  const auto keep = [&](std::string_view text) {
    if (lines == max_lines) {
      ++cut;
      return;
    }
    out.append(text).push_back('\n');
    ++lines;
  };
  bool withheld = false;  // inside a diagnostic of another file
  for (std::size_t start = 0; start < log.size();) {
    const std::size_t end = std::min(log.find('\n', start), log.size());
    const std::string_view text = std::string_view(log).substr(start, end - start);
    start = end + 1;
    if (const std::optional<diagnostic> d = diagnostic_of(text)) {
      // NVRTC writes name expressions (the caller's own text) into a file of its own.
      withheld = d->file != own && d->file != "__nv_name_map";
      if (withheld) {
        keep(std::string(d->file) + "(" + std::string(d->line) + "): " + std::string(d->kind) +
             " in an included file (its text is not shown)");
        continue;
      }
    } else if (text.empty() && withheld) {
      withheld = false;  // a diagnostic ends with an empty line
      continue;
    } else if (withheld) {
      continue;
    }
    keep(text);
  }
  if (cut) out += "(" + std::to_string(cut) + " more lines of the log are not shown)\n";
  while (!out.empty() && out.back() == '\n') out.pop_back();
  return out;
}

bool defines_kernel(const compiled_kernel& compiled, const std::string& name) {
  const std::string_view image(compiled.image.data(), compiled.image.size());
  return compiled.arch.rfind("compute_", 0) == 0 ? ptx_defines(image, name)
                                                 : cubin_defines(image, name);
}

}  // namespace jet::detail
