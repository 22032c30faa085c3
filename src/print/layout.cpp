// The layout of NumPy's array2string (numpy/_core/arrayprint.py's _formatArray, legacy mode
// off): nested brackets, rows wrapped at the line width, "..." where an axis is summarized, and
// repr's "array(" with the shape and dtype NumPy adds where they cannot be read from the text.
#include <string>
#include <vector>

#include "src/print/shown.hpp"

namespace jet::detail {
namespace {

std::string rstripped(const std::string& s) { return s.substr(0, s.find_last_not_of(' ') + 1); }

// Adds `word` to `line`, first moving `line` into `text` and starting a new one where the word
// would pass `width` (unless the line holds nothing but its prefix).
void extend(std::string& text, std::string& line, const std::string& word, std::size_t width,
            const std::string& next_prefix) {
  if (line.size() + word.size() > width && line.size() > next_prefix.size()) {
    text += rstripped(line) + "\n";
    line = next_prefix;
  }
  line += word;
}

class nested_text {
 public:
  nested_text(const shown_elements& e, const shape& full, const print_options& o,
              const std::string& separator)
      : words_(format_elements(e, o)),
        full_(full),
        shown_(e.dims),
        summarize_(full.product() > o.threshold),
        edge_(o.edgeitems),
        separator_(separator) {}

  // The subarray at flat position `offset` of the shown elements, from `axis` on.
  std::string of(int axis, std::int64_t offset, const std::string& hanging, int width) const {
    if (axis == full_.size()) return words_[static_cast<std::size_t>(offset)];
    const std::int64_t length = full_[axis], shown = shown_[axis];
    const bool summary = summarize_ && 2 * std::int64_t{edge_} < length;
    const std::int64_t leading = summary ? edge_ : 0, trailing = summary ? edge_ : length;
    std::int64_t stride = 1;
    for (int k = axis + 1; k < shown_.size(); ++k) stride *= shown_[k];
    const auto item = [&](std::int64_t k) {
      return of(axis + 1, offset + k * stride, hanging + " ", width - 1);
    };
    std::string text;
    if (axis == full_.size() - 1) {
      const std::size_t element_width =
          static_cast<std::size_t>(width) - std::max<std::size_t>(rstripped(separator_).size(), 1);
      std::string line = hanging;
      for (std::int64_t i = 0; i < leading; ++i) {
        extend(text, line, item(i), element_width, hanging);
        line += separator_;
      }
      if (summary) {
        extend(text, line, "...", element_width, hanging);
        line += separator_;
      }
      for (std::int64_t i = trailing; i > 1; --i) {
        extend(text, line, item(shown - i), element_width, hanging);
        line += separator_;
      }
      extend(text, line, item(shown - 1), element_width, hanging);
      text += line;
    } else {
      const std::string between =
          rstripped(separator_) +
          std::string(static_cast<std::size_t>(full_.size() - axis - 1), '\n');
      for (std::int64_t i = 0; i < leading; ++i) text += hanging + item(i) + between;
      if (summary) text += hanging + "..." + between;
      for (std::int64_t i = trailing; i > 1; --i) text += hanging + item(shown - i) + between;
      text += hanging + item(shown - 1);
    }
    return "[" + text.substr(hanging.size()) + "]";
  }

 private:
  std::vector<std::string> words_;
  const shape& full_;
  const shape& shown_;
  bool summarize_;
  int edge_;
  std::string separator_;
};

// The dtypes repr leaves unnamed: NumPy's default int, float, complex and bool.
bool implied(dtype t) {
  return t == dtype::int64 || t == dtype::float64 || t == dtype::complex128 || t == dtype::bool_;
}

}  // namespace

std::string python_tuple(const shape& s) {
  std::string text = "(";
  for (int k = 0; k < s.size(); ++k) text += (k ? ", " : "") + std::to_string(s[k]);
  return text + (s.size() == 1 ? ",)" : ")");
}

std::string elements_text(const shown_elements& e, const shape& full, const print_options& o,
                          const std::string& separator, const std::string& prefix,
                          int suffix_length) {
  const nested_text nested(e, full, o, separator);
  return nested.of(0, 0, " " + std::string(prefix.size(), ' '), o.linewidth - suffix_length);
}

std::string repr_text(const shown_elements& e, const shape& full, const print_options& o) {
  const std::string prefix = "array(";
  const std::int64_t size = full.product();
  const std::string body = size == 0 ? "[]" : elements_text(e, full, o, ", ", prefix, 1);
  std::vector<std::string> extras;
  if ((size == 0 && !(full == shape{0})) || size > o.threshold)
    extras.push_back("shape=" + python_tuple(full));
  if (!implied(e.type) || size == 0) extras.push_back("dtype=" + std::string(name(e.type)));
  if (extras.empty()) return prefix + body + ")";
  const std::string text = prefix + body + ",";
  std::string extra = extras[0];
  for (std::size_t k = 1; k < extras.size(); ++k) extra += ", " + extras[k];
  extra += ")";
  const std::size_t newline = text.rfind('\n');
  const std::size_t last_line = text.size() - (newline == std::string::npos ? 0 : newline + 1);
  const bool wraps = last_line + extra.size() + 1 > static_cast<std::size_t>(o.linewidth);
  return text + (wraps ? "\n" + std::string(prefix.size(), ' ') : " ") + extra;
}

std::string str_text(const shown_elements& e, const shape& full, const print_options& o) {
  if (full.size() == 0) return scalar_str(e);
  if (full.product() == 0) return "[]";
  return elements_text(e, full, o, " ", "", 0);
}

}  // namespace jet::detail
