// Printing device arrays against NumPy's repr and str (tests/host/data/printing.tsv): the
// table's arrays made on the device in their dtype, printed through array_repr, array_str,
// operator<< and fmt; summarized arrays copy only their edges; expressions print by evaluating.
#include <complex>
#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "host/printing_table.hpp"
#include "jet/fmt.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"

namespace {

// The row's array on the device, in its dtype and shape.
jet::array device_array(const jet_test::printing_row& r) {
  const jet::dtype t = r.type;
  jet::array flat;
  if (jet::is_complex(t)) {
    std::vector<std::complex<double>> v;
    for (const std::string& s : r.values)
      v.emplace_back(jet_test::real_part(s), jet_test::imag_part(s));
    flat = jet::asarray(std::span<const std::complex<double>>(v));
  } else if (jet::is_floating(t)) {
    std::vector<double> v;
    for (const std::string& s : r.values) v.push_back(jet_test::real_part(s));
    flat = jet::asarray(std::span<const double>(v));
  } else if (jet::kind(t) == jet::dtype_kind::unsigned_int) {
    std::vector<std::uint64_t> v;
    for (const std::string& s : r.values) v.push_back(std::stoull(s));
    flat = jet::asarray(std::span<const std::uint64_t>(v));
  } else {
    std::vector<std::int64_t> v;
    for (const std::string& s : r.values) v.push_back(std::stoll(s));
    flat = jet::asarray(std::span<const std::int64_t>(v));
  }
  return jet::array(flat.astype(t)).reshape(r.full);
}

}  // namespace

TEST_CASE("device arrays print as NumPy prints them", "[gpu][printing]") {
  const std::vector<jet_test::printing_row> rows = jet_test::printing_rows();
  REQUIRE(rows.size() > 100);
  for (const jet_test::printing_row& r : rows) {
    INFO(r.name << " (" << jet::name(r.type) << ")");
    const jet::printoptions guard(r.options);
    const jet::array x = device_array(r);
    CHECK(jet::array_repr(x) == r.repr);
    CHECK(jet::array_str(x) == r.str);
  }
}

TEST_CASE("streams, fmt and expressions print as str does", "[gpu][printing]") {
  const jet::array x = jet::arange(6.0).reshape({2, 3});
  std::ostringstream out;
  out << x << '|' << (x * 2 + 1);
  CHECK(out.str() == "[[0. 1. 2.]\n [3. 4. 5.]]|[[ 1.  3.  5.]\n [ 7.  9. 11.]]");
  CHECK(fmt::format("{}", x(1)) == "[3. 4. 5.]");
  CHECK(fmt::format("{}", jet::expr(x(0, 0))) == "0.0");
  CHECK(jet::array2string(x, ", ", "x = ") == "[[0., 1., 2.],\n     [3., 4., 5.]]");
  CHECK(jet::array_repr(x.T()) == "array([[0., 3.],\n       [1., 4.],\n       [2., 5.]])");
  // A summarized view: its edges, through its strides.
  const jet::array ints(jet::arange(3000).astype(jet::int32));
  const jet::array big = ints(jet::slice(jet::none, jet::none, -1));
  CHECK(jet::array_str(big) == "[2999 2998 2997 ...    2    1    0]");
}
