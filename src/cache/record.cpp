// Writing and reading record files.
#include "src/cache/record.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "jet/error.hpp"
#include "src/cache/json.hpp"

namespace jet::detail {

namespace {

std::string quoted_list(const std::vector<std::string>& items) {
  std::string list = "[";
  for (std::size_t i = 0; i < items.size(); ++i) list += (i ? "," : "") + json::quote(items[i]);
  return list + "]";
}

std::vector<std::string> strings_of(const json::value& list) {
  std::vector<std::string> out;
  for (const json::value& item : list.as_array()) out.push_back(item.as_string());
  return out;
}

}  // namespace

int append_record(const std::string& file, const recorded_kernel& kernel) {
  std::string line = "{\"name\":" + json::quote(kernel.source.name) + ",\"arch\":" + json::quote(kernel.arch) +
                     ",\"options\":" + quoted_list(kernel.options);
  // Only user kernels have extras; Jet's own lines stay as they were.
  if (!kernel.extras.options.empty()) line += ",\"extra_options\":" + quoted_list(kernel.extras.options);
  if (!kernel.extras.name_expressions.empty())
    line += ",\"name_expressions\":" + quoted_list(kernel.extras.name_expressions);
  line += ",\"source\":" + json::quote(kernel.source.source) + "}\n";

  const int fd = open(file.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return errno;
  // O_APPEND alone does not keep a large write whole against concurrent appenders; the lock does.
  int error = flock(fd, LOCK_EX) == 0 ? 0 : errno;
  for (std::size_t written = 0; error == 0 && written < line.size();) {
    const ssize_t n = write(fd, line.data() + written, line.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0)
      error = n < 0 ? errno : ENOSPC;
    else
      written += static_cast<std::size_t>(n);
  }
  close(fd);  // releases the lock
  return error;
}

record_file read_records(const std::string& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw cache_error("cannot read record file " + file + ": " + std::strerror(errno));
  record_file out;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    try {
      const json::value v = json::parse(line);
      recorded_kernel k;
      k.source.name = v["name"].as_string();
      k.source.source = v["source"].as_string();
      k.arch = v["arch"].as_string();
      k.options = strings_of(v["options"]);
      if (v.contains("extra_options")) k.extras.options = strings_of(v["extra_options"]);
      if (v.contains("name_expressions")) k.extras.name_expressions = strings_of(v["name_expressions"]);
      if (k.source.name.empty()) throw value_error("the kernel name is empty");
      out.kernels.push_back(std::move(k));
    } catch (const value_error& e) {
      out.problems.push_back("line " + std::to_string(number) + ": " + e.what());
    }
  }
  return out;
}

}  // namespace jet::detail
