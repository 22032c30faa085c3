// The cache as a whole, for jet-cache and the tests: listing headers, verifying entries.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "src/cache/directory.hpp"
#include "src/cache/entry.hpp"

namespace jet::detail {

struct entry_info {
  cache_file file;
  entry_header header;
};

struct bad_entry {
  cache_file file;
  std::string problem;
  bool removed = false;  // by verify's `fix`
};

struct cache_listing {
  std::vector<entry_info> entries;  // most recently used first
  std::vector<bad_entry> bad;       // files whose header cannot be read, scan problems
};

// Reads every entry's header alone (a few hundred bytes each, no checksum).
cache_listing list_entries(const std::string& dir);

struct verify_report {
  std::size_t checked = 0;
  std::vector<bad_entry> bad;               // damaged, foreign, other versions, unsafe,
                                            // links, unreadable folders
  std::size_t removed = 0;                  // of those, removed by `fix`
  std::vector<std::string> unsafe_folders;  // "DIR is writable by ...": never fixed here
};

// Reads and checks every entry (checksum, key, permissions); with `fix`, removes bad ones.
// `progress(done, total)` is called after each entry.
verify_report verify(const std::string& dir, bool fix,
                     const std::function<void(std::size_t, std::size_t)>& progress);

}  // namespace jet::detail
