// The on-disk format of one kernel cache entry, as bytes: no files, no environment.
//
//   magic "JETKCACH", u32 format version, u32 header size, then the header fields,
//   the CUDA source, the machine code (cubin or PTX), and a SHA-256 of all that precedes it.
// Integers are little-endian; strings are a u32 length and the bytes.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace jet::detail {

// Bumped whenever the layout below or the meaning of a field changes; it is part of the key.
constexpr std::uint32_t cache_format_version = 2;
// The largest entry file Jet reads: far above any kernel's source and machine code, and small
// enough to hold in memory. A larger file, or a header that claims more, is damaged.
constexpr std::uint64_t max_entry_bytes = std::uint64_t{256} << 20;

struct entry_header {
  std::string key;                   // 64 hex digits, also the file's name
  std::string name;                  // the kernel's entry point
  std::string arch;                  // the target the image was built for: "sm_90" or "compute_90"
  std::vector<std::string> options;  // NVRTC's options
  std::vector<std::string> lowered_names;  // user kernels' name expressions, as NVRTC lowered them
  std::string nvrtc_version;
  std::string jet_version;
  std::int64_t created = 0;      // Unix seconds
  std::uint64_t compile_us = 0;  // NVRTC's time for it
  std::uint64_t source_bytes = 0;
  std::uint64_t image_bytes = 0;
};

struct cache_entry {
  entry_header header;
  std::string source;
  std::vector<char> image;
  std::uint64_t file_bytes = 0;  // size of the file it was read from
};

// Why a file is not a usable entry. Every state but `ok` is a cache miss. `missing` and
// `unsafe` come from reading the file (see read_entry), the others from its bytes.
enum class entry_status { ok, missing, unsafe, foreign, wrong_version, truncated, corrupt };

struct entry_check {
  entry_status status = entry_status::ok;
  std::string problem;  // what is wrong, for warnings and `jet-cache verify`
  explicit operator bool() const { return status == entry_status::ok; }
};

// The bytes of a file for `entry`; header sizes are taken from its source and image.
std::vector<char> encode_entry(const cache_entry& entry);
// Parses the header alone (what `jet-cache list` reads): no checksum, no body needed.
entry_check decode_header(std::span<const char> bytes, entry_header& header);
// Whether a file of `file_bytes` is the size `header`, of `header_bytes` bytes, promises for
// header, body and checksum, and no larger than max_entry_bytes: checked before the body is read.
entry_check check_entry_size(const entry_header& header, std::size_t header_bytes,
                             std::uint64_t file_bytes);
// Parses and checks a whole file; `expected_key` is the key its name promises.
entry_check decode_entry(std::span<const char> bytes, const std::string& expected_key,
                         cache_entry& entry);
// How many leading bytes hold the header, or 0 when `prefix` is too short to say.
std::size_t header_size(std::span<const char> prefix);

}  // namespace jet::detail
