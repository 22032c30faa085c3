// Encoding and checking kernel cache entries.
#include "src/cache/entry.hpp"

#include <algorithm>
#include <cstring>
#include <string_view>

#include "src/cache/sha256.hpp"

namespace jet::detail {
namespace {

constexpr char magic[8] = {'J', 'E', 'T', 'K', 'C', 'A', 'C', 'H'};
constexpr std::size_t prefix_size = 16;  // magic, format version, header size
constexpr std::size_t checksum_size = 32;
// Far above any real header; a larger size field means the file is damaged.
constexpr std::size_t max_header_size = 1 << 20;

class writer {
 public:
  explicit writer(std::vector<char>& out) : out_(out) {}
  // resize + memcpy rather than insert(): GCC 12 at -O3 reports a false -Wstringop-overflow
  // inside vector::insert here.
  void bytes(const void* data, std::size_t size) {
    if (size == 0) return;
    const std::size_t at = out_.size();
    out_.resize(at + size);
    std::memcpy(out_.data() + at, data, size);
  }
  void u32(std::uint32_t v) { little_endian(v, 4); }
  void u64(std::uint64_t v) { little_endian(v, 8); }
  void str(std::string_view s) {
    u32(static_cast<std::uint32_t>(s.size()));
    bytes(s.data(), s.size());
  }

 private:
  void little_endian(std::uint64_t v, int size) {
    for (int i = 0; i < size; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
  }
  std::vector<char>& out_;
};

// Reads fields within [position, end); any read past the end marks the reader failed.
class reader {
 public:
  reader(std::span<const char> bytes, std::size_t position, std::size_t end)
      : bytes_(bytes), position_(position), end_(end) {}
  std::uint64_t uint(int size) {
    if (!take(static_cast<std::size_t>(size))) return 0;
    std::uint64_t v = 0;
    for (int i = 0; i < size; ++i)
      v |= std::uint64_t{static_cast<unsigned char>(bytes_[position_ - size + i])} << (8 * i);
    return v;
  }
  std::string str() {
    const std::size_t size = uint(4);
    if (!take(size)) return {};
    return std::string(bytes_.data() + position_ - size, size);
  }
  bool failed() const { return failed_; }
  std::size_t position() const { return position_; }

 private:
  bool take(std::size_t size) {
    if (failed_ || size > end_ - position_) {
      failed_ = true;
      return false;
    }
    position_ += size;
    return true;
  }
  std::span<const char> bytes_;
  std::size_t position_;
  std::size_t end_;
  bool failed_ = false;
};

bool is_key(const std::string& s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

entry_check problem(entry_status status, std::string what) { return {status, std::move(what)}; }

}  // namespace

std::vector<char> encode_entry(const cache_entry& entry) {
  const entry_header& h = entry.header;
  std::vector<char> out;
  out.reserve(256 + entry.source.size() + entry.image.size());
  writer w(out);
  w.bytes(magic, sizeof magic);
  w.u32(cache_format_version);
  w.u32(0);  // header size, patched below
  w.str(h.key);
  w.str(h.name);
  w.str(h.arch);
  w.u32(static_cast<std::uint32_t>(h.options.size()));
  for (const std::string& o : h.options) w.str(o);
  w.u32(static_cast<std::uint32_t>(h.lowered_names.size()));
  for (const std::string& n : h.lowered_names) w.str(n);
  w.str(h.nvrtc_version);
  w.str(h.jet_version);
  w.u64(static_cast<std::uint64_t>(h.created));
  w.u64(h.compile_us);
  w.u64(entry.source.size());
  w.u64(entry.image.size());
  const std::uint32_t header = static_cast<std::uint32_t>(out.size());
  for (int i = 0; i < 4; ++i) out[12 + i] = static_cast<char>((header >> (8 * i)) & 0xff);
  w.bytes(entry.source.data(), entry.source.size());
  w.bytes(entry.image.data(), entry.image.size());
  const sha256_digest sum = sha256_of(out.data(), out.size());
  w.bytes(sum.data(), sum.size());
  return out;
}

std::size_t header_size(std::span<const char> prefix) {
  if (prefix.size() < prefix_size) return 0;
  return reader(prefix, 12, prefix_size).uint(4);
}

entry_check decode_header(std::span<const char> bytes, entry_header& h) {
  const std::size_t compared = std::min(bytes.size(), sizeof magic);
  if (compared > 0 && std::memcmp(bytes.data(), magic, compared) != 0)
    return problem(entry_status::foreign, "not a Jet cache entry");
  if (bytes.size() < prefix_size)
    return problem(entry_status::truncated, "truncated in its first bytes");
  const std::uint64_t version = reader(bytes, 8, 12).uint(4);
  if (version != cache_format_version)
    return problem(entry_status::wrong_version, "format version " + std::to_string(version) +
                                                    ", this Jet reads " +
                                                    std::to_string(cache_format_version));
  const std::size_t size = header_size(bytes);
  if (size < prefix_size || size > max_header_size)
    return problem(entry_status::corrupt, "impossible header size");
  if (size > bytes.size()) return problem(entry_status::truncated, "truncated inside its header");
  reader r(bytes, prefix_size, size);
  h.key = r.str();
  h.name = r.str();
  h.arch = r.str();
  const std::size_t options = r.uint(4);
  h.options.clear();
  for (std::size_t i = 0; i < options && !r.failed(); ++i) h.options.push_back(r.str());
  const std::size_t lowered = r.uint(4);
  h.lowered_names.clear();
  for (std::size_t i = 0; i < lowered && !r.failed(); ++i) h.lowered_names.push_back(r.str());
  h.nvrtc_version = r.str();
  h.jet_version = r.str();
  h.created = static_cast<std::int64_t>(r.uint(8));
  h.compile_us = r.uint(8);
  h.source_bytes = r.uint(8);
  h.image_bytes = r.uint(8);
  if (r.failed() || r.position() != size)
    return problem(entry_status::corrupt, "header fields do not fit its size");
  if (!is_key(h.key)) return problem(entry_status::corrupt, "header holds no valid key");
  return {};
}

entry_check check_entry_size(const entry_header& h, std::size_t header_bytes,
                             std::uint64_t file_bytes) {
  // Summed with overflow checks: a damaged header's sizes can be anything.
  std::uint64_t promised = 0;
  const bool wraps = __builtin_add_overflow(header_bytes, h.source_bytes, &promised) ||
                     __builtin_add_overflow(promised, h.image_bytes, &promised) ||
                     __builtin_add_overflow(promised, checksum_size, &promised);
  // The terms as the header gives them, so that a damaged size shows as it is.
  if (wraps || promised > file_bytes)
    return problem(entry_status::truncated,
                   "truncated: " + std::to_string(file_bytes) + " bytes, header promises " +
                       std::to_string(header_bytes) + " + " + std::to_string(h.source_bytes) +
                       " (source) + " + std::to_string(h.image_bytes) + " (image) + " +
                       std::to_string(checksum_size) + " (checksum)" +
                       (wraps ? ", past 2^64" : " = " + std::to_string(promised)));
  if (promised != file_bytes)
    return problem(entry_status::corrupt,
                   std::to_string(file_bytes - promised) + " bytes too many");
  if (file_bytes > max_entry_bytes)
    return problem(entry_status::corrupt, std::to_string(file_bytes) +
                                              " bytes, more than an entry may hold (" +
                                              std::to_string(max_entry_bytes) + ")");
  return {};
}

entry_check decode_entry(std::span<const char> bytes, const std::string& expected_key,
                         cache_entry& entry) {
  entry_check header = decode_header(bytes, entry.header);
  if (!header) return header;
  const entry_header& h = entry.header;
  const std::size_t start = header_size(bytes);
  if (entry_check size = check_entry_size(h, start, bytes.size()); !size) return size;
  const std::size_t body_end = start + h.source_bytes + h.image_bytes;
  const sha256_digest sum = sha256_of(bytes.data(), body_end);
  if (std::memcmp(sum.data(), bytes.data() + body_end, checksum_size) != 0)
    return problem(entry_status::corrupt, "checksum mismatch");
  if (h.key != expected_key)
    return problem(entry_status::corrupt, "holds the entry of key " + h.key);
  entry.source.assign(bytes.data() + start, h.source_bytes);
  entry.image.assign(bytes.data() + start + h.source_bytes, bytes.data() + body_end);
  entry.file_bytes = bytes.size();
  return {};
}

}  // namespace jet::detail
