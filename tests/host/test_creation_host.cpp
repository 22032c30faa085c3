// Creation checks that happen before any device memory is touched.
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"

// arange takes integer and floating arguments mixed as NumPy does, with no ambiguity.
static_assert(std::is_same_v<decltype(jet::arange(2, 11, 3)), jet::array>);
static_assert(std::is_same_v<decltype(jet::arange(10)), jet::array>);
static_assert(std::is_same_v<decltype(jet::arange(0, 2.5)), jet::array>);
static_assert(std::is_same_v<decltype(jet::arange(0.5, 2.0, 0.25, jet::float32)), jet::array>);

TEST_CASE("asarray refuses a shape that does not hold the host values", "[host][creation]") {
  const std::vector<float> five = {1, 2, 3, 4, 5};
  REQUIRE_THROWS_AS(jet::asarray(five, jet::shape{2, 3}), jet::value_error);
  REQUIRE_THROWS_WITH(jet::asarray(five, jet::shape{2, 3}),
                      "cannot reshape array of size 5 into shape (2,3)");
  REQUIRE_THROWS_WITH(jet::asarray(std::vector<bool>{true, false}, jet::shape{3}),
                      "cannot reshape array of size 2 into shape (3,)");
  REQUIRE_THROWS_WITH(jet::asarray({1, 2, 3}, jet::shape{}),
                      "cannot reshape array of size 3 into shape ()");
}

TEST_CASE("host_shape defaults to 1-D and keeps a shape that fits", "[host][creation]") {
  CHECK(jet::detail::host_shape(7, std::nullopt) == jet::shape{7});
  CHECK(jet::detail::host_shape(6, jet::shape{2, 3}) == jet::shape{2, 3});
  CHECK(jet::detail::host_shape(0, jet::shape{0, 4}) == jet::shape{0, 4});
}
