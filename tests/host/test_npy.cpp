// The .npy header (src/io/npy.cpp) against files NumPy wrote (tests/host/data/npy, from
// generate_npy.py): each file's dtype, shape, order and byte order read back, the header Jet
// writes equal to NumPy's byte for byte, corrupt or foreign headers refused by name; .npz
// archives (their zip layer) read and written.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "host/numpy_table.hpp"
#include "jet/jet.hpp"
#include "src/io/npy.hpp"
#include "src/io/zip.hpp"
#include "support/cache_support.hpp"
#include "support/catch.hpp"

namespace {

using jet_test::read_file;

const std::string npy_dir = std::string(JET_TEST_DATA) + "/npy/";

jet::shape shape_of(const std::string& text) {
  jet::shape s;
  for (const std::string& n : jet_test::split(text, ','))
    if (!n.empty()) s.push_back(std::stoll(n));
  return s;
}

// A header of `dict` as version 1.0 writes it (no padding: the reader does not need it).
std::string with_header(const std::string& dict) {
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\0';
  out += static_cast<char>(dict.size() & 0xff);
  out += static_cast<char>(dict.size() >> 8);
  return out + dict;
}

}  // namespace

TEST_CASE("npy headers NumPy wrote read back, and Jet writes them byte for byte", "[host][io]") {
  const auto rows = jet_test::read_table(npy_dir + "files.tsv");
  REQUIRE(rows.size() >= 20);
  for (const auto& f : rows) {
    INFO(f[0]);
    const std::string bytes = read_file(npy_dir + f[0]);
    const jet::detail::npy_header h = jet::detail::read_npy_header(bytes, f[0]);
    CHECK(jet::name(h.type) == f[1]);
    CHECK(h.dims == shape_of(f[2]));
    CHECK(h.fortran_order == (f[3] == "1"));
    CHECK(h.big_endian == (f[4] == "1"));
    std::int64_t size = 1;
    for (int k = 0; k < h.dims.size(); ++k) size *= h.dims[k];
    CHECK(bytes.size() == h.data_offset + static_cast<std::size_t>(size * jet::itemsize(h.type)));
    if (h.big_endian || f[0].find("_v") != std::string::npos) continue;
    CHECK(jet::detail::npy_header_bytes(h.type, h.dims, h.fortran_order) ==
          bytes.substr(0, h.data_offset));
  }
}

TEST_CASE("a header past 64 KiB is written as version 2.0, as NumPy does", "[host][io]") {
  jet::shape many;
  for (int k = 0; k < 16; ++k) many.push_back(1);
  const std::string small = jet::detail::npy_header_bytes(jet::float32, many, false);
  CHECK(small[6] == 1);
  CHECK(small.size() % 64 == 0);
  CHECK(small.back() == '\n');
  CHECK(jet::detail::npy_descr(jet::bfloat16) == "<V2");
  CHECK(jet::detail::npy_descr(jet::bool_) == "|b1");
  CHECK(jet::detail::npy_descr(jet::complex128) == "<c16");
}

TEST_CASE("corrupt and foreign npy headers raise io_error naming the file", "[host][io]") {
  using jet::detail::read_npy_header;
  const auto refused = [](const std::string& bytes, const std::string& why) {
    INFO(why);
    CHECK_THROWS_AS(read_npy_header(bytes, "x.npy"), jet::io_error);
    try {
      read_npy_header(bytes, "x.npy");
    } catch (const jet::io_error& e) {
      CHECK(std::string(e.what()).rfind("x.npy: ", 0) == 0);
      CHECK(std::string(e.what()).find(why) != std::string::npos);
    }
  };
  refused("PK\x03\x04 not numpy", "not a .npy file");
  refused(std::string("\x93NUMPY\x04\x00\x10\x00", 10), "unsupported .npy format version 4.0");
  const std::string good = read_file(npy_dir + "float32.npy");
  refused(good.substr(0, 40), "truncated in the header");
  refused(with_header("{'descr': '<U4', 'fortran_order': False, 'shape': (2,), }"),
          "unsupported dtype descr '<U4'");
  refused(with_header("{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (2,), }"),
          "structured dtypes");
  refused(with_header("{'descr': '<f4', 'shape': (2,), }"), "lacks one of");
  refused(with_header("{'descr': '<f4', 'fortran_order': Maybe, 'shape': (2,), }"),
          "neither True nor False");
  refused(with_header("{'descr': '<f4', 'fortran_order': False, 'shape': (2, x), }"),
          "shape is malformed");
  refused(with_header("{'descr': '<f4' 'fortran_order': False}"), "malformed");
  const jet::detail::npy_header h = read_npy_header(
      with_header("{\"shape\": (3, 4), \"fortran_order\": True, \"descr\": \">c8\"}"), "y.npy");
  CHECK(h.type == jet::complex64);
  CHECK(h.big_endian);
  CHECK(h.fortran_order);
  CHECK(h.dims == jet::shape{3, 4});
}

TEST_CASE("npz archives: NumPy's members listed and read, Jet's written and read back",
          "[host][io]") {
  const jet::detail::zip_reader numpy_made(npy_dir + "arrays.npz");
  CHECK(numpy_made.names() == std::vector<std::string>{"x.npy", "flag.npy", "arr_0.npy"});
  const std::string x = numpy_made.read("x.npy");
  const jet::detail::npy_header h = jet::detail::read_npy_header(x, "x.npy");
  CHECK(h.type == jet::float32);
  CHECK(h.dims == jet::shape{2});
  CHECK(x.size() == h.data_offset + 8);
  const jet::detail::zip_reader deflated(npy_dir + "compressed.npz");
  CHECK(deflated.names() == std::vector<std::string>{"a.npy", "b.npy"});
  CHECK(jet::detail::read_npy_header(deflated.read("a.npy"), "a.npy").dims == jet::shape{1000});
  CHECK_THROWS_AS(deflated.read("c.npy"), jet::io_error);

  const jet_test::temp_dir dir;
  const std::string big(1 << 20, 'z');
  for (const bool deflate : {false, true}) {
    jet::detail::write_zip(dir / "out.npz", {{"a.npy", "first"}, {"b.npy", big}}, deflate);
    const jet::detail::zip_reader back(dir / "out.npz");
    CHECK(back.names() == std::vector<std::string>{"a.npy", "b.npy"});
    CHECK(back.read("a.npy") == "first");
    CHECK(back.read("b.npy") == big);
  }
  CHECK(std::filesystem::file_size(dir.path() + "/out.npz") < 100000);  // deflated
  CHECK_THROWS_AS(jet::detail::write_zip(dir / "no/such/dir/x.npz", {{"a", "b"}}, false),
                  jet::io_error);
}

TEST_CASE("broken and foreign archives raise io_error naming the file", "[host][io]") {
  using jet::detail::zip_reader;
  CHECK_THROWS_AS(zip_reader(npy_dir + "float32.npy"), jet::io_error);
  CHECK_THROWS_WITH(zip_reader(npy_dir + "float32.npy"), jet_test::contains("not a zip"));
  CHECK_THROWS_WITH(zip_reader(npy_dir + "absent.npz"), jet_test::contains("absent.npz"));
  CHECK_THROWS_WITH(zip_reader(npy_dir + "broken.npz"), jet_test::contains("broken.npz"));
}
