// Errors raised by Jet. Every user-facing failure is a jet::error naming what was wrong.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace jet {

// Base of every error Jet raises.
class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Shapes that do not fit together (NumPy's ValueError for broadcasting and reshapes).
class shape_error : public error {
 public:
  using error::error;
};

// A dtype an operation does not support (NumPy's TypeError / UFuncTypeError).
class dtype_error : public error {
 public:
  using error::error;
};

// An index or axis out of range (NumPy's IndexError / AxisError).
class index_error : public error {
 public:
  using error::error;
};

// A value an operation cannot take (NumPy's ValueError / OverflowError).
class value_error : public error {
 public:
  using error::error;
};

// NVRTC rejected a kernel: carries the compiler log and the numbered source.
class compile_error : public error {
 public:
  compile_error(const std::string& what, std::string log, std::string source)
      : error(what), log_(std::move(log)), source_(std::move(source)) {}
  const std::string& log() const { return log_; }
  const std::string& source() const { return source_; }

 private:
  std::string log_;
  std::string source_;
};

// A CUDA runtime, driver, cuBLAS or cuRAND call failed.
class cuda_error : public error {
 public:
  cuda_error(const std::string& what, int status) : error(what), status_(status) {}
  int status() const { return status_; }

 private:
  int status_;
};

// Device memory could not be had even after trimming the pool.
class out_of_memory : public error {
 public:
  out_of_memory(const std::string& what, std::size_t requested, std::size_t in_use)
      : error(what), requested_(requested), in_use_(in_use) {}
  std::size_t requested() const { return requested_; }
  std::size_t in_use() const { return in_use_; }

 private:
  std::size_t requested_;
  std::size_t in_use_;
};

// The kernel cache could not be read or written.
class cache_error : public error {
 public:
  using error::error;
};

// A file that cannot be read or written, or whose content is not what its format says
// (jet::load, jet::save): names the file and what was wrong.
class io_error : public error {
 public:
  using error::error;
};

// A broken invariant inside Jet: always a bug in Jet, never the user's doing.
class internal_error : public error {
 public:
  explicit internal_error(const std::string& what)
      : error("internal error in Jet (please report this bug): " + what) {}
};

}  // namespace jet
