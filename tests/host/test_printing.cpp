// Printing against NumPy's own repr and str (tests/host/data/printing.tsv, from
// generate_printing.py): Jet's host formatter (src/print) given the same elements, every dtype,
// 0-d, empty, summarized and wrapped arrays, and each print option; and the options' errors.
#include <cstdlib>
#include <string>
#include <vector>

#include "host/printing_table.hpp"
#include "jet/jet.hpp"
#include "src/print/shown.hpp"
#include "support/catch.hpp"

namespace {

// The positions along an axis of `length` that printing shows.
std::vector<std::int64_t> shown_positions(std::int64_t length, bool summarize, int edge) {
  std::vector<std::int64_t> at;
  for (std::int64_t i = 0; i < length; ++i)
    if (!summarize || 2 * edge >= length || i < edge || i >= length - edge) at.push_back(i);
  return at;
}

// The table's elements (all of them, C order) cut to those shown, as src/print takes them.
jet::detail::shown_elements shown_of(jet::dtype t, const jet::shape& full,
                                     const std::vector<std::string>& values,
                                     const jet::print_options& o) {
  const bool summarize = full.product() > o.threshold;
  std::vector<std::vector<std::int64_t>> axes;
  jet::detail::shown_elements e;
  e.type = t;
  for (int k = 0; k < full.size(); ++k) {
    axes.push_back(shown_positions(full[k], summarize, o.edgeitems));
    e.dims.push_back(static_cast<std::int64_t>(axes.back().size()));
  }
  if (e.dims.product() == 0) return e;
  std::vector<std::int64_t> at(static_cast<std::size_t>(full.size()), 0);
  for (std::int64_t n = 0; n < e.dims.product(); ++n) {
    std::int64_t flat = 0, rest = n;
    for (int k = full.size() - 1; k >= 0; --k) {
      at[static_cast<std::size_t>(k)] =
          axes[static_cast<std::size_t>(k)][static_cast<std::size_t>(rest % e.dims[k])];
      rest /= e.dims[k];
    }
    for (int k = 0; k < full.size(); ++k) flat = flat * full[k] + at[static_cast<std::size_t>(k)];
    const std::string& v = values[static_cast<std::size_t>(flat)];
    if (jet::is_inexact(t)) e.real.push_back(jet_test::real_part(v));
    if (jet::is_complex(t)) e.imag.push_back(jet_test::imag_part(v));
    if (!jet::is_inexact(t)) {
      e.integers.push_back(v);
    }
  }
  return e;
}

}  // namespace

TEST_CASE("repr and str print as NumPy's, every dtype, option and layout", "[host][printing]") {
  const std::vector<jet_test::printing_row> rows = jet_test::printing_rows();
  REQUIRE(rows.size() > 100);
  for (const jet_test::printing_row& r : rows) {
    INFO(r.name << " (" << jet::name(r.type) << ")");
    const jet::detail::shown_elements e = shown_of(r.type, r.full, r.values, r.options);
    CHECK(jet::detail::repr_text(e, r.full, r.options) == r.repr);
    CHECK(jet::detail::str_text(e, r.full, r.options) == r.str);
  }
}

TEST_CASE("bfloat16, which NumPy lacks, prints as float16 does, with its own shortest digits",
          "[host][printing]") {
  jet::detail::shown_elements e;
  e.type = jet::bfloat16;
  e.dims = {4};
  e.real = {1.0, 2.5, -3.25, static_cast<double>(static_cast<float>(jet::bfloat16_t(0.1f)))};
  const jet::print_options o;
  CHECK(jet::detail::repr_text(e, e.dims, o) ==
        "array([ 1.  ,  2.5 , -3.25,  0.1 ], dtype=bfloat16)");
  e.dims = {};
  e.real = {static_cast<double>(static_cast<float>(jet::bfloat16_t(1.0f / 3)))};
  CHECK(jet::detail::repr_text(e, {}, o) == "array(0.334, dtype=bfloat16)");
  CHECK(jet::detail::str_text(e, {}, o) == "0.334");
}

TEST_CASE("print options are checked, and a guard restores them", "[host][printing]") {
  jet::print_options bad;
  bad.floatmode = "shortest";
  CHECK_THROWS_AS(jet::set_printoptions(bad), jet::value_error);
  bad = {};
  bad.sign = 'x';
  CHECK_THROWS_AS(jet::set_printoptions(bad), jet::value_error);
  bad = {};
  bad.precision = -1;
  CHECK_THROWS_WITH(jet::set_printoptions(bad), "precision must be >= 0");
  jet::print_options three;
  three.precision = 3;
  {
    const jet::printoptions guard(three);
    CHECK(jet::get_printoptions().precision == 3);
  }
  CHECK(jet::get_printoptions().precision == 8);
}
