// Writing and reading record files.
#include "src/cache/record.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include <nlohmann/json.hpp>

#include "jet/error.hpp"

namespace jet::detail {

namespace {

using json = nlohmann::ordered_json;

std::vector<std::string> strings_of(const json& line, const char* key) {
  return line.contains(key) ? line.at(key).get<std::vector<std::string>>()
                            : std::vector<std::string>{};
}

}  // namespace

std::string record_line(const recorded_kernel& kernel) {
  json line = {{"name", kernel.source.name}, {"arch", kernel.arch}, {"options", kernel.options}};
  if (!kernel.extras.options.empty()) line["extra_options"] = kernel.extras.options;
  if (!kernel.extras.name_expressions.empty())
    line["name_expressions"] = kernel.extras.name_expressions;
  line["source"] = kernel.source.source;
  try {
    return line.dump() + "\n";
  } catch (const json::type_error&) {
    return "";
  }
}

int append_record(const std::string& file, const recorded_kernel& kernel) {
  const std::string line = record_line(kernel);
  if (line.empty()) return EILSEQ;
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
  return read_records(in);
}

record_file read_records(std::istream& in) {
  record_file out;
  std::string text;
  for (int number = 1; std::getline(in, text); ++number) {
    if (text.empty()) continue;
    const std::string where = "line " + std::to_string(number) + ": ";
    try {
      const json line = json::parse(text);
      recorded_kernel k;
      k.source.name = line.at("name").get<std::string>();
      k.source.source = line.at("source").get<std::string>();
      k.arch = line.at("arch").get<std::string>();
      k.options = line.at("options").get<std::vector<std::string>>();
      k.extras.options = strings_of(line, "extra_options");
      k.extras.name_expressions = strings_of(line, "name_expressions");
      // Names reach NVRTC's file name, entry headers and `jet-cache list`; every kernel Jet
      // records is named by a C identifier, so anything else (empty, a NUL, bytes that are
      // not UTF-8) is a damaged or forged record.
      if (!codegen::is_identifier(k.source.name)) {
        out.problems.push_back(
            where + "the kernel name " +
            json(k.source.name).dump(-1, ' ', true, json::error_handler_t::replace) +
            " is no C identifier");
        continue;
      }
      out.kernels.push_back(std::move(k));
    } catch (const json::parse_error& e) {
      out.problems.push_back(where + "invalid JSON: " + e.what());
    } catch (const json::exception& e) {
      out.problems.push_back(where + "not a kernel record: " + e.what());
    }
  }
  return out;
}

}  // namespace jet::detail
