// The .npy header: a magic string, a version, a length, and a Python dict literal naming the
// descr, fortran_order and shape, padded with spaces to a multiple of 64 bytes.
#include "src/io/npy.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstring>

#include "jet/error.hpp"
#include "src/print/shown.hpp"

namespace jet::detail {
namespace {

constexpr std::string_view magic = "\x93NUMPY";
constexpr std::size_t align = 64;
// Spaces NumPy leaves so that the growing axis's length can be rewritten in place.
constexpr std::size_t growth_digits = 21;

struct descr_row {
  dtype type;
  const char* code;  // without the byte order
};
constexpr descr_row descrs[] = {
    {dtype::bool_, "b1"},   {dtype::int8, "i1"},      {dtype::int16, "i2"},
    {dtype::int32, "i4"},   {dtype::int64, "i8"},     {dtype::uint8, "u1"},
    {dtype::uint16, "u2"},  {dtype::uint32, "u4"},    {dtype::uint64, "u8"},
    {dtype::float16, "f2"}, {dtype::bfloat16, "V2"},  {dtype::float32, "f4"},
    {dtype::float64, "f8"}, {dtype::complex64, "c8"}, {dtype::complex128, "c16"},
};

[[noreturn]] void fail(const std::string& file, const std::string& what) {
  throw io_error(file + ": " + what);
}

// A little reader of the header's dict: {'descr': '<f4', 'fortran_order': False,
// 'shape': (2, 3), } with its keys in any order.
class dict_reader {
 public:
  dict_reader(std::string_view text, const std::string& file) : text_(text), file_(file) {}

  npy_header read() {
    npy_header h;
    bool descr = false, order = false, dims = false;
    expect('{');
    while (!peek('}')) {
      const std::string key = quoted();
      expect(':');
      if (key == "descr")
        descr = true, read_descr(h);
      else if (key == "fortran_order")
        order = true, h.fortran_order = boolean();
      else if (key == "shape")
        dims = true, h.dims = tuple();
      else
        fail(file_, "the header has an unknown key '" + key + "'");
      if (!peek(',')) break;
      expect(',');
    }
    expect('}');
    if (!descr || !order || !dims)
      fail(file_, "the header lacks one of 'descr', 'fortran_order' and 'shape'");
    return h;
  }

 private:
  void skip_spaces() {
    while (at_ < text_.size() && (text_[at_] == ' ' || text_[at_] == '\n')) ++at_;
  }
  bool peek(char c) {
    skip_spaces();
    return at_ < text_.size() && text_[at_] == c;
  }
  void expect(char c) {
    if (!peek(c))
      fail(file_, std::string("the header is malformed: expected '") + c + "' at " +
                      std::to_string(at_) + " in " + std::string(text_));
    ++at_;
  }
  std::string quoted() {
    skip_spaces();
    if (at_ >= text_.size() || (text_[at_] != '\'' && text_[at_] != '"'))
      fail(file_, "the header is malformed: expected a string in " + std::string(text_));
    const char quote = text_[at_++];
    const std::size_t end = text_.find(quote, at_);
    if (end == std::string_view::npos) fail(file_, "the header has an unterminated string");
    const std::string s(text_.substr(at_, end - at_));
    at_ = end + 1;
    return s;
  }
  bool boolean() {
    skip_spaces();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}})
      if (text_.substr(at_, std::strlen(word)) == word) {
        at_ += std::strlen(word);
        return value;
      }
    fail(file_, "the header's fortran_order is neither True nor False");
  }
  shape tuple() {
    expect('(');
    shape s;
    while (!peek(')')) {
      std::size_t digits = 0;
      while (at_ + digits < text_.size() &&
             std::isdigit(static_cast<unsigned char>(text_[at_ + digits])))
        ++digits;
      if (digits == 0 || digits > 18) fail(file_, "the header's shape is malformed");
      if (s.size() == max_ndim) fail(file_, "the array has more than 16 dimensions");
      s.push_back(std::stoll(std::string(text_.substr(at_, digits))));
      at_ += digits;
      if (!peek(',')) break;
      expect(',');
    }
    expect(')');
    return s;
  }
  void read_descr(npy_header& h) {
    if (peek('[')) fail(file_, "structured dtypes (a list descr) are not supported");
    const std::string d = quoted();
    if (d.size() < 2) fail(file_, "unsupported dtype descr '" + d + "'");
    const char order = d[0];
    const std::string code = d.substr(1);
    const auto row = std::find_if(std::begin(descrs), std::end(descrs),
                                  [&](const descr_row& r) { return code == r.code; });
    if ((order != '<' && order != '>' && order != '|' && order != '=') || row == std::end(descrs))
      fail(file_, "unsupported dtype descr '" + d + "'");
    h.type = row->type;
    h.big_endian = order == '>' && itemsize(h.type) > 1;
  }

  std::string_view text_;
  const std::string& file_;
  std::size_t at_ = 0;
};

}  // namespace

std::string npy_descr(dtype t) {
  const auto row = std::find_if(std::begin(descrs), std::end(descrs),
                                [&](const descr_row& r) { return r.type == t; });
  return std::string(itemsize(t) == 1 ? "|" : "<") + row->code;
}

npy_header read_npy_header(std::string_view bytes, const std::string& file) {
  if (bytes.size() < 10 || bytes.substr(0, magic.size()) != magic)
    fail(file, "not a .npy file (no magic string)");
  const int major = static_cast<unsigned char>(bytes[6]),
            minor = static_cast<unsigned char>(bytes[7]);
  if (major < 1 || major > 3 || minor != 0)
    fail(file,
         "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor));
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (bytes.size() < 8 + length_bytes) fail(file, "truncated in the header");
  std::size_t length = 0;
  for (std::size_t k = 0; k < length_bytes; ++k)
    length |= std::size_t{static_cast<unsigned char>(bytes[8 + k])} << (8 * k);
  const std::size_t start = 8 + length_bytes;
  if (bytes.size() < start + length) fail(file, "truncated in the header");
  npy_header h = dict_reader(bytes.substr(start, length), file).read();
  h.data_offset = start + length;
  return h;
}

std::string npy_header_bytes(dtype t, const shape& dims, bool fortran_order) {
  std::string dict = "{'descr': '" + npy_descr(t) +
                     "', 'fortran_order': " + (fortran_order ? "True" : "False") +
                     ", 'shape': " + python_tuple(dims) + ", }";
  if (dims.size() > 0) {
    const std::string growing = std::to_string(dims[fortran_order ? dims.size() - 1 : 0]);
    dict.append(growth_digits - std::min(growth_digits, growing.size()), ' ');
  }
  // Version 1.0 where its 2-byte length holds the padded header, else 2.0.
  const std::size_t length = dict.size() + 1;
  const bool version_1 = length + align - (10 + length) % align <= 65535;
  const std::size_t padding = align - ((version_1 ? 10 : 12) + length) % align;
  std::string out(magic);
  out += static_cast<char>(version_1 ? 1 : 2);
  out += '\0';
  const std::size_t total = length + padding;
  for (std::size_t k = 0; k < (version_1 ? 2u : 4u); ++k)
    out += static_cast<char>((total >> (8 * k)) & 0xff);
  return out + dict + std::string(padding, ' ') + "\n";
}

void swap_bytes(std::vector<std::byte>& data, dtype t) {
  const std::size_t width = static_cast<std::size_t>(is_complex(t) ? itemsize(t) / 2 : itemsize(t));
  for (std::size_t at = 0; at + width <= data.size(); at += width)
    std::reverse(data.begin() + static_cast<std::ptrdiff_t>(at),
                 data.begin() + static_cast<std::ptrdiff_t>(at + width));
}

}  // namespace jet::detail
