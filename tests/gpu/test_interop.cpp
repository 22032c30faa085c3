// Living with other CUDA code: arrays over memory others allocated (array::wrap), their streams
// (external_stream), and DLPack tensors handed out and taken in (the same memory, strides and
// dtypes; deleters called once, after the work on the memory). PyTorch and CuPy are checked
// by tests/python/test_dlpack.py through tests/python/dlpack_bridge.cpp.
#include <cuda_runtime.h>

#include <atomic>
#include <cstdint>
#include <vector>

#include "jet/jet.hpp"
#include "src/interop/dlpack_abi.hpp"
#include "support/catch.hpp"

namespace {

void* device_alloc(std::size_t bytes) {
  void* p = nullptr;
  REQUIRE(cudaMalloc(&p, bytes) == cudaSuccess);
  return p;
}

}  // namespace

TEST_CASE("array::wrap views foreign device memory, owning or not", "[gpu][interop]") {
  std::vector<float> host(24);
  for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i);
  void* p = device_alloc(host.size() * sizeof(float));
  REQUIRE(cudaMemcpy(p, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice) ==
          cudaSuccess);
  {
    const jet::array a = jet::array::wrap(p, jet::float32, {4, 6});
    CHECK(a.data() == p);
    CHECK(a.is_c_contiguous());
    CHECK(jet::sum(a).item<double>() == 276.0);
    // Columns in Fortran order: strides in elements.
    const jet::array t = jet::array::wrap(p, jet::float32, {6, 4}, {1, 6});
    CHECK(jet::array_equal(t, a.T()));
    // Writes through a wrapped array reach the foreign memory.
    a(0, jet::slice()) = -1.0f;
    std::vector<float> back(host.size());
    jet::synchronize();
    REQUIRE(cudaMemcpy(back.data(), p, back.size() * sizeof(float), cudaMemcpyDeviceToHost) ==
            cudaSuccess);
    CHECK(back[0] == -1.0f);
    CHECK(back[6] == 6.0f);
  }
  std::atomic<int> deleted{0};
  {
    const jet::array owned = jet::array::wrap(p, jet::float32, {24}, {}, [&](void* q) {
      CHECK(q == p);
      cudaFree(q);
      ++deleted;
    });
    const jet::array y = jet::exp(owned) * 2;  // still reads `owned` after it goes
    CHECK(deleted == 0);
    (void)y.to_vector<float>();
  }
  jet::synchronize();
  CHECK(deleted == 1);
  std::vector<float> on_host(4);
  CHECK_THROWS_AS(jet::array::wrap(on_host.data(), jet::float32, {4}), jet::value_error);
  void* q = device_alloc(64);
  CHECK_THROWS_AS(jet::array::wrap(static_cast<char*>(q) + 2, jet::float32, {4}), jet::value_error);
  CHECK_THROWS_AS(jet::array::wrap(q, jet::float32, {2, 2}, {1}), jet::value_error);
  cudaFree(q);
}

TEST_CASE("an external stream carries all of Jet's work in its order", "[gpu][interop]") {
  cudaStream_t theirs = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&theirs, cudaStreamNonBlocking) == cudaSuccess);
  void* p = device_alloc(1 << 20);
  {
    const jet::stream s = jet::external_stream(theirs);
    CHECK(s.handle() == theirs);
    const jet::stream_guard guard(s);
    CHECK(jet::current_stream() == theirs);
    // Their memset, then Jet's kernels, a matmul and a reduction on the same stream.
    REQUIRE(cudaMemsetAsync(p, 0, 1 << 20, theirs) == cudaSuccess);
    const jet::array z = jet::array::wrap(p, jet::int32, {1 << 18});
    const jet::array x = jet::arange(1 << 18).astype(jet::int32) + z;
    const jet::array m = jet::ones({64, 64}, jet::float32);
    CHECK(jet::matmul(m, m)(0, 0).item<float>() == 64.0f);
    CHECK(jet::sum(x.astype(jet::int64)).item<std::int64_t>() ==
          (std::int64_t{1} << 18) * ((std::int64_t{1} << 18) - 1) / 2);
  }
  CHECK(cudaStreamQuery(theirs) == cudaSuccess);
  CHECK_THROWS_AS(jet::external_stream(nullptr), jet::value_error);
  cudaFree(p);
  cudaStreamDestroy(theirs);
}

TEST_CASE("DLPack tensors go out and come back as the same memory", "[gpu][interop]") {
  for (int d = 0; d < jet::dtype_count; ++d) {
    const auto t = static_cast<jet::dtype>(d);
    INFO(jet::name(t));
    const jet::array a = jet::arange(12.0).reshape({3, 4}).astype(t);
    const jet::array view = a(jet::slice(), jet::slice(jet::none, jet::none, 2));
    DLManagedTensorVersioned* m = jet::to_dlpack(view);
    CHECK(m->version.major == 1);
    CHECK(m->dl_tensor.device.device_type == kDLCUDA);
    CHECK(m->dl_tensor.ndim == 2);
    CHECK(m->dl_tensor.strides[0] == 4);
    CHECK(m->dl_tensor.strides[1] == 2);
    CHECK(m->dl_tensor.dtype.bits == jet::itemsize(t) * 8);
    const jet::array back = jet::from_dlpack(m);
    CHECK(back.data() == view.data());
    CHECK(back.dtype() == t);
    CHECK(jet::array_equal(back, view));
  }
  // The legacy struct, copies, read-only tensors and the consumer's stream.
  const jet::array x = jet::linspace(0.0, 1.0, 100);
  DLManagedTensor* legacy = jet::to_dlpack_legacy(x);
  CHECK(jet::from_dlpack(legacy).data() == x.data());
  jet::dlpack_options o;
  o.copy = true;
  DLManagedTensorVersioned* copied = jet::to_dlpack(x, o);
  CHECK((copied->flags & jet::detail::dlpack_is_copied) != 0);
  CHECK(copied->dl_tensor.data != x.data());
  const jet::array from_copy = jet::from_dlpack(copied);
  CHECK(jet::array_equal(from_copy, x));
  o = {};
  o.read_only = true;
  DLManagedTensorVersioned* frozen = jet::to_dlpack(x, o);
  const jet::array thawed = jet::from_dlpack(frozen);  // Jet writes arrays: a read-only one copies
  CHECK(thawed.data() != x.data());
  CHECK(jet::array_equal(thawed, x));
  cudaStream_t consumer = nullptr;
  REQUIRE(cudaStreamCreateWithFlags(&consumer, cudaStreamNonBlocking) == cudaSuccess);
  o = {};
  o.stream = consumer;
  DLManagedTensorVersioned* handed = jet::to_dlpack(jet::array(x * 3), o);
  std::vector<double> host(100);
  REQUIRE(cudaMemcpyAsync(host.data(), handed->dl_tensor.data, 800, cudaMemcpyDeviceToHost,
                          consumer) == cudaSuccess);
  REQUIRE(cudaStreamSynchronize(consumer) == cudaSuccess);
  CHECK(host[99] == 3.0);
  handed->deleter(handed);
  cudaStreamDestroy(consumer);
}

TEST_CASE("DLPack tensors Jet cannot take are refused and released", "[gpu][interop]") {
  static int released = 0;
  std::vector<std::int64_t> shape{4};
  std::vector<float> host{1, 2, 3, 4};
  const auto make = [&](DLDeviceType where, DLDataType type, void* data) {
    auto* m = new DLManagedTensorVersioned{};
    m->version = {1, 1};
    m->dl_tensor = {data, {where, 0}, 1, type, shape.data(), nullptr, 0};
    m->deleter = [](DLManagedTensorVersioned* self) {
      ++released;
      delete self;
    };
    return m;
  };
  // Host memory in C order is copied in.
  const jet::array copied = jet::from_dlpack(make(kDLCPU, {kDLFloat, 32, 1}, host.data()));
  CHECK(copied.to_vector<float>() == host);
  CHECK(released == 1);
  CHECK_THROWS_AS(jet::from_dlpack(make(kDLCPU, {kDLFloat, 8, 1}, host.data())), jet::dtype_error);
  CHECK_THROWS_AS(jet::from_dlpack(make(kDLCPU, {kDLFloat, 32, 4}, host.data())), jet::dtype_error);
  CHECK_THROWS_AS(jet::from_dlpack(make(static_cast<DLDeviceType>(4), {kDLFloat, 32, 1}, nullptr)),
                  jet::value_error);
  DLManagedTensorVersioned* future = make(kDLCPU, {kDLFloat, 32, 1}, host.data());
  future->version.major = 2;
  CHECK_THROWS_AS(jet::from_dlpack(future), jet::value_error);
  CHECK(released == 5);
}
