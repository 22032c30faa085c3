// Devices: counting and choosing them, arrays remembering theirs, copies between them and the
// errors for arrays of another device. The cases tagged [multigpu] need two devices: ctest runs
// them as gpu.multi_device, skipped on one (tests/support/main.cpp).
#include <memory>
#include <string>
#include <vector>

#include "jet/jet.hpp"
#include "support/catch.hpp"

TEST_CASE("device count, current device and properties", "[gpu][devices]") {
  const int n = jet::device::count();
  REQUIRE(n >= 1);
  CHECK(jet::device::current_id() == 0);
  const jet::device::properties& p = jet::device::get(0);
  CHECK(p.id == 0);
  CHECK(!p.name.empty());
  CHECK(p.multiprocessors > 0);
  CHECK(&jet::device::current() == &p);
  CHECK_THROWS_AS(jet::device::get(n), jet::value_error);
  CHECK_THROWS_WITH(jet::device::get(-1), jet_test::contains("device -1 does not exist: there ") &&
                                              jet_test::contains(std::to_string(n)));
}

TEST_CASE("device_guard on the current device changes nothing", "[gpu][devices]") {
  jet::stream s;
  CHECK(s.device() == 0);
  jet::stream_guard on_stream(s);
  {
    jet::device_guard on(0);
    CHECK(jet::current_stream() == s.handle());
    CHECK(jet::device::current_id() == 0);
  }
  CHECK(jet::current_stream() == s.handle());
  CHECK_THROWS_WITH(jet::device_guard(jet::device::count()), jet_test::contains("does not exist"));
  CHECK(jet::device::current_id() == 0);
}

TEST_CASE("arrays remember their device, and to_device of their own device is the array itself",
          "[gpu][devices]") {
  const jet::array a = jet::arange(10).astype(jet::float32);
  CHECK(a.device() == 0);
  CHECK(jet::array().device() == 0);
  CHECK(jet::zeros({0}).device() == 0);
  const jet::array same = a.to_device(0);
  CHECK(same.shares_buffer_with(a));
  CHECK_THROWS_AS(a.to_device(-1), jet::value_error);
  CHECK_THROWS_WITH(a.to_device(jet::device::count()), jet_test::contains("does not exist"));
  // A wrapped array and a DLPack round trip keep the device.
  CHECK(jet::array::wrap(a.data(), jet::float32, {10}).device() == 0);
  CHECK(jet::from_dlpack(jet::to_dlpack(a)).device() == 0);
}

TEST_CASE("arrays on two devices: copies, errors, streams and pools", "[gpu][.multigpu]") {
  REQUIRE(jet::device::count() >= 2);
  const std::vector<float> host{1, 2, 3, 4, 5, 6};
  const jet::array a = jet::asarray(host, {2, 3});
  jet::array b;
  {
    jet::device_guard on(1);
    CHECK(jet::device::current_id() == 1);
    CHECK(jet::current_stream() == nullptr);
    b = jet::asarray(host, {2, 3}) * 2;
    CHECK(b.device() == 1);
    CHECK(jet::memory::stats().in_use >= 24);
  }
  CHECK(jet::device::current_id() == 0);
  // Reading another device's array raises, naming both devices and the way out.
  CHECK_THROWS_WITH(jet::array(a + b), jet_test::contains("an array on device 1 while device 0") &&
                                           jet_test::contains(".to_device(0)"));
  CHECK_THROWS_AS(jet::matmul(a, b.T()), jet::value_error);
  CHECK_THROWS_AS(jet::sort(b), jet::value_error);
  // Host copies work from any device.
  CHECK(b.to_vector<float>() == std::vector<float>{2, 4, 6, 8, 10, 12});
  // Copies between devices, both ways, strided sources included.
  const jet::array b0 = b.to_device(0);
  CHECK(b0.device() == 0);
  CHECK(jet::array_equal(b0, a * 2));
  const jet::array t1 = a.T().to_device(1);
  CHECK(t1.device() == 1);
  CHECK(t1.is_c_contiguous());
  CHECK(t1.to_vector<float>() == std::vector<float>{1, 4, 2, 5, 3, 6});
  {
    jet::device_guard on(1);
    // From device 0 while device 1 is current; the result is on device 1's current stream.
    jet::stream s;
    CHECK(s.device() == 1);
    jet::stream_guard on_stream(s);
    const jet::array c = a.to_device(1);
    CHECK(jet::sum(c + b).item<double>() == 63.0);
  }
  // A stream of device 1 made current switches the device, and back.
  std::unique_ptr<jet::stream> s1;
  {
    jet::device_guard on(1);
    s1 = std::make_unique<jet::stream>();
  }
  {
    jet::stream_guard on_stream(*s1);
    CHECK(jet::device::current_id() == 1);
    CHECK(jet::array(b + 1).device() == 1);
  }
  CHECK(jet::device::current_id() == 0);
}
