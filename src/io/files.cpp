// jet::save and jet::load of .npy files, and .npz archives of them: a file's header
// (src/io/npy.cpp) and its data, copied between the file and the device through host memory.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "jet/error.hpp"
#include "jet/io.hpp"
#include "src/io/npy.hpp"
#include "src/io/zip.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw io_error(path + ": " + what);
}

std::string system_error() { return std::strerror(errno); }

// A whole file mapped read-only into memory, unmapped when done.
class mapped_file {
 public:
  explicit mapped_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(path, "cannot open: " + system_error());
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
      const std::string why = S_ISDIR(st.st_mode) ? "a directory" : system_error();
      ::close(fd);
      fail(path, "cannot read: " + why);
    }
    size_ = static_cast<std::size_t>(st.st_size);
    if (size_ > 0) data_ = ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE, fd, 0);
    const std::string why = data_ == MAP_FAILED ? system_error() : "";
    ::close(fd);
    if (data_ == MAP_FAILED) fail(path, "cannot map: " + why);
  }
  ~mapped_file() {
    if (data_ && data_ != MAP_FAILED) ::munmap(data_, size_);
  }
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  std::string_view bytes() const { return {static_cast<const char*>(data_), data_ ? size_ : 0}; }

 private:
  void* data_ = nullptr;
  std::size_t size_ = 0;
};

shape reversed(const shape& s) {
  shape r;
  for (int k = s.size() - 1; k >= 0; --k) r.push_back(s[k]);
  return r;
}

// The bytes the data of `h` takes, or more than `available` (without overflowing) where it is
// larger.
std::size_t data_bytes(const detail::npy_header& h, std::size_t available) {
  bool empty = false;
  for (int k = 0; k < h.dims.size(); ++k) empty = empty || h.dims[k] == 0;
  std::size_t needed = empty ? 0 : static_cast<std::size_t>(itemsize(h.type));
  for (int k = 0; k < h.dims.size() && needed > 0; ++k) {
    const auto length = static_cast<std::size_t>(h.dims[k]);
    needed = needed > available / length ? available + 1 : needed * length;
  }
  return needed;
}

// The array of a whole .npy file's bytes (`name` for errors), on the device.
array npy_array(std::string_view bytes, const std::string& name) {
  const detail::npy_header h = detail::read_npy_header(bytes, name);
  const std::size_t available = bytes.size() - std::min(bytes.size(), h.data_offset);
  const std::size_t needed = data_bytes(h, available);
  if (needed > available)
    fail(name, "truncated: the shape " + to_string(h.dims) + " of " +
                   std::string(jet::name(h.type)) + " needs more data than the " +
                   std::to_string(available) + " bytes there");
  const shape dims = h.fortran_order ? reversed(h.dims) : h.dims;
  const char* data = bytes.data() + h.data_offset;
  array out;
  if (h.big_endian) {
    std::vector<std::byte> swapped(needed);
    std::memcpy(swapped.data(), data, needed);
    detail::swap_bytes(swapped, h.type);
    out = from_host(swapped.data(), h.type, dims);
  } else {
    out = from_host(data, h.type, dims);
  }
  return h.fortran_order ? out.T() : out;
}

// A .npy file's bytes for `a`: the header, then the data copied from the device behind it.
std::string npy_bytes(const expr& a) {
  const array x = detail::as_array(a);
  const bool fortran = x.ndim() > 1 && x.is_f_contiguous() && !x.is_c_contiguous();
  std::string out = detail::npy_header_bytes(x.dtype(), x.shape(), fortran);
  const std::size_t header = out.size();
  out.resize(header + static_cast<std::size_t>(x.nbytes()));
  if (x.size() > 0) (fortran ? x.T() : x).to_host(out.data() + header, x.dtype());
  return out;
}

bool is_zip(std::string_view bytes) { return bytes.substr(0, 4) == std::string_view("PK\3\4", 4); }

void write_npz(const std::string& path, const named_arrays& arrays, bool deflate) {
  std::set<std::string> seen;
  std::vector<std::pair<std::string, std::string>> members;
  for (const auto& [name, a] : arrays) {
    if (!seen.insert(name).second)
      throw value_error("savez: the name '" + name + "' is given twice for " + path);
    members.emplace_back(name + ".npy", npy_bytes(a));
  }
  detail::write_zip(path, members, deflate);
}

named_arrays numbered(const std::vector<expr>& arrays) {
  named_arrays out;
  for (const expr& a : arrays) out.emplace_back("arr_" + std::to_string(out.size()), a);
  return out;
}

// A member's array name: "x" for "x.npy", as NumPy's NpzFile lists it.
std::string array_name(const std::string& member) {
  const std::string_view suffix = ".npy";
  return member.ends_with(suffix) ? member.substr(0, member.size() - suffix.size()) : member;
}

}  // namespace

void save(const std::string& path, const expr& a) {
  const std::string bytes = npy_bytes(a);
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, "cannot open for writing: " + system_error());
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  out.close();
  if (!out) fail(path, "cannot write: " + system_error());
}

array load(const std::string& path) {
  const mapped_file file(path);
  if (is_zip(file.bytes())) fail(path, "a .npz archive: read it with jet::load_npz");
  return npy_array(file.bytes(), path);
}

void savez(const std::string& path, const std::vector<expr>& arrays) {
  write_npz(path, numbered(arrays), false);
}
void savez(const std::string& path, const named_arrays& arrays) { write_npz(path, arrays, false); }
void savez_compressed(const std::string& path, const std::vector<expr>& arrays) {
  write_npz(path, numbered(arrays), true);
}
void savez_compressed(const std::string& path, const named_arrays& arrays) {
  write_npz(path, arrays, true);
}

npz_file::npz_file(const std::string& path)
    : archive_(std::make_shared<const detail::zip_reader>(path)) {
  for (const std::string& member : archive_->names()) files_.push_back(array_name(member));
}

bool npz_file::contains(const std::string& name) const {
  return std::find(files_.begin(), files_.end(), name) != files_.end();
}

array npz_file::operator[](const std::string& name) const {
  const auto at = std::find(files_.begin(), files_.end(), name);
  if (at == files_.end())
    throw index_error("'" + name + "' is not a file in the archive " + archive_->path());
  const std::string& member = archive_->names()[static_cast<std::size_t>(at - files_.begin())];
  return npy_array(archive_->read(member), archive_->path() + " (member " + member + ")");
}

npz_file load_npz(const std::string& path) { return npz_file(path); }

}  // namespace jet
