// Writes the seed corpus of fuzz_cache_entry into the folder its argument names, with the
// library's own encoder: `make_entry_seeds tests/fuzz/corpus/fuzz_cache_entry`.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <limits>
#include <string>
#include <vector>

#include "src/cache/entry.hpp"

namespace {

using namespace jet::detail;

cache_entry entry_of(std::string name, std::string arch, std::string source, std::string image) {
  cache_entry entry;
  entry.header.key = std::string(64, 'a');
  entry.header.name = std::move(name);
  entry.header.arch = std::move(arch);
  entry.header.nvrtc_version = "13.0";
  entry.header.jet_version = "0.1.0";
  entry.header.created = 1700000000;
  entry.header.compile_us = 41000;
  entry.source = std::move(source);
  entry.image.assign(image.begin(), image.end());
  return entry;
}

void write(const std::string& path, const std::vector<char>& bytes) {
  std::ofstream(path, std::ios::binary)
      .write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: make_entry_seeds FOLDER\n");
    return 2;
  }
  const std::string dir = argv[1];
  cache_entry cubin = entry_of(
      "jet_add_f32", "sm_90", "extern \"C\" __global__ void jet_add_f32(float* p) { p[0] += 1; }\n",
      std::string("\x7f"
                  "ELF\x02\x01\x01\x33",
                  8) +
          std::string(24, '\0'));
  cubin.header.options = {"--std=c++17", "-arch=sm_90", "-default-device"};
  write(dir + "/cubin", encode_entry(cubin));

  cache_entry ptx =
      entry_of("raw_module", "compute_120", "template <class T> __global__ void scale(T*) {}\n",
               ".version 8.7\n.target sm_120\n.visible .entry _Z5scaleIfEvPT_()\n{\n}\n");
  ptx.header.options = {"--std=c++17", "-arch=compute_120"};
  ptx.header.lowered_names = {"_Z5scaleIfEvPT_"};
  write(dir + "/ptx", encode_entry(ptx));

  cache_entry empty = entry_of("", "", "", "");
  empty.header.nvrtc_version.clear();
  empty.header.jet_version.clear();
  empty.header.created = std::numeric_limits<std::int64_t>::min();
  empty.header.compile_us = std::numeric_limits<std::uint64_t>::max();
  write(dir + "/empty-fields", encode_entry(empty));

  std::vector<char> truncated = encode_entry(cubin);
  truncated.resize(header_size(truncated));
  write(dir + "/header-only", truncated);

  std::vector<char> old_version = encode_entry(ptx);
  old_version[8] = static_cast<char>(cache_format_version - 1);
  write(dir + "/old-version", old_version);

  const std::string foreign = "#!/bin/sh\necho not an entry\n";
  write(dir + "/foreign", std::vector<char>(foreign.begin(), foreign.end()));
  return 0;
}
