// Just enough JSON for Jet's own files: quoting strings for output (record files,
// `jet-cache --json`) and reading such text back (`jet-cache warm`, the CLI's tests).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace jet::detail::json {

// `text` as a JSON string literal, quotes included; control characters escaped.
std::string quote(std::string_view text);

// A parsed JSON value.
struct value {
  enum class kind { null, boolean, number, string, array, object };
  kind type = kind::null;
  bool boolean = false;
  double number = 0;
  std::string string;
  std::vector<value> items;                            // an array's elements
  std::vector<std::pair<std::string, value>> members;  // an object's members, in order

  // The member `key` of an object; throws jet::value_error when there is none.
  const value& operator[](std::string_view key) const;
  // Whether an object has member `key`.
  bool contains(std::string_view key) const;
  // The string, number or array this value must be; throws jet::value_error otherwise.
  const std::string& as_string() const;
  double as_number() const;
  const std::vector<value>& as_array() const;
};

// Parses one JSON document; throws jet::value_error naming the offset of the first problem.
value parse(std::string_view text);

}  // namespace jet::detail::json
