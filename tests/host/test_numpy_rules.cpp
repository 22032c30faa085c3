// NumPy's result dtypes and refusals for the functions it defines in its own terms, checked on
// the host: expressions are typed when they are made (the values are tests/gpu's).
#include <complex>
#include <cstdint>

#include "jet/jet.hpp"
#include "support/catch.hpp"

TEST_CASE("angle of a real z is arctan2(0, z), with NumPy's dtypes", "[numpy]") {
  CHECK(jet::angle(jet::placeholder({2}, jet::bool_)).dtype() == jet::float64);
  CHECK(jet::angle(jet::placeholder({2}, jet::int8)).dtype() == jet::float16);
  CHECK(jet::angle(jet::placeholder({2}, jet::int16)).dtype() == jet::float32);
  CHECK(jet::angle(jet::placeholder({2}, jet::int32)).dtype() == jet::float64);
  CHECK(jet::angle(jet::placeholder({2}, jet::float32)).dtype() == jet::float32);
  CHECK(jet::angle(jet::placeholder({2}, jet::complex64)).dtype() == jet::float32);
}

TEST_CASE("real and imag of Python scalars stay weak", "[numpy]") {
  const jet::array i32 = jet::placeholder({2}, jet::int32),
                   f32 = jet::placeholder({2}, jet::float32);
  CHECK((jet::imag(-2) + i32).dtype() == jet::int32);
  CHECK((jet::real(true) + i32).dtype() == jet::int32);
  CHECK((jet::real(std::complex<double>(1, 2)) * f32).dtype() == jet::float32);
  CHECK((jet::imag(2.0) * jet::placeholder({1}, jet::int8)).dtype() == jet::float64);
}

TEST_CASE("Python ints past what NumPy 2.5 converts are refused in NumPy's words", "[numpy]") {
  const jet::array u32 = jet::placeholder({2}, jet::uint32),
                   flags = jet::placeholder({2}, jet::bool_);
  const std::uint64_t huge = 18446744073709551615ull;
  CHECK(jet::logical_and(u32, -7).dtype() == jet::bool_);
  CHECK(jet::logical_or(300, jet::placeholder({2}, jet::int8)).dtype() == jet::bool_);
  CHECK_THROWS_WITH(jet::logical_or(u32, huge), "Python int too large to convert to C long");
  CHECK_THROWS_AS(jet::greater(huge, flags), jet::value_error);
  CHECK(jet::greater(huge, jet::placeholder({2}, jet::uint64)).dtype() == jet::bool_);
  CHECK_THROWS_AS(jet::subtract(huge, false), jet::value_error);
  CHECK_THROWS_WITH(jet::add(true, huge), "Python int too large to convert to C long");
  CHECK_THROWS_AS(jet::right_shift(-1.5, huge), jet::dtype_error);  // no loop: NumPy's first error
  CHECK(jet::add(1.5, huge).dtype() == jet::float64);
  CHECK(jet::less(huge, 1).dtype() == jet::bool_);
  CHECK(jet::negative(huge).dtype() == jet::uint64);  // alone, the array NumPy makes of it
  CHECK((jet::isnan(huge) + u32).dtype() == jet::uint32);
  CHECK_THROWS_AS(jet::where(flags, jet::placeholder({2}, jet::uint64), -1), jet::value_error);
  CHECK(jet::nanmean(huge).dtype() == jet::float64);  // an array of it is uint64
  CHECK(jet::expr(huge).dtype() == jet::uint64);
}
