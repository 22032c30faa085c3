// jet::distributed without a GPU: whether NCCL is built in, and the errors that come before
// any device is needed.
#include <algorithm>
#include <string>

#include "jet/device.hpp"
#include "jet/distributed.hpp"
#include "support/catch.hpp"

namespace dist = jet::distributed;

TEST_CASE("distributed: NCCL is built in, or every call says it is not", "[distributed]") {
  if (dist::available()) {
    CHECK(dist::unavailable_reason().empty());
    const std::string version = dist::nccl_version();
    CHECK(std::count(version.begin(), version.end(), '.') == 2);
  } else {
    CHECK_THAT(dist::unavailable_reason(), jet_test::contains("Jet was built without NCCL"));
    CHECK_THROWS_AS(dist::make_unique_id(), dist::unavailable);
    CHECK_THROWS_WITH(dist::nccl_version(), dist::unavailable_reason());
  }
}

TEST_CASE("distributed: a rank outside the communicator is refused", "[distributed]") {
  CHECK_THROWS_WITH(dist::communicator(dist::unique_id{}, 4, 4),
                    "communicator: rank 4 is outside [0, 4): a communicator of 4 ranks has ranks "
                    "0 to 3");
  CHECK_THROWS_AS(dist::communicator(dist::unique_id{}, 0, 0), jet::value_error);
  CHECK_THROWS_AS(dist::communicator(dist::unique_id{}, 2, -1), jet::value_error);
}

TEST_CASE("distributed: local ranks need devices that exist", "[distributed]") {
  CHECK_THROWS_AS(dist::communicator::local({999}), jet::error);
  if (jet::device::count() == 0)
    CHECK_THROWS_WITH(dist::communicator::local(),
                      jet_test::contains("communicator::local: there is no CUDA device to make a "
                                         "rank of ("));
}
