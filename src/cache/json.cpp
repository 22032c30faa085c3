// Quoting and parsing JSON.
#include "src/cache/json.hpp"

#include <cstdlib>

#include "jet/error.hpp"

namespace jet::detail::json {
namespace {

// Deep enough for any file Jet writes; stops a hostile file from exhausting the stack.
constexpr int max_depth = 64;

class parser {
 public:
  explicit parser(std::string_view text) : text_(text) {}

  value document() {
    value v = parse_value(0);
    skip_space();
    if (at_ < text_.size()) fail("unexpected text after the value");
    return v;
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    throw value_error("invalid JSON at offset " + std::to_string(at_) + ": " + what);
  }
  void skip_space() {
    while (at_ < text_.size() &&
           (text_[at_] == ' ' || text_[at_] == '\t' || text_[at_] == '\n' || text_[at_] == '\r'))
      ++at_;
  }
  char next() {
    if (at_ >= text_.size()) fail("unexpected end");
    return text_[at_++];
  }
  // Consumes one character, which must be one of `allowed`.
  char take_one_of(std::string_view allowed, const char* what) {
    if (at_ >= text_.size()) fail("unexpected end");
    if (allowed.find(text_[at_]) == std::string_view::npos) fail(what);
    return text_[at_++];
  }
  void expect(std::string_view word) {
    if (text_.substr(at_, word.size()) != word) fail("expected " + std::string(word));
    at_ += word.size();
  }

  value parse_value(int depth) {
    if (depth > max_depth) fail("nested too deeply");
    skip_space();
    if (at_ >= text_.size()) fail("unexpected end");
    value v;
    const char c = text_[at_];
    if (c == '{') {
      v.type = value::kind::object;
      ++at_;
      skip_space();
      if (at_ < text_.size() && text_[at_] == '}') {
        ++at_;
        return v;
      }
      for (;;) {
        skip_space();
        if (at_ >= text_.size() || text_[at_] != '"') fail("expected a member name");
        std::string key = parse_string();
        skip_space();
        take_one_of(":", "expected ':'");
        v.members.emplace_back(std::move(key), parse_value(depth + 1));
        skip_space();
        if (take_one_of(",}", "expected ',' or '}'") == '}') return v;
      }
    }
    if (c == '[') {
      v.type = value::kind::array;
      ++at_;
      skip_space();
      if (at_ < text_.size() && text_[at_] == ']') {
        ++at_;
        return v;
      }
      for (;;) {
        v.items.push_back(parse_value(depth + 1));
        skip_space();
        if (take_one_of(",]", "expected ',' or ']'") == ']') return v;
      }
    }
    if (c == '"') {
      v.type = value::kind::string;
      v.string = parse_string();
    } else if (c == 't') {
      expect("true");
      v.type = value::kind::boolean;
      v.boolean = true;
    } else if (c == 'f') {
      expect("false");
      v.type = value::kind::boolean;
    } else if (c == 'n') {
      expect("null");
    } else {
      v.type = value::kind::number;
      v.number = parse_number();
    }
    return v;
  }

  double parse_number() {
    const std::size_t start = at_;
    while (at_ < text_.size() &&
           std::string_view("+-0123456789.eE").find(text_[at_]) != std::string_view::npos)
      ++at_;
    const std::string digits(text_.substr(start, at_ - start));
    char* end = nullptr;
    const double n = std::strtod(digits.c_str(), &end);
    if (digits.empty() || end != digits.c_str() + digits.size()) {
      at_ = start;
      fail("expected a value");
    }
    return n;
  }

  unsigned hex4() {
    unsigned code = 0;
    for (int i = 0; i < 4; ++i) {
      const char h = next();
      code <<= 4;
      if (h >= '0' && h <= '9')
        code |= static_cast<unsigned>(h - '0');
      else if (h >= 'a' && h <= 'f')
        code |= static_cast<unsigned>(h - 'a' + 10);
      else if (h >= 'A' && h <= 'F')
        code |= static_cast<unsigned>(h - 'A' + 10);
      else
        fail("bad \\u escape");
    }
    return code;
  }

  static void append_utf8(std::string& out, unsigned code) {
    if (code < 0x80) {
      out += static_cast<char>(code);
    } else if (code < 0x800) {
      out += static_cast<char>(0xc0 | (code >> 6));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else if (code < 0x10000) {
      out += static_cast<char>(0xe0 | (code >> 12));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    } else {
      out += static_cast<char>(0xf0 | (code >> 18));
      out += static_cast<char>(0x80 | ((code >> 12) & 0x3f));
      out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
      out += static_cast<char>(0x80 | (code & 0x3f));
    }
  }

  std::string parse_string() {
    ++at_;  // the opening quote
    std::string out;
    for (;;) {
      const char c = next();
      if (c == '"') return out;
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in a string");
      if (c != '\\') {
        out += c;
        continue;
      }
      switch (const char e = next()) {
        case '"':
        case '\\':
        case '/':
          out += e;
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'n':
          out += '\n';
          break;
        case 'r':
          out += '\r';
          break;
        case 't':
          out += '\t';
          break;
        case 'u': {
          unsigned code = hex4();
          if (code >= 0xd800 && code < 0xdc00) {  // a surrogate pair spells one code point
            expect("\\u");
            const unsigned low = hex4();
            if (low < 0xdc00 || low >= 0xe000) fail("unpaired surrogate");
            code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
          }
          append_utf8(out, code);
          break;
        }
        default:
          fail("bad escape");
      }
    }
  }

  std::string_view text_;
  std::size_t at_ = 0;
};

}  // namespace

std::string quote(std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out = "\"";
  out.reserve(text.size() + 2);
  for (const char c : text) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          out += "\\u00";
          out += hex[(c >> 4) & 15];
          out += hex[c & 15];
        } else {
          out += c;
        }
    }
  }
  return out += '"';
}

const value& value::operator[](std::string_view key) const {
  for (const auto& [name, member] : members)
    if (name == key) return member;
  throw value_error("JSON object has no member \"" + std::string(key) + "\"");
}

bool value::contains(std::string_view key) const {
  for (const auto& member : members)
    if (member.first == key) return true;
  return false;
}

const std::string& value::as_string() const {
  if (type != kind::string) throw value_error("JSON value is not a string");
  return string;
}

double value::as_number() const {
  if (type != kind::number) throw value_error("JSON value is not a number");
  return number;
}

const std::vector<value>& value::as_array() const {
  if (type != kind::array) throw value_error("JSON value is not an array");
  return items;
}

value parse(std::string_view text) { return parser(text).document(); }

}  // namespace jet::detail::json
