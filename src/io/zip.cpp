// libzip behind zip_reader and write_zip.
#include "src/io/zip.hpp"

#include <zip.h>

#include "jet/error.hpp"

namespace jet::detail {
namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) {
  throw io_error(path + ": " + what);
}

std::string code_message(int code) {
  zip_error_t e;
  zip_error_init_with_code(&e, code);
  std::string text = zip_error_strerror(&e);
  zip_error_fini(&e);
  return text;
}

}  // namespace

zip_reader::zip_reader(const std::string& path)
    : path_(path), archive_(nullptr, [](void* z) { zip_discard(static_cast<zip_t*>(z)); }) {
  int code = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &code);
  if (!z)
    fail(path, code == ZIP_ER_NOZIP ? "not a zip archive (.npz)"
                                    : "cannot open as a zip archive: " + code_message(code));
  archive_.reset(z);
  const zip_int64_t count = zip_get_num_entries(z, 0);
  for (zip_int64_t i = 0; i < count; ++i) {
    const char* name = zip_get_name(z, static_cast<zip_uint64_t>(i), ZIP_FL_ENC_GUESS);
    if (!name) fail(path, std::string("cannot read the archive's directory: ") + zip_strerror(z));
    names_.emplace_back(name);
  }
}

std::string zip_reader::read(const std::string& member) const {
  std::lock_guard hold(mutex_);
  auto* z = static_cast<zip_t*>(archive_.get());
  const std::string where = path_ + " (member " + member + ")";
  zip_stat_t st;
  if (zip_stat(z, member.c_str(), 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    fail(where, std::string("cannot read: ") + zip_strerror(z));
  const std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> f(zip_fopen(z, member.c_str(), 0),
                                                            zip_fclose);
  if (!f) fail(where, std::string("cannot open: ") + zip_strerror(z));
  std::string bytes(st.size, '\0');
  std::size_t have = 0;
  while (have < bytes.size()) {
    const zip_int64_t n = zip_fread(f.get(), bytes.data() + have, bytes.size() - have);
    if (n < 0) fail(where, std::string("cannot read: ") + zip_file_strerror(f.get()));
    if (n == 0)
      fail(where,
           "truncated: " + std::to_string(have) + " of " + std::to_string(bytes.size()) + " bytes");
    have += static_cast<std::size_t>(n);
  }
  // Reading past the end makes libzip check the member's CRC.
  char extra = 0;
  if (zip_fread(f.get(), &extra, 1) != 0)
    fail(where, std::string("corrupt: ") + zip_file_strerror(f.get()));
  return bytes;
}

void write_zip(const std::string& path,
               const std::vector<std::pair<std::string, std::string>>& members, bool deflate) {
  int code = 0;
  zip_t* z = zip_open(path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (!z) fail(path, "cannot open for writing: " + code_message(code));
  for (const auto& [name, bytes] : members) {
    zip_source_t* source = zip_source_buffer(z, bytes.data(), bytes.size(), 0);
    const zip_int64_t index = source ? zip_file_add(z, name.c_str(), source, ZIP_FL_ENC_UTF_8) : -1;
    if (index < 0 || zip_set_file_compression(z, static_cast<zip_uint64_t>(index),
                                              deflate ? ZIP_CM_DEFLATE : ZIP_CM_STORE, 0) != 0) {
      const std::string why = zip_strerror(z);
      if (source && index < 0) zip_source_free(source);
      zip_discard(z);
      fail(path, "cannot add " + name + ": " + why);
    }
  }
  if (zip_close(z) != 0) {
    const std::string why = zip_strerror(z);
    zip_discard(z);
    fail(path, "cannot write: " + why);
  }
}

}  // namespace jet::detail
