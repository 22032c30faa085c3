// DLPack: Jet arrays handed to other libraries and theirs taken in, without copies.
#include <cuda_runtime.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "jet/error.hpp"
#include "jet/interop.hpp"
#include "jet/stream.hpp"
#include "src/device/cuda_check.hpp"
#include "src/interop/dlpack_abi.hpp"

namespace jet {
namespace {

struct type_row {
  dtype type;
  std::uint8_t code, bits;
};
constexpr type_row types[] = {
    {dtype::bool_, kDLBool, 8},           {dtype::int8, kDLInt, 8},
    {dtype::int16, kDLInt, 16},           {dtype::int32, kDLInt, 32},
    {dtype::int64, kDLInt, 64},           {dtype::uint8, kDLUInt, 8},
    {dtype::uint16, kDLUInt, 16},         {dtype::uint32, kDLUInt, 32},
    {dtype::uint64, kDLUInt, 64},         {dtype::float16, kDLFloat, 16},
    {dtype::bfloat16, kDLBfloat, 16},     {dtype::float32, kDLFloat, 32},
    {dtype::float64, kDLFloat, 64},       {dtype::complex64, kDLComplex, 64},
    {dtype::complex128, kDLComplex, 128},
};

DLDataType dl_type(dtype t) {
  for (const type_row& r : types)
    if (r.type == t) return {r.code, r.bits, 1};
  throw internal_error("to_dlpack: no DLPack type for " + std::string(name(t)));
}

dtype jet_type(DLDataType d) {
  for (const type_row& r : types)
    if (r.code == d.code && r.bits == d.bits && d.lanes == 1) return r.type;
  throw dtype_error("from_dlpack: no Jet dtype for DLPack type code " + std::to_string(d.code) +
                    " of " + std::to_string(d.bits) + " bits and " + std::to_string(d.lanes) +
                    " lanes");
}

// What a handed-over tensor keeps alive: the array and the shape and strides it points to.
struct handed_over {
  array a;
  std::vector<std::int64_t> shape, strides;
};

// Fills `t` from `a`; `keep` holds what it points to.
void describe(DLTensor& t, handed_over& keep) {
  const array& a = keep.a;
  keep.shape.assign(a.shape().begin(), a.shape().end());
  keep.strides.assign(a.strides().begin(), a.strides().end());
  t.data = a.data();
  t.device = {kDLCUDA, a.device()};
  t.ndim = a.ndim();
  t.dtype = dl_type(a.dtype());
  t.shape = keep.shape.data();
  t.strides = keep.strides.data();
  t.byte_offset = 0;
}

// The array to hand over, its queued work issued and the consumer's stream made to wait for it.
std::unique_ptr<handed_over> hand_over(const array& a, const dlpack_options& o) {
  auto keep = std::make_unique<handed_over>();
  keep->a = o.copy.value_or(false) ? a.copy() : a;
  CUstream_st* const ours = current_stream();  // issues the queued work
  if (o.stream && *o.stream != ours) {
    cudaEvent_t ready = nullptr;
    detail::check_cuda(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming), "cudaEventCreate");
    const cudaError_t recorded = cudaEventRecord(ready, ours);
    const cudaError_t waited =
        recorded == cudaSuccess ? cudaStreamWaitEvent(*o.stream, ready, 0) : recorded;
    cudaEventDestroy(ready);
    detail::check_cuda(waited, "handing a DLPack tensor to the consumer's stream");
  }
  return keep;
}

// A new managed tensor (either struct) over the array handed over; its deleter frees both.
template <class Managed>
Managed* managed_tensor(const array& a, const dlpack_options& o) {
  std::unique_ptr<handed_over> keep = hand_over(a, o);
  auto* m = new Managed{};
  describe(m->dl_tensor, *keep);
  m->manager_ctx = keep.release();
  m->deleter = [](Managed* self) {
    delete static_cast<handed_over*>(self->manager_ctx);
    delete self;
  };
  return m;
}

// The array over a DLPack tensor's memory; `owner` runs the tensor's deleter when released.
array taken_in(const DLTensor& t, std::uint64_t flags, std::shared_ptr<void> owner) {
  const dtype type = jet_type(t.dtype);
  shape s;
  for (int k = 0; k < t.ndim; ++k) s.push_back(t.shape[k]);
  shape strides = contiguous_strides(s);
  if (t.strides)
    for (int k = 0; k < t.ndim; ++k) strides[k] = t.strides[k];
  void* data = static_cast<std::byte*>(t.data) + t.byte_offset;
  const bool host = t.device.device_type == kDLCPU || t.device.device_type == kDLCUDAHost;
  if (!host && t.device.device_type != kDLCUDA && t.device.device_type != kDLCUDAManaged)
    throw value_error("from_dlpack: a tensor on DLPack device type " +
                      std::to_string(t.device.device_type) + "; Jet takes CUDA and host memory");
  if (host) {
    if (strides != contiguous_strides(s))
      throw value_error("from_dlpack: host memory with strides " + to_string(strides) +
                        " for the shape " + to_string(s) + "; Jet copies C-order host tensors");
    return from_host(data, type, s);  // copied: `owner` goes with the caller's scope
  }
  const array in_place = array::wrap(data, type, s, strides, std::move(owner));
  return (flags & detail::dlpack_read_only) ? in_place.copy() : in_place;
}

template <class Managed>
array take(Managed* m, std::uint64_t flags) {
  if (!m) throw value_error("from_dlpack: a null tensor");
  std::shared_ptr<void> owner(m, [](void* p) {
    auto* self = static_cast<Managed*>(p);
    if (self->deleter) self->deleter(self);
  });
  return taken_in(m->dl_tensor, flags, std::move(owner));
}

}  // namespace

DLManagedTensorVersioned* to_dlpack(const array& a, const dlpack_options& o) {
  auto* m = managed_tensor<DLManagedTensorVersioned>(a, o);
  m->version = {detail::dlpack_major, detail::dlpack_minor};
  m->flags = (o.read_only ? detail::dlpack_read_only : 0) |
             (o.copy.value_or(false) ? detail::dlpack_is_copied : 0);
  return m;
}

DLManagedTensor* to_dlpack_legacy(const array& a, const dlpack_options& o) {
  return managed_tensor<DLManagedTensor>(a, o);
}

array from_dlpack(DLManagedTensorVersioned* tensor) {
  if (tensor && tensor->version.major > detail::dlpack_major) {
    const DLPackVersion v = tensor->version;
    if (tensor->deleter) tensor->deleter(tensor);
    throw value_error("from_dlpack: DLPack version " + std::to_string(v.major) + "." +
                      std::to_string(v.minor) + "; Jet reads 1.x");
  }
  return take(tensor, tensor ? tensor->flags : 0);
}

array from_dlpack(DLManagedTensor* tensor) { return take(tensor, 0); }

}  // namespace jet
