// The JSON that record files and `jet-cache --json` are written and read in.
#include <string>

#include "jet/error.hpp"
#include "src/cache/json.hpp"
#include "support/catch.hpp"

namespace json = jet::detail::json;

TEST_CASE("quoted strings parse back to the same bytes", "[host][cache]") {
  std::string all;
  for (int c = 0; c < 256; ++c) all += static_cast<char>(c);
  CHECK(json::parse(json::quote(all)).as_string() == all);
  CHECK(json::quote("a\"b\\c\nd\te\x01") == "\"a\\\"b\\\\c\\nd\\te\\u0001\"");
}

TEST_CASE("documents with every kind of value parse", "[host][cache]") {
  const json::value v = json::parse(
      " {\"n\": -12.5e1, \"t\": true, \"f\": false, \"z\": null, \"a\": [1, [], {}], "
      "\"s\": \"\\u00e9\\ud83d\\ude00\\/\"} ");
  CHECK(v["n"].as_number() == -125.0);
  CHECK(v["t"].boolean);
  CHECK(v["f"].type == json::value::kind::boolean);
  CHECK_FALSE(v["f"].boolean);
  CHECK(v["z"].type == json::value::kind::null);
  CHECK(v["a"].as_array().size() == 3);
  CHECK(v["a"].as_array()[1].as_array().empty());
  CHECK(v["s"].as_string() == "\xc3\xa9\xf0\x9f\x98\x80/");
  CHECK(v.contains("n"));
  CHECK_FALSE(v.contains("missing"));
  CHECK_THROWS_AS(v["missing"], jet::value_error);
  CHECK_THROWS_AS(v["n"].as_string(), jet::value_error);
}

TEST_CASE("malformed JSON is refused with the offset of the problem", "[host][cache]") {
  auto message = [](const std::string& text) {
    try {
      json::parse(text);
    } catch (const jet::value_error& e) {
      return std::string(e.what());
    }
    return std::string("parsed");
  };
  CHECK(message("{\"a\":1") == "invalid JSON at offset 6: unexpected end");
  CHECK(message("{\"a\" 1}") == "invalid JSON at offset 5: expected ':'");
  CHECK(message("[1 2]") == "invalid JSON at offset 3: expected ',' or ']'");
  CHECK(message("\"tab\there\"") == "invalid JSON at offset 5: control character in a string");
  CHECK(message("\"\\ud800x\"") == "invalid JSON at offset 7: expected \\u");
  CHECK(message("nul") == "invalid JSON at offset 0: expected null");
  CHECK(message("1 2") == "invalid JSON at offset 2: unexpected text after the value");
  CHECK(message("-") == "invalid JSON at offset 0: expected a value");
  CHECK(message(std::string(100, '[')).find("nested too deeply") != std::string::npos);
}
