// Fuzzes the reader of .npy headers (src/io/npy.cpp, what jet::load and jet::load_npz read from
// files others wrote). Any bytes either raise jet::io_error or give a header whose data starts
// inside or right after the bytes read, with non-negative dimensions; such a header, written
// back as Jet writes headers, reads again as the same dtype, shape and order.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "jet/error.hpp"
#include "src/io/npy.hpp"
#include "tests/fuzz/fuzz_check.hpp"

using jet::fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view bytes(reinterpret_cast<const char*>(data), size);
  jet::detail::npy_header h;
  try {
    h = jet::detail::read_npy_header(bytes, "fuzz.npy");
  } catch (const jet::io_error& e) {
    require(std::string_view(e.what()).starts_with("fuzz.npy: "), "errors name the file");
    return 0;
  }
  require(h.data_offset >= 10 && h.data_offset <= size, "the data starts after the header read");
  for (std::int64_t d : h.dims) require(d >= 0, "dimensions are not negative");
  const std::string again = jet::detail::npy_header_bytes(h.type, h.dims, h.fortran_order);
  const jet::detail::npy_header back = jet::detail::read_npy_header(again, "again.npy");
  require(back.type == h.type && back.dims == h.dims && back.fortran_order == h.fortran_order &&
              back.data_offset == again.size() && !back.big_endian,
          "a header read writes back and reads again the same");
  return 0;
}
