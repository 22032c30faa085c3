// NumPy's .npy format (numpy/lib/format.py), host code only: the header that says an array's
// dtype, shape and order, and its bytes in Jet's layout (little-endian, C order). Versions 1.0
// to 3.0 are read; the writer picks 1.0, or 2.0 for a header past 64 KiB, as NumPy does.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "jet/dtype.hpp"
#include "jet/shape.hpp"

namespace jet::detail {

struct npy_header {
  dtype type = dtype::float64;
  shape dims;
  bool fortran_order = false;
  bool big_endian = false;
  std::size_t data_offset = 0;  // where the data starts in the file
};

// NumPy's descr of dtype t: '<f4', '|b1', ...; bfloat16 as ml_dtypes writes it, '<V2'.
std::string npy_descr(dtype t);
// The header of `file`'s first bytes (`bytes`, at least the whole header); throws jet::io_error
// naming `file` and what is wrong.
npy_header read_npy_header(std::string_view bytes, const std::string& file);
// The header NumPy writes for an array of dtype t and shape `dims`, data in C order (or in
// Fortran order with `fortran_order`).
std::string npy_header_bytes(dtype t, const shape& dims, bool fortran_order);
// Swaps the bytes of each element of `data` (elements of dtype t; complex: each part).
void swap_bytes(std::vector<std::byte>& data, dtype t);

}  // namespace jet::detail
