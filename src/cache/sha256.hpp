// SHA-256 from OpenSSL: cache keys and entry checksums.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace jet::detail {

using sha256_digest = std::array<unsigned char, 32>;

// An incremental SHA-256; throws jet::internal_error if OpenSSL fails.
class sha256 {
 public:
  sha256();
  ~sha256();
  sha256(const sha256&) = delete;
  sha256& operator=(const sha256&) = delete;
  // Adds bytes to the message.
  void update(const void* data, std::size_t size);
  void update(std::string_view text) { update(text.data(), text.size()); }
  // Adds a length-prefixed field, so that ("ab", "c") and ("a", "bc") hash differently.
  void update_field(std::string_view text);
  // The digest of everything added; the hasher is spent afterwards.
  sha256_digest finish();

 private:
  struct context;
  context* context_;
};

// The digest of one buffer.
sha256_digest sha256_of(const void* data, std::size_t size);
// Lower-case hexadecimal spelling of a digest (64 characters).
std::string to_hex(const sha256_digest& digest);

}  // namespace jet::detail
