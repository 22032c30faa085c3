// Padding, editing and index arithmetic on the host, against NumPy (data/editing.tsv, written by
// data/generate_editing.py): the positions pad, delete_ and insert gather through, and every
// function's result shapes, dtypes and errors on placeholder arrays. pad, delete_ and insert
// copy their positions to the device and ediff1d with parts to join evaluates, so their
// results' shapes are the GPU test's; their errors come first, and are checked here.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "host/editing_table.hpp"
#include "jet/jet.hpp"
#include "src/array/edit_positions.hpp"
#include "support/catch.hpp"
#include "support/compiles.hpp"

namespace {

using jet::placeholder;
using jet_test::check_compiles;
namespace table = jet_test::editing;

std::string joined(const std::vector<std::int64_t>& positions) {
  std::string out;
  for (std::int64_t p : positions) out += (out.empty() ? "" : ",") + std::to_string(p);
  return out;
}

// An insertion as NumPy's result on np.arange(n) with values -1 - arange(count) spells it.
std::string joined(const jet::detail::insertion& plan) {
  std::vector<std::int64_t> codes;
  for (std::size_t j = 0; j < plan.from_a.size(); ++j)
    codes.push_back(plan.from_values[j] >= 0 ? -1 - plan.from_values[j] : plan.from_a[j]);
  return joined(codes);
}

template <class F>
std::string positions_or_error(F&& f) {
  try {
    return joined(f());
  } catch (const jet::index_error& e) {
    return std::string("error: index: ") + e.what();
  } catch (const jet::value_error& e) {
    return std::string("error: value: ") + e.what();
  }
}

// A positions row's answer: pad_positions N B,A MODE; delete_positions N OBJ; insert_positions
// N OBJ COUNT. A list's insertion raises in the public insert (which, without raising, would
// copy the positions to the device): where NumPy raises, that is what is asked.
std::string positions_of(const std::vector<std::string>& f, const std::string& want) {
  const std::int64_t n = std::stoll(f[1]);
  if (f[0] == "pad_positions") {
    const std::vector<std::int64_t> w = jet_test::integers(f[2]);
    return joined(jet::detail::pad_positions(n, {w[0], w[1]}, table::pad_mode_of(f[3])));
  }
  const std::string& obj = f[2];
  if (f[0] == "delete_positions")
    return positions_or_error([&] {
      if (obj[0] == 'm') return jet::detail::kept_unmasked(n, jet_test::mask_of(obj));
      return obj[0] == 's' ? jet::detail::kept_positions(n, jet_test::slice_of(obj))
                           : jet::detail::kept_positions(n, jet_test::integers(obj.substr(2)));
    });
  const std::int64_t count = std::stoll(f[3]);
  if (obj[0] == 'i') {
    const std::int64_t index = std::stoll(obj.substr(2));
    return joined(jet::detail::insert_positions(n, index < 0 ? index + n : index, count));
  }
  if (jet_test::is_error(want))
    return table::outcome({"insert", "(" + f[1] + ",):int8", obj, "(" + f[3] + ",):int8", "0"},
                          table::operands::placeholders);
  return joined(jet::detail::insert_positions(n, jet_test::integers(obj.substr(2))));
}

// Whether a function's result needs a device: gathers through positions copied there, and
// ediff1d's join.
bool needs_device(const std::vector<std::string>& f) {
  if (jet_test::is_error(f.back())) return false;
  if (f[0] == "pad" || f[0] == "delete" || f[0] == "insert") return true;
  return f[0] == "ediff1d" && (f[2] != "-" || f[3] != "-");
}

}  // namespace

TEST_CASE("pad, delete_ and insert read the positions NumPy's do", "[host][editing]") {
  std::map<std::string, int> rows;
  for (const auto& row : jet_test::read_table(JET_TEST_DATA "/editing.tsv")) {
    const bool pad = row[0] == "pad_positions", del = row[0] == "delete_positions",
               ins = row[0] == "insert_positions";
    if (!pad && !del && !ins) continue;
    const std::size_t fields = pad || ins ? 5 : 4;  // an empty result is no field
    REQUIRE((row.size() == fields || row.size() == fields - 1));
    INFO(row[0] << " " << row[1] << " " << row[2] << " " << (fields == 5 ? row[3] : ""));
    const std::string want = row.size() == fields ? row.back() : "";
    CHECK(positions_of(row, want) == want);
    ++rows[row[0]];
  }
  CHECK(rows["pad_positions"] > 300);
  CHECK(rows["delete_positions"] > 50);
  CHECK(rows["insert_positions"] > 30);
}

TEST_CASE("padding, editing and index arithmetic give NumPy's shapes, dtypes and errors",
          "[host][editing]") {
  std::map<std::string, int> checked, errors;
  for (const auto& row : table::function_rows()) {
    if (needs_device(row)) continue;
    std::string call;
    for (std::size_t k = 0; k + 1 < row.size(); ++k) call += row[k] + " ";
    INFO(call);
    CHECK(table::outcome(row, table::operands::placeholders) == row.back());
    ++checked[row[0]];
    if (jet_test::is_error(row.back())) ++errors[row[0]];
  }
  for (const auto& [function, call] : table::calls()) {
    INFO(function);
    CHECK(errors[function] > 0);
  }
  for (const char* lazy : {"resize", "rollaxis", "unravel_index", "ravel_multi_index", "choose"}) {
    INFO(lazy);
    CHECK(checked[lazy] - errors[lazy] > 10);
  }
}

TEST_CASE("rollaxis is a view, and delete_ and insert take braced lists", "[host][editing]") {
  const jet::array a = placeholder({3, 4, 5});  // strides (20, 5, 1)
  const jet::array r = jet::rollaxis(a, 2);
  CHECK(r.shape() == jet::shape{5, 3, 4});
  CHECK(r.strides() == jet::shape{1, 20, 5});
  CHECK(jet::rollaxis(a, 0, 3).strides() == jet::shape{5, 1, 20});
  CHECK_THROWS_WITH(jet::delete_(placeholder({5}), {1, 7}),
                    "index 7 is out of bounds for axis 0 with size 5");
  CHECK_THROWS_WITH(jet::delete_(placeholder({5, 2}), {7}, 0),
                    "index 7 is out of bounds for axis 0 with size 5");
  CHECK_THROWS_WITH(jet::delete_(placeholder({5, 2}), 2, 1),
                    "index 2 is out of bounds for axis 1 with size 2");
  // A braced list of one is NumPy's list of one, which its error spells so.
  CHECK_THROWS_WITH(jet::insert(placeholder({3}), {5}, 0),
                    "index [5] is out of bounds for axis 0 with size 3");
  CHECK_THROWS_WITH(jet::insert(placeholder({3}), 5, 0),
                    "index 5 is out of bounds for axis 0 with size 3");
  CHECK_THROWS_WITH(jet::pad(placeholder({3}), 1, jet::pad_mode::constant, placeholder({2})),
                    "jet::pad takes one constant value (a scalar or a 0-d array)");
  CHECK_THROWS_AS(jet::pad(placeholder({3}), std::vector<jet::pad_pair>{}), jet::dtype_error);
}

TEST_CASE("index arithmetic and resize are one kernel each, which compiles", "[host][editing]") {
  const jet::array flat = placeholder({6}, jet::int32);
  const std::vector<jet::expr> rc = jet::unravel_index(flat, {2, 3});
  CHECK(rc.size() == 2);
  // Both coordinates come from one checked index: reading them together is one kernel.
  const jet::explanation both = jet::explain(rc[0] * 10 + rc[1]);
  CHECK(both.source.find("jet_checked_index") != std::string::npos);
  check_compiles(rc[0] * 10 + rc[1]);
  check_compiles(
      jet::unravel_index(placeholder({4}, jet::uint8), {3, 2, 2}, jet::index_order::F)[2]);
  const jet::array i = placeholder({5}, jet::int64), j = placeholder({1}, jet::int16);
  for (jet::index_mode m : {jet::index_mode::raise, jet::index_mode::wrap, jet::index_mode::clip}) {
    check_compiles(jet::ravel_multi_index({i, j}, {7, 6}, m));
    check_compiles(jet::choose(i, {placeholder({5}, jet::float32), 2.5, j}, m) + 1);
  }
  check_compiles(jet::choose(placeholder({}, jet::bool_), {placeholder({3}, jet::complex64)}));
  check_compiles(jet::resize(placeholder({3, 2}, jet::bfloat16), {4, 5}));
  check_compiles(jet::resize(placeholder({0}, jet::int8), {4}));
}
