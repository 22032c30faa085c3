// Scans on the host: their kernels compile for every dtype and both layouts (tiles of rows,
// runs of columns), with producers fused in; each kernel names its layout in its source. The
// result dtypes and shapes are in the NumPy table (test_sorting_table.cpp).
#include <string>

#include "jet/jet.hpp"
#include "support/catch.hpp"
#include "support/compiles.hpp"

using jet_test::check_compiles;

namespace {

bool source_has(const jet::expr& e, const std::string& text) {
  return jet::explain(e).source.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("scan kernels compile for every dtype in both layouts", "[host][scan]") {
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    INFO(jet::name(t));
    const jet::array a = jet::placeholder({33, 1000}, t);
    check_compiles(jet::cumsum(a, 1));
    check_compiles(jet::cumprod(a, 0));
    check_compiles(jet::nancumsum(a.T(), 1, t));
    check_compiles(jet::nancumprod(a));
  }
}

TEST_CASE("scans choose tiles of rows or runs of columns by the layout", "[host][scan]") {
  const jet::array a = jet::placeholder({300, 5000}, jet::float32);
  const jet::array b = jet::placeholder({5000}, jet::float32);
  CHECK(source_has(jet::cumsum(a, 1), "jet_scan_rows<64, jet_scan_op, 2, 128>"));
  CHECK(source_has(jet::cumsum(a, 0), "jet_scan_columns<16,"));
  CHECK(source_has(jet::cumsum(a.T(), 1), "jet_scan_columns<"));
  // Flattened, and rows shorter than a tile hold fewer elements a thread.
  CHECK(source_has(jet::cumsum(a.T()), "jet_scan_rows<64,"));
  CHECK(source_has(jet::cumsum(jet::placeholder({100, 300}, jet::float32), 1), "jet_scan_rows<4,"));
  CHECK(
      source_has(jet::cumsum(jet::placeholder({1000, 12}, jet::float32), 1), "jet_scan_columns<"));
  CHECK(source_has(jet::cumprod(jet::placeholder({4000}, jet::complex128)), "jet_scan_rows<16,"));
  // The producer is computed in the scan's kernel.
  const jet::expr fused = jet::cumsum(a * b + 1.0f, 1);
  const jet::explanation x = jet::explain(fused);
  CHECK(x.kernel_name.starts_with("jet_cumsum"));
  CHECK(x.source.find("jet_element") != std::string::npos);
  check_compiles(fused);
  check_compiles(jet::cumsum(jet::sin(a), 0, jet::float64));
  check_compiles(jet::cumprod(jet::placeholder({}, jet::int8)));
  check_compiles(jet::cumsum(jet::placeholder({3, 1, 1}, jet::int16)));
}

TEST_CASE("scans keep NumPy's shapes, dtypes and errors", "[host][scan]") {
  const jet::array a = jet::placeholder({3, 4}, jet::int8);
  CHECK(jet::cumsum(a).shape() == jet::shape{12});
  CHECK(jet::cumsum(a).dtype() == jet::int64);
  CHECK(jet::cumprod(a, 0).shape() == jet::shape{3, 4});
  CHECK(jet::cumsum(a, -1, jet::float32).dtype() == jet::float32);
  CHECK(jet::nancumsum(jet::placeholder({5}, jet::float16)).dtype() == jet::float16);
  CHECK(jet::cumsum(jet::placeholder({5}, jet::uint8)).dtype() == jet::uint64);
  CHECK_THROWS_WITH(jet::cumsum(a, 2),
                    jet_test::contains("axis 2 is out of bounds for array of dimension 2"));
  CHECK(jet::cumsum(jet::placeholder({0, 4}, jet::float32), 1).shape() == jet::shape{0, 4});
  CHECK(jet::cumsum(jet::placeholder({}, jet::float32), 0).shape() == jet::shape{1});
}

TEST_CASE("a scan writes each element where the operand has it", "[host][scan]") {
  // The output keeps every axis of the operand: its strides follow the operand's, the scanned
  // axis last (a column scan of a C-order matrix, and the middle axis of a 3-d array).
  const auto strides = [](const jet::expr& e) {
    const std::string lines = jet::explain(e).operands;
    const std::string out = lines.substr(0, lines.find('\n'));
    const std::string in = lines.substr(lines.find('\n') + 1);
    return std::pair{out.substr(out.find("strides")), in.substr(in.find("strides"))};
  };
  for (const auto& [out, in] : {strides(jet::cumsum(jet::placeholder({300, 37}, jet::float32), 0)),
                                strides(jet::cumprod(jet::placeholder({3, 5, 7}, jet::int64), 1))})
    CHECK(out == in.substr(0, in.find('\n')));
}
