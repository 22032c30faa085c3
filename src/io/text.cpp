// jet::savetxt and jet::loadtxt: delimited text as numpy.savetxt writes it and numpy.loadtxt
// reads it, through host memory.
#include <algorithm>
#include <cerrno>
#include <charconv>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

#include "jet/error.hpp"
#include "jet/io.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

// ---- savetxt --------------------------------------------------------------------------

// One printf conversion of a format: the text before it, and the conversion itself ("%.3f").
struct conversion {
  std::string before, spec;
};

// The conversions of `fmt` ("%%" is text), with the text after the last in `tail`.
std::vector<conversion> conversions(const std::string& fmt, std::string& tail) {
  std::vector<conversion> out;
  std::string text;
  for (std::size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      text += fmt[i];
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      text += '%';
      ++i;
      continue;
    }
    const std::size_t end = fmt.find_first_of("diouxXeEfFgGc", i + 1);
    const std::string spec = fmt.substr(i, end == std::string::npos ? end : end - i + 1);
    if (end == std::string::npos || spec.find_first_not_of("-+ #0123456789.", 1) != spec.size() - 1)
      throw value_error("savetxt: invalid format " + spec + " in '" + fmt + "'");
    out.push_back({text, spec});
    text.clear();
    i = end;
  }
  tail = text;
  return out;
}

// One value through one conversion: integers as long long, others as double, as Python's %.
// An unsigned array's integers print as unsigned ("%d" of 2^64 - 1 is 18446744073709551615).
std::string formatted(const std::string& spec, double value, std::int64_t integer,
                      bool unsigned_values) {
  std::string c = spec;
  if (spec.find_last_of("diouxXc") == spec.size() - 1) {
    if (unsigned_values && (c.back() == 'd' || c.back() == 'i')) c.back() = 'u';
    c.insert(c.size() - 1, "ll");
  }
  const bool as_integer = c.size() != spec.size();
  char small[64];
  const auto print = [&](char* to, std::size_t n) {
    return as_integer ? std::snprintf(to, n, c.c_str(), static_cast<long long>(integer))
                      : std::snprintf(to, n, c.c_str(), value);
  };
  const int n = print(small, sizeof small);
  if (n < 0) throw value_error("savetxt: cannot format a value with " + spec);
  if (static_cast<std::size_t>(n) < sizeof small)
    return std::string(small, static_cast<std::size_t>(n));
  std::string big(static_cast<std::size_t>(n) + 1, '\0');
  print(big.data(), big.size());
  big.resize(static_cast<std::size_t>(n));
  return big;
}

// The row's format as NumPy builds it: a one-value format repeated for each column (for
// complex, " (fmt+fmtj)"), joined by the delimiter; or a whole-row format as given.
std::string row_format(const savetxt_options& o, std::int64_t columns, bool complex) {
  const auto percents = std::count(o.fmt.begin(), o.fmt.end(), '%');
  if (percents == 1) {
    const std::string column = complex ? " (" + o.fmt + "+" + o.fmt + "j)" : o.fmt;
    std::string row = column;
    for (std::int64_t c = 1; c < columns; ++c) row += o.delimiter + column;
    return row;
  }
  if (percents != columns * (complex ? 2 : 1))
    throw value_error("savetxt: fmt has wrong number of % formats: " + o.fmt + " for " +
                      std::to_string(columns) + (complex ? " complex" : "") + " columns");
  return o.fmt;
}

// Header or footer lines, each prefixed by the comment string.
std::string commented(const std::string& text, const savetxt_options& o) {
  std::string out = o.comments;
  for (char ch : text) out += ch == '\n' ? "\n" + o.comments : std::string(1, ch);
  return out + o.newline;
}

// ---- loadtxt --------------------------------------------------------------------------

std::string_view trimmed(std::string_view s) {
  const std::size_t b = s.find_first_not_of(" \t\r\n\v\f");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\n\v\f") - b + 1);
}

// The fields of one line: split at each delimiter, or at runs of whitespace when it is empty.
std::vector<std::string_view> fields_of(std::string_view line, const std::string& delimiter) {
  std::vector<std::string_view> out;
  if (delimiter.empty()) {
    for (std::size_t i = 0;
         (i = line.find_first_not_of(" \t\r\v\f", i)) != std::string_view::npos;) {
      const std::size_t end = std::min(line.size(), line.find_first_of(" \t\r\v\f", i));
      out.push_back(line.substr(i, end - i));
      i = end;
    }
    return out;
  }
  for (std::size_t start = 0;;) {
    const std::size_t at = line.find(delimiter, start);
    out.push_back(trimmed(line.substr(start, at == std::string_view::npos ? at : at - start)));
    if (at == std::string_view::npos) return out;
    start = at + delimiter.size();
  }
}

template <class T>
bool parse_number(std::string_view s, T& out) {
  s = trimmed(s);
  if (s.size() > 1 && s[0] == '+' && s[1] != '-') s.remove_prefix(1);
  const auto [end, error] = std::from_chars(s.data(), s.data() + s.size(), out);
  return !s.empty() && error == std::errc() && end == s.data() + s.size();
}

// "1+2j", "(1+2j)", "2j", "-1.5e-3-2j" or a real number.
bool parse_complex(std::string_view s, std::complex<double>& out) {
  s = trimmed(s);
  if (s.size() >= 2 && s.front() == '(' && s.back() == ')') s = trimmed(s.substr(1, s.size() - 2));
  double re = 0, im = 0;
  if (s.empty() || (s.back() != 'j' && s.back() != 'J')) {
    out = {0, 0};
    return parse_number(s, re) && ((out = {re, 0}), true);
  }
  s.remove_suffix(1);
  std::size_t split = std::string_view::npos;
  for (std::size_t i = 1; i < s.size(); ++i)
    if ((s[i] == '+' || s[i] == '-') && s[i - 1] != 'e' && s[i - 1] != 'E') split = i;
  if (split == std::string_view::npos) return parse_number(s, im) && ((out = {0, im}), true);
  return parse_number(s.substr(0, split), re) && parse_number(s.substr(split), im) &&
         ((out = {re, im}), true);
}

// The table's values, kept in the widest host type of the requested dtype's kind.
struct table {
  std::vector<std::complex<double>> complex;
  std::vector<double> real;
  std::vector<std::int64_t> signed_int;
  std::vector<std::uint64_t> unsigned_int;
  std::int64_t rows = 0, columns = -1;

  bool add(std::string_view text, dtype_kind k) {
    switch (k) {
      case dtype_kind::complex: return parse_complex(text, complex.emplace_back());
      case dtype_kind::floating: return parse_number(text, real.emplace_back());
      case dtype_kind::unsigned_int: return parse_number(text, unsigned_int.emplace_back());
      default: return parse_number(text, signed_int.emplace_back());
    }
  }
  array to_device(dtype t, const shape& s) const {
    switch (kind(t)) {
      case dtype_kind::complex: return from_host(complex.data(), complex128, s).astype(t);
      case dtype_kind::floating: return from_host(real.data(), float64, s).astype(t);
      case dtype_kind::unsigned_int: return from_host(unsigned_int.data(), uint64, s).astype(t);
      default: return from_host(signed_int.data(), int64, s).astype(t);
    }
  }
};

// NumPy's squeeze-then-widen of loadtxt's 2-D result to at least `ndmin` dimensions.
shape result_shape(std::int64_t rows, std::int64_t columns, int ndmin) {
  if (rows == 0) return ndmin == 2 ? shape{0, 1} : shape{0};
  shape s{rows, columns};
  if (ndmin < 2) {
    shape squeezed;
    for (std::int64_t d : s)
      if (d != 1) squeezed.push_back(d);
    s = squeezed;
  }
  if (s.size() < ndmin) return ndmin == 1 ? shape{1} : shape{s.size() == 0 ? 1 : s[0], 1};
  return s;
}

void read_line(table& t, std::string_view line, std::int64_t index, const loadtxt_options& o,
               dtype type) {
  std::vector<std::string_view> fields = fields_of(line, o.delimiter);
  if (!o.usecols.empty()) {
    std::vector<std::string_view> picked;
    for (std::int64_t c : o.usecols) {
      const auto n = static_cast<std::int64_t>(fields.size());
      if (c < -n || c >= n)
        throw value_error("loadtxt: invalid column index " + std::to_string(c) + " at row " +
                          std::to_string(index + 1) + " with " + std::to_string(n) + " columns");
      picked.push_back(fields[static_cast<std::size_t>(c < 0 ? c + n : c)]);
    }
    fields = picked;
  }
  const auto n = static_cast<std::int64_t>(fields.size());
  if (t.columns >= 0 && n != t.columns)
    throw value_error("loadtxt: the number of columns changed from " + std::to_string(t.columns) +
                      " to " + std::to_string(n) + " at row " + std::to_string(index + 1) +
                      "; use `usecols` to select a subset and avoid this error");
  t.columns = n;
  for (std::size_t c = 0; c < fields.size(); ++c)
    if (!t.add(fields[c], kind(type)))
      throw value_error("loadtxt: could not convert string '" + std::string(fields[c]) + "' to " +
                        std::string(name(type)) + " at row " + std::to_string(index) + ", column " +
                        std::to_string(c + 1) + ".");
  ++t.rows;
}

}  // namespace

void savetxt(const std::string& path, const expr& e, const savetxt_options& o) {
  const array a = detail::as_array(e);
  if (a.ndim() != 1 && a.ndim() != 2)
    throw value_error("savetxt: expected a 1-D or 2-D array, got " + std::to_string(a.ndim()) +
                      "-D");
  const std::int64_t rows = a.shape()[0], columns = a.ndim() == 1 ? 1 : a.shape()[1];
  const bool complex = is_complex(a.dtype());
  std::string tail;
  const std::vector<conversion> format = conversions(row_format(o, columns, complex), tail);
  const bool unsigned_values = kind(a.dtype()) == dtype_kind::unsigned_int;
  const bool exact = !complex && kind(a.dtype()) != dtype_kind::floating;
  // One copy to the host: integers exactly (their double computed here, as astype would), or
  // every other dtype as complex128.
  std::vector<std::int64_t> integers;
  std::vector<std::complex<double>> values;
  if (exact) {
    integers = a.astype(unsigned_values ? uint64 : int64).to_vector<std::int64_t>();
    values.reserve(integers.size());
    for (std::int64_t i : integers)
      values.emplace_back(unsigned_values ? static_cast<double>(static_cast<std::uint64_t>(i))
                                          : static_cast<double>(i));
  } else {
    values = a.astype(complex128).to_vector<std::complex<double>>();
  }
  std::string out = o.header.empty() ? "" : commented(o.header, o);
  for (std::int64_t r = 0; r < rows; ++r) {
    std::string line;
    for (std::size_t k = 0; k < format.size(); ++k) {
      const std::size_t i = static_cast<std::size_t>(r * columns) + (complex ? k / 2 : k);
      const double v = complex && k % 2 ? values[i].imag() : values[i].real();
      line += format[k].before + formatted(format[k].spec, v,
                                           exact ? integers[i] : static_cast<std::int64_t>(v),
                                           unsigned_values);
    }
    line += tail;
    for (std::size_t at; complex && (at = line.find("+-")) != std::string::npos;) line.erase(at, 1);
    out += line + o.newline;
  }
  if (!o.footer.empty()) out += commented(o.footer, o);
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(out.data(), static_cast<std::streamsize>(out.size()));
  file.close();
  if (!file) throw io_error(path + ": cannot write: " + std::strerror(errno));
}

array loadtxt(const std::string& path, dtype type, const loadtxt_options& o) {
  if (o.ndmin < 0 || o.ndmin > 2)
    throw value_error("loadtxt: ndmin must be 0, 1 or 2, not " + std::to_string(o.ndmin));
  std::ifstream in(path, std::ios::binary);
  if (!in) throw io_error(path + ": cannot open: " + std::strerror(errno));
  table t;
  std::string line;
  for (std::int64_t index = 0; std::getline(in, line); ++index) {
    if (index < o.skiprows) continue;
    if (o.max_rows && t.rows >= *o.max_rows) break;
    std::string_view text = line;
    if (!o.comments.empty()) text = text.substr(0, text.find(o.comments));
    if (trimmed(text).empty()) continue;
    read_line(t, text, index, o, type);
  }
  if (in.bad()) throw io_error(path + ": cannot read: " + std::strerror(errno));
  return t.to_device(type, result_shape(t.rows, t.columns, o.ndmin));
}

}  // namespace jet
