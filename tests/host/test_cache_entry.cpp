// The on-disk entry format: every damaged variant of a file is refused, never misread.
#include <cstring>
#include <string>
#include <vector>

#include "src/cache/entry.hpp"
#include "support/catch.hpp"

namespace {

using jet::detail::cache_entry;
using jet::detail::entry_status;

const std::string key_a(64, 'a');

cache_entry sample() {
  cache_entry e;
  e.header.key = key_a;
  e.header.name = "k7";
  e.header.arch = "sm_90";
  e.header.options = {"--gpu-architecture=sm_90", "-std=c++17"};
  e.header.nvrtc_version = "13.0";
  e.header.jet_version = "0.1.0";
  e.header.created = 1700000000;
  e.header.compile_us = 36000;
  e.source = "extern \"C\" __global__ void k7(float* p) { p[0] = 7; }\n";
  for (int i = 0; i < 300; ++i) e.image.push_back(static_cast<char>(i * 7));
  return e;
}

entry_status decode(const std::vector<char>& bytes, const std::string& key = key_a) {
  cache_entry out;
  return jet::detail::decode_entry(bytes, key, out).status;
}

}  // namespace

TEST_CASE("an encoded entry decodes to what was stored", "[host][cache]") {
  const cache_entry in = sample();
  const std::vector<char> bytes = jet::detail::encode_entry(in);
  cache_entry out;
  const jet::detail::entry_check check = jet::detail::decode_entry(bytes, key_a, out);
  INFO(check.problem);
  REQUIRE(check);
  CHECK(out.header.key == key_a);
  CHECK(out.header.name == "k7");
  CHECK(out.header.arch == "sm_90");
  CHECK(out.header.options == in.header.options);
  CHECK(out.header.nvrtc_version == "13.0");
  CHECK(out.header.jet_version == "0.1.0");
  CHECK(out.header.created == 1700000000);
  CHECK(out.header.compile_us == 36000);
  CHECK(out.header.source_bytes == in.source.size());
  CHECK(out.header.image_bytes == in.image.size());
  CHECK(out.source == in.source);
  CHECK(out.image == in.image);
  CHECK(out.file_bytes == bytes.size());

  jet::detail::entry_header header;
  REQUIRE(jet::detail::decode_header(
      std::span<const char>(bytes.data(), jet::detail::header_size(bytes)), header));
  CHECK(header.name == "k7");
}

TEST_CASE("every truncation of an entry is refused", "[host][cache]") {
  const std::vector<char> bytes = jet::detail::encode_entry(sample());
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    INFO("kept " << size << " of " << bytes.size() << " bytes");
    const entry_status status =
        decode(std::vector<char>(bytes.begin(), bytes.begin() + static_cast<long>(size)));
    CHECK(status == entry_status::truncated);
  }
}

TEST_CASE("every single flipped byte of an entry is refused", "[host][cache]") {
  const std::vector<char> bytes = jet::detail::encode_entry(sample());
  for (std::size_t at = 0; at < bytes.size(); ++at) {
    std::vector<char> damaged = bytes;
    damaged[at] = static_cast<char>(damaged[at] ^ 0x10);
    INFO("byte " << at);
    CHECK(decode(damaged) != entry_status::ok);
  }
}

TEST_CASE("foreign files, other format versions, extra bytes and misplaced entries are told apart",
          "[host][cache]") {
  const std::vector<char> bytes = jet::detail::encode_entry(sample());
  const std::string text = "#!/bin/sh\necho not a kernel\n";
  CHECK(decode(std::vector<char>(text.begin(), text.end())) == entry_status::foreign);

  std::vector<char> newer = bytes;
  newer[8] = static_cast<char>(jet::detail::cache_format_version + 1);
  cache_entry out;
  const jet::detail::entry_check check = jet::detail::decode_entry(newer, key_a, out);
  CHECK(check.status == entry_status::wrong_version);
  const auto version = jet::detail::cache_format_version;
  CHECK(check.problem == "format version " + std::to_string(version + 1) + ", this Jet reads " +
                             std::to_string(version));

  std::vector<char> longer = bytes;
  longer.push_back('x');
  CHECK(decode(longer) == entry_status::corrupt);

  CHECK(decode(bytes, std::string(64, 'b')) == entry_status::corrupt);
}

TEST_CASE("a header's sizes are summed without wrapping, and reported as given", "[host][cache]") {
  jet::detail::entry_header h;
  h.source_bytes = 100;
  h.image_bytes = UINT64_MAX;  // the sum once wrapped to 283: "header promises 283"
  const jet::detail::entry_check huge = jet::detail::check_entry_size(h, 200, 1000);
  CHECK(huge.status == entry_status::truncated);
  CHECK(huge.problem ==
        "truncated: 1000 bytes, header promises 200 + 100 (source) + "
        "18446744073709551615 (image) + 32 (checksum), past 2^64");
  h.image_bytes = 900;
  CHECK(jet::detail::check_entry_size(h, 200, 1000).problem ==
        "truncated: 1000 bytes, header promises 200 + 100 (source) + 900 (image) + 32 "
        "(checksum) = 1232");
  h.image_bytes = 668;
  CHECK(jet::detail::check_entry_size(h, 200, 1000));
}
