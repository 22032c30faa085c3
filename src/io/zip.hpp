// Zip archives through libzip, host code only: the container of NumPy's .npz files. libzip
// reads and writes ZIP64 (NumPy writes each member so), stored and deflated members, checks
// each member's CRC as it is read, and writes an archive to a temporary file that replaces
// the old one only once complete.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace jet::detail {

// An archive open for reading; its members are read whole. Throws jet::io_error naming the
// file (and the member) when it cannot be opened or read.
class zip_reader {
 public:
  explicit zip_reader(const std::string& path);
  const std::string& path() const { return path_; }
  // The members' names, in the archive's order.
  const std::vector<std::string>& names() const { return names_; }
  std::string read(const std::string& member) const;

 private:
  std::string path_;
  std::unique_ptr<void, void (*)(void*)> archive_;  // zip_t
  std::vector<std::string> names_;
  mutable std::mutex mutex_;  // libzip's archive is not safe to read from two threads
};

// Writes `members` (name, bytes) as a zip archive at `path`, deflated when `deflate`, else
// stored; throws jet::io_error naming the file.
void write_zip(const std::string& path,
               const std::vector<std::pair<std::string, std::string>>& members, bool deflate);

}  // namespace jet::detail
