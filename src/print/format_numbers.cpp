// Each element's text as NumPy's array2string writes it (numpy/_core/arrayprint.py's
// FloatingFormat, ComplexFloatingFormat, IntegerFormat and BoolFormat, legacy mode off), and a
// 0-d array's scalar str. Floating values print with their own dtype's shortest round-trip
// digits (NumPy's Dragon4 with unique=True), here from std::to_chars.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "src/print/shown.hpp"

namespace jet::detail {
namespace {

// A positive decimal: digits d0 d1 ... (no trailing zeros, "0" for zero) of value
// d0.d1... x 10^exponent.
struct decimal {
  std::string digits;
  int exponent = 0;
};

decimal parse_scientific(std::string_view text) {
  const std::size_t e = text.find('e');
  decimal d;
  for (char c : text.substr(0, e))
    if (c != '.') d.digits += c;
  d.exponent = std::atoi(std::string(text.substr(e + 1)).c_str());
  return d;
}

// `a` in scientific notation: the shortest that reads back as the same double, or with
// `precision` digits after the point, correctly rounded.
std::string scientific_chars(double a, std::optional<int> precision) {
  char text[64];
  const auto end =
      precision
          ? std::to_chars(text, text + sizeof text, a, std::chars_format::scientific, *precision)
          : std::to_chars(text, text + sizeof text, a, std::chars_format::scientific);
  return std::string(text, end.ptr);
}

// `a` with `precision` digits after the point, correctly rounded.
std::string fixed_chars(double a, int precision) {
  std::string text(400 + static_cast<std::size_t>(precision), '\0');
  const auto end =
      std::to_chars(text.data(), text.data() + text.size(), a, std::chars_format::fixed, precision);
  text.resize(static_cast<std::size_t>(end.ptr - text.data()));
  return text;
}

// Whether a and b round to the same value of the 16-bit dtype t.
bool same_16_bit(double a, double b, dtype t) {
  const auto fa = static_cast<float>(a), fb = static_cast<float>(b);
  if (t == dtype::float16) return float16_t(fa).bits == float16_t(fb).bits;
  return bfloat16_t(fa).bits == bfloat16_t(fb).bits;
}

// The shortest digits that read back as `a` (finite, not negative) in dtype t.
decimal shortest(double a, dtype t) {
  if (t == dtype::float32) {
    char text[64];
    const auto end = std::to_chars(text, text + sizeof text, static_cast<float>(a),
                                   std::chars_format::scientific);
    return parse_scientific(std::string_view(text, static_cast<std::size_t>(end.ptr - text)));
  }
  if (t == dtype::float16 || t == dtype::bfloat16)
    for (int digits = 0; digits < 17; ++digits) {
      const std::string text = scientific_chars(a, digits);
      if (same_16_bit(std::strtod(text.c_str(), nullptr), a, t)) {
        decimal d = parse_scientific(text);
        while (d.digits.size() > 1 && d.digits.back() == '0') d.digits.pop_back();
        return d;
      }
    }
  return parse_scientific(scientific_chars(a, std::nullopt));
}

// What Dragon4 is asked for (numpy.format_float_positional / format_float_scientific).
struct dragon4 {
  std::optional<int> precision;  // digits after the point at most (none: as unique needs)
  bool unique = true;            // shortest digits; else exactly `precision`, rounded
  int min_digits = 0;            // at least this many after the point (unique only)
  char trim = '.';               // 'k' keep zeros, '.' drop them, '0' keep one, '-' and the point
  bool plus = false;             // '+' before positive values
  int pad_left = 0, pad_right = 0, exp_digits = -1;
};

struct parts {
  std::string whole, fraction;
};

parts split_point(const std::string& text) {
  const std::size_t point = text.find('.');
  if (point == std::string::npos) return {text, ""};
  return {text.substr(0, point), text.substr(point + 1)};
}

// d's positional text, digits placed by its exponent.
std::string positional_digits(const decimal& d) {
  if (d.exponent < 0)
    return "0." + std::string(static_cast<std::size_t>(-d.exponent - 1), '0') + d.digits;
  std::string whole = d.digits.substr(0, std::min<std::size_t>(d.digits.size(), d.exponent + 1));
  whole.append(static_cast<std::size_t>(d.exponent + 1) - whole.size(), '0');
  const std::string fraction = d.digits.size() > whole.size()
                                   ? d.digits.substr(static_cast<std::size_t>(d.exponent + 1))
                                   : "";
  return fraction.empty() ? whole : whole + "." + fraction;
}

// The number's text from its parts: zeros trimmed, sign, padding.
std::string assemble(parts p, bool negative, const dragon4& o, const std::string& exponent = "") {
  if (o.trim != 'k')
    while (p.fraction.size() > static_cast<std::size_t>(std::max(o.min_digits, 0)) &&
           p.fraction.back() == '0')
      p.fraction.pop_back();
  if (o.trim == '0' && p.fraction.empty()) p.fraction = "0";
  std::string whole = (negative ? "-" : o.plus ? "+" : "") + p.whole;
  if (whole.size() < static_cast<std::size_t>(o.pad_left))
    whole.insert(0, static_cast<std::size_t>(o.pad_left) - whole.size(), ' ');
  std::string text = whole;
  if (o.trim != '-' || !p.fraction.empty()) text += "." + p.fraction;
  text += exponent;
  if (p.fraction.size() < static_cast<std::size_t>(o.pad_right))
    text.append(static_cast<std::size_t>(o.pad_right) - p.fraction.size(), ' ');
  return text;
}

// Dragon4's digits of a value: exactly `precision` after the point when not unique; else the
// shortest (`shortest_text`, `fraction` after the point), rounded to `precision` where they
// are more and extended to min_digits where fewer. `rounded(p)` writes the value with p digits
// after the point, correctly rounded.
template <class Rounded>
std::string digits_of(const dragon4& o, int fraction, const std::string& shortest_text,
                      Rounded rounded) {
  if (!o.unique) return rounded(o.precision.value_or(0));
  if (o.precision && fraction > *o.precision) return rounded(*o.precision);
  if (fraction < o.min_digits) return rounded(o.min_digits);
  return shortest_text;
}

std::string positional(double v, dtype t, const dragon4& o) {
  const double a = std::fabs(v);
  const decimal d = shortest(a, t);
  const int fraction = std::max(0, static_cast<int>(d.digits.size()) - 1 - d.exponent);
  const std::string text =
      digits_of(o, fraction, positional_digits(d), [a](int p) { return fixed_chars(a, p); });
  return assemble(split_point(text), std::signbit(v), o);
}

std::string scientific(double v, dtype t, const dragon4& o) {
  const double a = std::fabs(v);
  const decimal d = shortest(a, t);
  const std::string shortest_text =
      d.digits.substr(0, 1) + "." + d.digits.substr(1) + "e" + std::to_string(d.exponent);
  const std::string text = digits_of(o, static_cast<int>(d.digits.size()) - 1, shortest_text,
                                     [a](int p) { return scientific_chars(a, p); });
  const std::size_t e = text.find('e');
  const int exponent = std::atoi(text.c_str() + e + 1);
  std::string exponent_digits = std::to_string(std::abs(exponent));
  const std::size_t width = static_cast<std::size_t>(std::max(o.exp_digits, 2));
  if (exponent_digits.size() < width)
    exponent_digits.insert(0, width - exponent_digits.size(), '0');
  return assemble(split_point(text.substr(0, e)), std::signbit(v), o,
                  std::string("e") + (exponent < 0 ? "-" : "+") + exponent_digits);
}

std::size_t longest(const std::vector<std::string>& texts) {
  std::size_t n = 0;
  for (const std::string& s : texts) n = std::max(n, s.size());
  return n;
}

// NumPy's FloatingFormat: one format for all of `data`, chosen from its finite values.
class float_format {
 public:
  float_format(const std::vector<double>& data, dtype t, const print_options& o, char sign)
      : type_(t), options_(o), sign_(sign) {
    if (o.floatmode != "unique") precision_ = o.precision;
    std::vector<double> finite;
    for (double x : data)
      if (std::isfinite(x)) finite.push_back(x);
    choose_notation(finite);
    measure(finite);
    if (sign_ == ' ' &&
        std::none_of(finite.begin(), finite.end(), [](double x) { return std::signbit(x); }))
      ++pad_left_;
    if (finite.size() != data.size()) {
      const bool negative_infinity =
          sign_ != '-' ||
          std::any_of(data.begin(), data.end(), [](double x) { return std::isinf(x) && x < 0; });
      const int offset = pad_right_ + 1;
      pad_left_ =
          std::max({pad_left_, static_cast<int>(o.nanstr.size()) - offset,
                    static_cast<int>(o.infstr.size()) + (negative_infinity ? 1 : 0) - offset});
    }
  }

  std::string operator()(double x) const {
    if (!std::isfinite(x)) {
      const std::string text = std::isnan(x) ? (sign_ == '+' ? "+" : "") + options_.nanstr
                                             : (x < 0          ? "-"
                                                : sign_ == '+' ? "+"
                                                               : "") +
                                                   options_.infstr;
      const int width = pad_left_ + pad_right_ + 1;
      return std::string(
                 static_cast<std::size_t>(std::max(0, width - static_cast<int>(text.size()))),
                 ' ') +
             text;
    }
    dragon4 d{.precision = precision_,
              .unique = unique_,
              .min_digits = min_digits_,
              .trim = trim_,
              .plus = sign_ == '+',
              .pad_left = pad_left_};
    if (exp_format_) {
      d.exp_digits = exp_size_;
      return scientific(x, type_, d);
    }
    d.pad_right = pad_right_;
    return positional(x, type_, d);
  }

 private:
  void choose_notation(const std::vector<double>& finite) {
    double most = 0, least = INFINITY;
    for (double x : finite)
      if (x != 0) most = std::max(most, std::fabs(x)), least = std::min(least, std::fabs(x));
    if (most == 0) return;  // no finite non-zero value
    exp_format_ = most >= 1e8 || (!options_.suppress && (least < 0.0001 || most / least > 1000.0));
  }

  // A first pass over the finite values: how wide each part of every element is.
  void measure(const std::vector<double>& finite) {
    if (finite.empty()) return;
    const bool fixed = options_.floatmode == "fixed";
    dragon4 first;
    first.precision = precision_;
    first.unique = !fixed;
    first.trim = fixed ? 'k' : '.';
    first.plus = sign_ == '+';
    std::vector<std::string> wholes, fractions, exponents;
    for (double x : finite) {
      const std::string text =
          exp_format_ ? scientific(x, type_, first) : positional(x, type_, first);
      const std::size_t e = exp_format_ ? text.find('e') : text.size();
      const parts p = split_point(text.substr(0, e));
      wholes.push_back(p.whole);
      fractions.push_back(p.fraction);
      if (exp_format_) exponents.push_back(text.substr(e + 1));
    }
    unique_ = !fixed;
    pad_left_ = static_cast<int>(longest(wholes));
    if (exp_format_) {
      exp_size_ = static_cast<int>(longest(exponents)) - 1;
      trim_ = 'k';
      precision_ = min_digits_ = static_cast<int>(longest(fractions));
      pad_right_ = exp_size_ + 2 + *precision_;
      return;
    }
    pad_right_ = static_cast<int>(longest(fractions));
    if (fixed || options_.floatmode == "maxprec_equal") {
      precision_ = min_digits_ = pad_right_;
      trim_ = 'k';
    }
  }

  dtype type_;
  const print_options& options_;
  char sign_;
  std::optional<int> precision_;
  bool exp_format_ = false, unique_ = true;
  int pad_left_ = 0, pad_right_ = 0, exp_size_ = -1, min_digits_ = 0;
  char trim_ = '.';
};

std::vector<std::string> integer_texts(const shown_elements& e, const print_options& o) {
  const bool any_negative = std::any_of(e.integers.begin(), e.integers.end(),
                                        [](const std::string& s) { return s[0] == '-'; });
  const char sign = o.sign == ' ' && any_negative ? '-' : o.sign;
  std::vector<std::string> texts;
  for (const std::string& s : e.integers)
    texts.push_back(s[0] != '-' && sign != '-' ? sign + s : s);
  const std::size_t width = longest(texts);
  for (std::string& s : texts) s.insert(0, width - s.size(), ' ');
  return texts;
}

std::vector<std::string> bool_texts(const shown_elements& e) {
  const std::string yes = e.dims.size() == 0 ? "True" : " True";
  std::vector<std::string> texts;
  for (const std::string& s : e.integers) texts.push_back(s == "0" ? "False" : yes);
  return texts;
}

std::vector<std::string> complex_texts(const shown_elements& e, const print_options& o) {
  const dtype part = real_dtype(e.type);
  const float_format real(e.real, part, o, o.sign), imag(e.imag, part, o, '+');
  std::vector<std::string> texts;
  for (std::size_t k = 0; k < e.real.size(); ++k) {
    std::string i = imag(e.imag[k]);
    const std::size_t end = i.find_last_not_of(' ') + 1;
    i.insert(end, "j");
    texts.push_back(real(e.real[k]) + i);
  }
  return texts;
}

// NumPy's scalar str of a real value: positional from 1e-4 to 1e16, else scientific.
std::string real_scalar_str(double v, dtype t, char positional_trim, bool plus) {
  if (std::isnan(v)) return plus ? "+nan" : "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : plus ? "+inf" : "inf";
  const double a = std::fabs(v);
  dragon4 d;
  d.plus = plus;
  const bool small_range = a == 0 || (a < 1e16 && a >= 1e-4);
  d.trim = small_range ? positional_trim : '-';
  return small_range ? positional(v, t, d) : scientific(v, t, d);
}

}  // namespace

std::vector<std::string> format_elements(const shown_elements& e, const print_options& o) {
  if (e.type == dtype::bool_) return bool_texts(e);
  if (is_integer(e.type)) return integer_texts(e, o);
  if (is_complex(e.type)) return complex_texts(e, o);
  const float_format format(e.real, e.type, o, o.sign);
  std::vector<std::string> texts;
  for (double x : e.real) texts.push_back(format(x));
  return texts;
}

std::string scalar_str(const shown_elements& e) {
  if (e.type == dtype::bool_) return e.integers.at(0) == "0" ? "False" : "True";
  if (is_integer(e.type)) return e.integers.at(0);
  if (!is_complex(e.type)) return real_scalar_str(e.real.at(0), e.type, '0', false);
  const dtype part = real_dtype(e.type);
  const double re = e.real.at(0), im = e.imag.at(0);
  if (re == 0 && !std::signbit(re)) return real_scalar_str(im, part, '-', false) + "j";
  return "(" + real_scalar_str(re, part, '-', false) + real_scalar_str(im, part, '-', true) + "j)";
}

}  // namespace jet::detail
