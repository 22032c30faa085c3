// Helpers for the kernel cache tests: a private folder per test, small kernels, one shared
// compiled image, scoped environment variables, captured stderr, and running jet-cache.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>

#include "src/nvrtc/compile.hpp"
#include "support/catch.hpp"

namespace jet_test {

// A fresh folder under the system's temporary folder, removed with everything in it.
class temp_dir {
 public:
  temp_dir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "jet-test-XXXXXX").string();
    REQUIRE(mkdtemp(pattern.data()) != nullptr);
    path_ = pattern;
  }
  ~temp_dir() {
    std::error_code ignored;
    // Tests chmod folders; give the owner its rights back so that everything can go.
    for (auto it = std::filesystem::recursive_directory_iterator(path_, ignored);
         it != std::filesystem::recursive_directory_iterator(); it.increment(ignored))
      if (it->is_directory(ignored)) chmod(it->path().c_str(), 0700);
    std::filesystem::remove_all(path_, ignored);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  const std::string& path() const { return path_; }
  std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// A kernel that compiles in ~50 ms; a different n gives a different source (and key).
inline jet::codegen::kernel_source small_kernel(int n) {
  const std::string name = "k" + std::to_string(n);
  return {name, "extern \"C\" __global__ void " + name +
                    "(float* p) { p[0] = " + std::to_string(n) + "; }\n"};
}

// One compiled image, reused by tests that store many entries: compiling each would be slow,
// and the cache never looks inside the image.
inline const jet::detail::compiled_kernel& sample_image() {
  static const jet::detail::compiled_kernel k = jet::detail::compile(small_kernel(0), "sm_90");
  return k;
}

// sample_image() renamed to `source`'s kernel, as a store of `source` would hold.
inline jet::detail::compiled_kernel image_for(const jet::codegen::kernel_source& source) {
  jet::detail::compiled_kernel k = sample_image();
  k.name = source.name;
  return k;
}

// Sets (or with nullopt unsets) an environment variable until the end of the scope.
class scoped_env {
 public:
  scoped_env(const char* name, std::optional<std::string> value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      setenv(name, value->c_str(), 1);
    else
      unsetenv(name);
  }
  ~scoped_env() {
    if (old_)
      setenv(name_, old_->c_str(), 1);
    else
      unsetenv(name_);
  }
  scoped_env(const scoped_env&) = delete;
  scoped_env& operator=(const scoped_env&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

// Sends this process's stderr to a file until finish(), which returns what was written.
class captured_stderr {
 public:
  captured_stderr() : file_(std::tmpfile()) {
    std::fflush(stderr);
    saved_ = dup(STDERR_FILENO);
    dup2(fileno(file_), STDERR_FILENO);
  }
  ~captured_stderr() { finish(); }
  std::string finish() {
    if (saved_ < 0) return text_;
    std::fflush(stderr);
    dup2(saved_, STDERR_FILENO);
    close(saved_);
    saved_ = -1;
    std::rewind(file_);
    char chunk[4096];
    for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, file_)) > 0;)
      text_.append(chunk, n);
    std::fclose(file_);
    return text_;
  }

 private:
  std::FILE* file_;
  int saved_ = -1;
  std::string text_;
};

// Counts the times `needle` occurs in `text`.
inline std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1))
    ++count;
  return count;
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

inline void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
}

// Sets a file's modification time (its last use, to the cache) to `seconds_ago` before now.
inline void set_last_use(const std::string& path, long seconds_ago) {
  struct timespec times[2];
  clock_gettime(CLOCK_REALTIME, &times[0]);
  times[0].tv_sec -= seconds_ago;
  times[1] = times[0];
  REQUIRE(utimensat(AT_FDCWD, path.c_str(), times, 0) == 0);
}

struct outcome {
  int status;
  std::string out;
  std::string err;
};

// Runs a shell command line, capturing its standard output and error apart.
inline outcome run(const std::string& command) {
  char err_path[] = "/tmp/jet-test-stderr-XXXXXX";
  const int err_fd = mkstemp(err_path);
  REQUIRE(err_fd >= 0);
  close(err_fd);
  std::FILE* pipe = popen((command + " 2>" + err_path).c_str(), "r");
  REQUIRE(pipe);
  std::string out;
  char chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) out.append(chunk, n);
  const int status = pclose(pipe);
  outcome result{WIFEXITED(status) ? WEXITSTATUS(status) : -1, out, read_file(err_path)};
  unlink(err_path);
  return result;
}

}  // namespace jet_test
