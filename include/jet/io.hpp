// Arrays in files: NumPy's .npy format (numpy.save / numpy.load).
#pragma once

#include <string>

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
// array, as NumPy's does). Throws jet::io_error naming the file and what is wrong when it cannot
// be read, is not a .npy file, holds a dtype Jet lacks or is shorter than its header says.
array load(const std::string& path);

}  // namespace jet
