// SHA-256 through OpenSSL's EVP interface.
#include "src/sha256.hpp"

#include <openssl/evp.h>

#include "jet/error.hpp"

namespace jet::detail {
namespace {

// SHA-256 fetched once: EVP_sha256() makes OpenSSL 3 fetch the implementation again on
// every EVP_DigestInit_ex, a few microseconds of each disk hit's two digests.
const EVP_MD* sha256_method() {
  static const EVP_MD* method = [] {
    const EVP_MD* md = EVP_MD_fetch(nullptr, "SHA2-256", nullptr);
    if (!md) throw internal_error("OpenSSL provides no SHA-256");
    return md;
  }();
  return method;
}

}  // namespace

struct sha256::context {
  EVP_MD_CTX* md;
};

sha256::sha256() : context_(new context{EVP_MD_CTX_new()}) {
  if (!context_->md || EVP_DigestInit_ex(context_->md, sha256_method(), nullptr) != 1) {
    EVP_MD_CTX_free(context_->md);
    delete context_;
    throw internal_error("OpenSSL could not start a SHA-256 digest");
  }
}

sha256::~sha256() {
  EVP_MD_CTX_free(context_->md);
  delete context_;
}

void sha256::update(const void* data, std::size_t size) {
  if (EVP_DigestUpdate(context_->md, data, size) != 1)
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
  unsigned int length = 0;
  if (EVP_DigestFinal_ex(context_->md, digest.data(), &length) != 1 || length != digest.size())
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
