// One include for Catch2 v2 (Debian 12) and v3 (Ubuntu 24.04).
#pragma once

#if __has_include(<catch2/catch_test_macros.hpp>)
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
namespace jet_test {
inline auto contains(const std::string& s) { return Catch::Matchers::ContainsSubstring(s); }
}  // namespace jet_test
#else
#include <catch2/catch.hpp>
namespace jet_test {
inline auto contains(const std::string& s) { return Catch::Matchers::Contains(s); }
}  // namespace jet_test
#endif
