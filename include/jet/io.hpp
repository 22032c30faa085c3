// Arrays in files: NumPy's .npy and .npz formats (numpy.save, savez, load) and delimited text
// (numpy.savetxt, loadtxt).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "jet/array.hpp"
#include "jet/expr.hpp"

namespace jet {

// numpy.save: `a` (an expression is evaluated) as a .npy file at `path` (written as given, no
// ".npy" added): format 1.0 (2.0 for a header past 64 KiB), every dtype (bfloat16, which NumPy
// lacks, as ml_dtypes writes it: descr '<V2'), C order, or Fortran order for an array that is
// Fortran-contiguous only. Throws jet::io_error naming the file when it cannot be written.
void save(const std::string& path, const expr& a);

// numpy.load of a .npy file: versions 1.0 to 3.0, every dtype Jet has ('<V2' read as bfloat16),
// either byte order, C or Fortran order (a Fortran-ordered file loads as a Fortran-contiguous
// array, as NumPy's does). The file is memory-mapped and copied to the device through pinned
// buffers. Throws jet::io_error naming the file and what is wrong when it cannot be read, is not
// a .npy file (a .npz archive: use jet::load_npz), holds a dtype Jet lacks or is shorter than its
// header says.
array load(const std::string& path);

// numpy.savez / savez_compressed: several arrays in one .npz archive (a zip of .npy files,
// stored or deflated). Unnamed arrays are called arr_0, arr_1, ... as NumPy names them;
// named ones keep their names: `jet::savez("f.npz", {{"x", x}, {"y", y * 2}})`. Repeated names
// raise jet::value_error; a file that cannot be written, jet::io_error.
using named_arrays = std::vector<std::pair<std::string, expr>>;
void savez(const std::string& path, const std::vector<expr>& arrays);
void savez(const std::string& path, const named_arrays& arrays);
void savez_compressed(const std::string& path, const std::vector<expr>& arrays);
void savez_compressed(const std::string& path, const named_arrays& arrays);

namespace detail {
class zip_reader;
}

// An open .npz archive, as numpy.load returns it for one: its arrays are read when asked for.
class npz_file {
 public:
  explicit npz_file(const std::string& path);
  // The arrays' names ("x" for the member "x.npy"), in the archive's order.
  const std::vector<std::string>& files() const { return files_; }
  bool contains(const std::string& name) const;
  // The array called `name`, loaded onto the device; jet::index_error when there is none.
  array operator[](const std::string& name) const;

 private:
  std::shared_ptr<const detail::zip_reader> archive_;
  std::vector<std::string> files_;
};
// numpy.load of a .npz file. Throws jet::io_error naming the file when it is not a zip archive or
// a member is corrupt.
npz_file load_npz(const std::string& path);

// numpy.savetxt's options: `fmt` a printf-style format of one value ("%.18e", "%d", "%.3f"),
// repeated for each column, or of a whole row (one conversion per column); complex values are
// written " (re+imj)" with it, as NumPy does. `header` and `footer` lines go out prefixed by
// `comments`.
struct savetxt_options {
  std::string fmt = "%.18e";
  std::string delimiter = " ";
  std::string newline = "\n";
  std::string header;
  std::string footer;
  std::string comments = "# ";
};
// numpy.savetxt of a 1-D (one value a line) or 2-D array. Throws jet::value_error for another
// number of dimensions or a format that does not fit, jet::io_error when it cannot write.
void savetxt(const std::string& path, const expr& a, const savetxt_options& options = {});

// numpy.loadtxt's options: `delimiter` empty for any run of whitespace; text from `comments`
// to the line's end is ignored; `usecols` picks columns (negative from the end); `max_rows`
// counts rows read after `skiprows`; `ndmin` 0, 1 or 2 as NumPy.
struct loadtxt_options {
  std::string delimiter;
  std::string comments = "#";
  std::int64_t skiprows = 0;
  std::vector<std::int64_t> usecols;
  std::optional<std::int64_t> max_rows;
  int ndmin = 0;
};
// numpy.loadtxt: a table of numbers as an array of dtype `t` (bool, integers, floats, complex
// written as "1+2j" or "(1+2j)"), squeezed as NumPy squeezes it (one row or one column: 1-D).
// Throws jet::value_error naming the row and column of text that is not a number of that dtype,
// or of a row whose number of columns differs; jet::io_error when the file cannot be read.
array loadtxt(const std::string& path, dtype t = float64, const loadtxt_options& options = {});

}  // namespace jet
