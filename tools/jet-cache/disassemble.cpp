// Running cuobjdump on a cubin.
#include "tools/jet-cache/disassemble.hpp"

#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "jet/error.hpp"

namespace jet::cli {
namespace {

std::optional<std::string> find_on_path(std::string_view program) {
  const char* path = std::getenv("PATH");
  std::string_view rest = path ? path : "";
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const std::string_view folder = rest.substr(0, colon);
    rest = colon == std::string_view::npos ? std::string_view() : rest.substr(colon + 1);
    const std::string candidate =
        std::string(folder.empty() ? "." : folder) + "/" + std::string(program);
    if (access(candidate.c_str(), X_OK) == 0) return candidate;
  }
  return std::nullopt;
}

// A temporary file that removes itself.
class temp_file {
 public:
  explicit temp_file(const std::vector<char>& bytes) {
    const char* tmp = std::getenv("TMPDIR");
    path_ = std::string(tmp && *tmp ? tmp : "/tmp") + "/jet-cache-XXXXXX.cubin";
    const int fd = mkstemps(path_.data(), 6);
    if (fd < 0)
      throw cache_error("cannot create a temporary file for cuobjdump: " +
                        std::string(std::strerror(errno)));
    std::size_t done = 0;
    while (done < bytes.size()) {
      const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      done += static_cast<std::size_t>(n);
    }
    close(fd);
    if (done != bytes.size()) {
      unlink(path_.c_str());
      throw cache_error("cannot write the temporary file " + path_);
    }
  }
  ~temp_file() { unlink(path_.c_str()); }
  temp_file(const temp_file&) = delete;
  temp_file& operator=(const temp_file&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Runs argv[0] with its output and errors captured; no shell, so no quoting to get wrong.
std::string run_captured(const std::vector<std::string>& argv, int& status) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) throw cache_error("pipe failed: " + std::string(std::strerror(errno)));
  const pid_t child = fork();
  if (child < 0) throw cache_error("fork failed: " + std::string(std::strerror(errno)));
  if (child == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string output;
  char chunk[4096];
  for (;;) {
    const ssize_t n = read(pipe_fds[0], chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    output.append(chunk, static_cast<std::size_t>(n));
  }
  close(pipe_fds[0]);
  int wait_status = 0;
  while (waitpid(child, &wait_status, 0) < 0 && errno == EINTR) {
  }
  status = WIFEXITED(wait_status) ? WEXITSTATUS(wait_status) : 128 + WTERMSIG(wait_status);
  return output;
}

}  // namespace

std::optional<std::string> disassemble(const std::vector<char>& cubin) {
  const std::optional<std::string> tool = find_on_path("cuobjdump");
  if (!tool) return std::nullopt;
  const temp_file file(cubin);
  int status = 0;
  std::string text = run_captured({*tool, "-sass", file.path()}, status);
  if (status != 0) text += "(cuobjdump exited with status " + std::to_string(status) + ")\n";
  return text;
}

}  // namespace jet::cli
