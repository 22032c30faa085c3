// Sorting and searching on the host: the kernels that write sort keys, read them back and
// search sorted arrays compile for every dtype and layout (no GPU needed), and the errors
// raised before any work.
#include "codegen/expr/node.hpp"
#include "jet/jet.hpp"
#include "support/catch.hpp"
#include "support/compiles.hpp"

using jet_test::check_compiles;

TEST_CASE("sort key kernels compile for every dtype", "[host][sorting]") {
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    INFO(jet::name(t));
    const jet::array a = jet::placeholder({7, 5}, t);
    const jet::expr comparing(jet::detail::make_sort_key(jet::expr(a * a).node(), true));
    CHECK(comparing.dtype() == jet::detail::sort_key_dtype(t));
    check_compiles(comparing);
    if (jet::is_complex(t)) {
      CHECK_THROWS_AS(jet::detail::make_sort_key(jet::expr(a).node(), false), jet::internal_error);
      continue;
    }
    const jet::expr exact(jet::detail::make_sort_key(jet::expr(a).node(), false));
    check_compiles(exact);
    const jet::array keys = jet::placeholder({5, 7}, jet::detail::sort_key_dtype(t));
    check_compiles(jet::expr(jet::detail::make_sort_value(jet::expr(keys.T()).node(), t)));
  }
  CHECK(jet::detail::sort_key_dtype(jet::complex64) == jet::uint64);
  // Searches in each dtype, and in promoted ones.
  for (int i = 0; i < jet::dtype_count; ++i) {
    const auto t = static_cast<jet::dtype>(i);
    INFO(jet::name(t));
    const jet::array sorted = jet::placeholder({100}, t);
    check_compiles(jet::searchsorted(sorted, jet::placeholder({6, 9}, t)));
    check_compiles(jet::searchsorted(sorted, jet::placeholder({6, 9}, jet::float32), "right") + 1);
    check_compiles(jet::searchsorted(sorted(jet::slice(jet::none, jet::none, -3)), 2.5));
  }
  CHECK(jet::detail::sort_key_dtype(jet::bfloat16) == jet::uint16);
  CHECK(jet::detail::sort_key_dtype(jet::bool_) == jet::uint8);
}

TEST_CASE("sort and argsort check their axis and index dtype first", "[host][sorting]") {
  const jet::array a = jet::placeholder({3, 4}, jet::float32);
  CHECK_THROWS_WITH(jet::sort(a, 2), "axis 2 is out of bounds for array of dimension 2");
  CHECK_THROWS_WITH(jet::argsort(a, -3), "axis -3 is out of bounds for array of dimension 2");
  CHECK_THROWS_WITH(jet::argsort(a, 0, jet::uint32),
                    "index_dtype must be int64 or int32, not uint32");
  CHECK_THROWS_WITH(jet::lexsort({a, jet::placeholder({4}, jet::int32)}),
                    "all keys need to be the same shape");
  CHECK_THROWS_WITH(jet::searchsorted(a, 1.0), "object too deep for desired array");
  CHECK_THROWS_WITH(jet::searchsorted(jet::placeholder({}, jet::int8), 1.0),
                    "object of too small depth for desired array");
  CHECK_THROWS_WITH(jet::searchsorted(a(0), 1.0, "up"),
                    "search side must be 'left' or 'right' (got 'up')");
  CHECK_THROWS_WITH(jet::searchsorted(a(0), 1.0, "left", jet::placeholder({4}, jet::float32)),
                    "sorter must only contain integers");
  CHECK(jet::searchsorted(a(0), jet::placeholder({2, 5}, jet::int8)).dtype() == jet::int64);
  CHECK(jet::searchsorted(a(0), jet::placeholder({2, 5}, jet::int8)).shape() == jet::shape{2, 5});
}
