// Fuzzes the cache entry decoder (src/cache/entry.cpp) with arbitrary bytes, and again with
// their last 32 bytes made the checksum of the rest, so that inputs get past it to the body.
// An accepted entry re-encodes to the same bytes (the format has one encoding of each entry),
// its header decodes from the header's bytes alone (as `jet-cache list` reads it), and a
// refusal is the same from decode_header and decode_entry.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <tuple>
#include <vector>

#include "src/cache/entry.hpp"
#include "src/cache/sha256.hpp"
#include "tests/fuzz/fuzz_check.hpp"

namespace {

using namespace jet::detail;
using jet::fuzz::require;

bool same_header(const entry_header& a, const entry_header& b) {
  return a.key == b.key && a.name == b.name && a.arch == b.arch && a.options == b.options &&
         a.lowered_names == b.lowered_names && a.nvrtc_version == b.nvrtc_version &&
         a.jet_version == b.jet_version && a.created == b.created && a.compile_us == b.compile_us &&
         a.source_bytes == b.source_bytes && a.image_bytes == b.image_bytes;
}

bool explained(const entry_check& check) { return check.problem.empty() == bool(check); }

void check_decoding(std::span<const char> bytes) {
  entry_header header;
  const entry_check head = decode_header(bytes, header);
  require(explained(head), "decode_header gives a problem exactly when it refuses");
  cache_entry entry;
  const std::string key = head ? header.key : std::string(64, '0');
  const entry_check whole = decode_entry(bytes, key, entry);
  require(explained(whole), "decode_entry gives a problem exactly when it refuses");
  if (!head) {
    require(whole.status == head.status, "decode_entry refuses a header as decode_header does");
    return;
  }
  const std::size_t size = header_size(bytes);
  require(size > 0 && size <= bytes.size(), "an accepted header lies within the bytes");
  entry_header alone;
  require(decode_header(bytes.first(size), alone) && same_header(alone, header),
          "a header decodes from its own bytes alone");
  const entry_check sizes = check_entry_size(header, size, bytes.size());
  require(explained(sizes), "check_entry_size gives a problem exactly when it refuses");
  if (!sizes) {
    require(whole.status == sizes.status, "decode_entry refuses sizes as check_entry_size does");
    return;
  }
  if (!whole) return;
  require(same_header(entry.header, header), "decode_entry reads the header decode_header reads");
  require(entry.source.size() == header.source_bytes && entry.image.size() == header.image_bytes &&
              entry.file_bytes == bytes.size(),
          "an entry's body has the sizes its header gives");
  const std::vector<char> again = encode_entry(entry);
  require(std::equal(again.begin(), again.end(), bytes.begin(), bytes.end()),
          "a decoded entry re-encodes to the same bytes");
  std::string other_key = key;
  other_key[0] = other_key[0] == '0' ? '1' : '0';
  cache_entry other;
  require(decode_entry(bytes, other_key, other).status == entry_status::corrupt,
          "an entry is refused under another key's name");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const char> bytes(reinterpret_cast<const char*>(data), size);
  check_decoding(bytes);
  constexpr std::size_t checksum = std::tuple_size_v<sha256_digest>;
  if (size >= checksum) {
    std::vector<char> sealed(bytes.begin(), bytes.end());
    const sha256_digest sum = sha256_of(sealed.data(), size - checksum);
    std::memcpy(sealed.data() + size - checksum, sum.data(), checksum);
    check_decoding(sealed);
  }
  return 0;
}
