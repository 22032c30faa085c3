// SHA-256 known answers (FIPS 180-2 examples), whole and incremental.
#include <string>

#include "src/cache/sha256.hpp"
#include "support/catch.hpp"

TEST_CASE("sha256 gives the FIPS 180-2 digests", "[host][sha256]") {
  using jet::detail::sha256_of;
  using jet::detail::to_hex;
  CHECK(to_hex(sha256_of("", 0)) ==
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(to_hex(sha256_of("abc", 3)) ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  const std::string two_blocks = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
  jet::detail::sha256 incremental;
  incremental.update(two_blocks.substr(0, 20));
  incremental.update(two_blocks.substr(20));
  CHECK(to_hex(incremental.finish()) ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST_CASE("length-prefixed fields keep field boundaries in the digest", "[host][sha256]") {
  jet::detail::sha256 a, b;
  a.update_field("ab");
  a.update_field("c");
  b.update_field("a");
  b.update_field("bc");
  CHECK(a.finish() != b.finish());
}
