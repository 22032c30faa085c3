// jet::save and jet::load: a .npy file's header (src/io/npy.cpp) and its data, copied between
// the file and the device through host memory.
#include <cerrno>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "jet/error.hpp"
#include "jet/io.hpp"
#include "src/io/npy.hpp"
#include "src/pipeline/evaluate.hpp"

namespace jet {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw io_error(path + ": " + what);
}

std::string system_error() { return std::strerror(errno); }

// The file's header bytes: the magic string, version and length, then the dict.
std::string header_bytes(std::ifstream& in, const std::string& path) {
  std::string head(12, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<std::size_t>(in.gcount()));
  if (head.size() < 10) fail(path, "not a .npy file (shorter than any header)");
  const bool short_length = head[6] == 1;
  std::size_t length = 0;
  for (std::size_t k = 0; k < (short_length ? 2u : 4u) && 8 + k < head.size(); ++k)
    length |= std::size_t{static_cast<unsigned char>(head[8 + k])} << (8 * k);
  const std::size_t total = (short_length ? 10 : 12) + length;
  if (total > head.size()) {
    const std::size_t have = head.size();
    head.resize(total);
    in.read(head.data() + have, static_cast<std::streamsize>(total - have));
    head.resize(have + static_cast<std::size_t>(in.gcount()));
  }
  return head;
}

shape reversed(const shape& s) {
  shape r;
  for (int k = s.size() - 1; k >= 0; --k) r.push_back(s[k]);
  return r;
}

}  // namespace

void save(const std::string& path, const expr& a) {
  const array x = detail::as_array(a);
  const bool fortran = x.ndim() > 1 && x.is_f_contiguous() && !x.is_c_contiguous();
  std::vector<std::byte> data(static_cast<std::size_t>(x.nbytes()));
  if (!data.empty()) (fortran ? x.T() : x).to_host(data.data(), x.dtype());
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) fail(path, "cannot open for writing: " + system_error());
  const std::string header = detail::npy_header_bytes(x.dtype(), x.shape(), fortran);
  out.write(header.data(), static_cast<std::streamsize>(header.size()));
  out.write(reinterpret_cast<const char*>(data.data()), static_cast<std::streamsize>(data.size()));
  out.close();
  if (!out) fail(path, "cannot write: " + system_error());
}

array load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) fail(path, "cannot open: " + system_error());
  const detail::npy_header h = detail::read_npy_header(header_bytes(in, path), path);
  in.seekg(0, std::ios::end);
  const auto file_bytes = static_cast<std::size_t>(in.tellg());
  const std::size_t available = file_bytes - std::min(file_bytes, h.data_offset);
  // The data's bytes, or more than the file holds (without overflowing) where it is short.
  bool empty = false;
  for (int k = 0; k < h.dims.size(); ++k) empty = empty || h.dims[k] == 0;
  std::size_t needed = empty ? 0 : static_cast<std::size_t>(itemsize(h.type));
  for (int k = 0; k < h.dims.size() && needed > 0; ++k) {
    const auto length = static_cast<std::size_t>(h.dims[k]);
    needed = needed > available / length ? available + 1 : needed * length;
  }
  if (needed > available)
    fail(path, "truncated: the shape " + to_string(h.dims) + " of " + std::string(name(h.type)) +
                   " needs more data than the " + std::to_string(available) + " bytes there");
  std::vector<std::byte> data(needed);
  in.seekg(static_cast<std::streamoff>(h.data_offset));
  in.read(reinterpret_cast<char*>(data.data()), static_cast<std::streamsize>(needed));
  if (static_cast<std::size_t>(in.gcount()) != needed) fail(path, "cannot read: " + system_error());
  if (h.big_endian) detail::swap_bytes(data, h.type);
  const array out = from_host(data.data(), h.type, h.fortran_order ? reversed(h.dims) : h.dims);
  return h.fortran_order ? out.T() : out;
}

}  // namespace jet
