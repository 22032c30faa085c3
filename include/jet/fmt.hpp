// fmt::format("{}", a) for Jet's arrays and expressions: array_str(a), as print(a) in NumPy.
// A header of its own: only programs that use fmt include it.
#pragma once

#include <fmt/format.h>

#include <string_view>

#include "jet/printing.hpp"

template <>
struct fmt::formatter<jet::array> : fmt::formatter<std::string_view> {
  auto format(const jet::array& a, fmt::format_context& context) const {
    return fmt::formatter<std::string_view>::format(jet::array_str(a), context);
  }
};

template <>
struct fmt::formatter<jet::expr> : fmt::formatter<std::string_view> {
  auto format(const jet::expr& a, fmt::format_context& context) const {
    return fmt::formatter<std::string_view>::format(jet::array_str(a), context);
  }
};
