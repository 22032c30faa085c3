// SHA-256 through OpenSSL's direct SHA256_* functions. OpenSSL 3 marks them deprecated in
// favour of EVP, but EVP's first digest in a process starts the provider machinery, which
// takes longer than a whole disk-cache hit may; the direct functions hash the same way with no
// start-up (bench/NOTES.md has the figures).
#define OPENSSL_SUPPRESS_DEPRECATED
#include "src/cache/sha256.hpp"

#include <openssl/sha.h>

#include "jet/error.hpp"

namespace jet::detail {

struct sha256::context {
  SHA256_CTX state;
};

sha256::sha256() : context_(new context{}) {
  if (SHA256_Init(&context_->state) != 1) {
    delete context_;
    throw internal_error("OpenSSL could not start a SHA-256 digest");
  }
}

sha256::~sha256() { delete context_; }

void sha256::update(const void* data, std::size_t size) {
  if (SHA256_Update(&context_->state, data, size) != 1)
    throw internal_error("OpenSSL SHA-256 update failed");
}

void sha256::update_field(std::string_view text) {
  const std::uint64_t size = text.size();
  unsigned char prefix[8];
  for (int i = 0; i < 8; ++i) prefix[i] = static_cast<unsigned char>(size >> (8 * i));
  update(prefix, sizeof prefix);
  update(text);
}

sha256_digest sha256::finish() {
  sha256_digest digest{};
  if (SHA256_Final(digest.data(), &context_->state) != 1)
    throw internal_error("OpenSSL SHA-256 finish failed");
  return digest;
}

sha256_digest sha256_of(const void* data, std::size_t size) {
  sha256 hasher;
  hasher.update(data, size);
  return hasher.finish();
}

std::string to_hex(const sha256_digest& digest) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * digest.size());
  for (unsigned char c : digest) {
    out += hex[c >> 4];
    out += hex[c & 15];
  }
  return out;
}

}  // namespace jet::detail
