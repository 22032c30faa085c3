// Writing and reading record files.
#include "src/cache_record.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "jet/error.hpp"
#include "src/json.hpp"

namespace jet::detail {

int append_record(const std::string& file, const recorded_kernel& kernel) {
  std::string line = "{\"name\":" + json::quote(kernel.source.name) +
                     ",\"arch\":" + json::quote(kernel.arch) + ",\"options\":[";
  for (std::size_t i = 0; i < kernel.options.size(); ++i)
    line += (i ? "," : "") + json::quote(kernel.options[i]);
  line += "],\"source\":" + json::quote(kernel.source.source) + "}\n";

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
      for (const json::value& o : v["options"].as_array()) k.options.push_back(o.as_string());
      if (k.source.name.empty()) throw value_error("the kernel name is empty");
      out.kernels.push_back(std::move(k));
    } catch (const value_error& e) {
      out.problems.push_back("line " + std::to_string(number) + ": " + e.what());
    }
  }
  return out;
}

}  // namespace jet::detail
