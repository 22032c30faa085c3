// A small shared library that tests/python/test_dlpack.py loads with ctypes: Jet arrays handed
// to PyTorch and CuPy as DLPack tensors, and their tensors taken in by Jet.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string_view>

#include "jet/jet.hpp"

namespace {

void* last_data = nullptr;

// The stream argument of the Python array API's __dlpack__: 1 the legacy default stream, 2 the
// per-thread one, -1 no hand-off, 0 none given, else a cudaStream_t.
std::optional<CUstream_st*> consumer_stream(std::intptr_t s) {
  if (s == 0 || s == -1) return std::nullopt;
  if (s == 1) return reinterpret_cast<CUstream_st*>(0x1);  // cudaStreamLegacy
  if (s == 2) return reinterpret_cast<CUstream_st*>(0x2);  // cudaStreamPerThread
  return reinterpret_cast<CUstream_st*>(s);
}

}  // namespace

extern "C" {

// arange(rows * cols) of dtype `name`, shaped (rows, cols) and transposed when `transpose`, as a
// DLPack tensor (the 1.x struct when `versioned`, else the legacy one).
void* bridge_export(const char* name, long long rows, long long cols, int transpose, int versioned,
                    std::intptr_t stream) {
  const jet::array base =
      jet::arange(rows * cols).astype(jet::dtype_from_name(name)).reshape({rows, cols});
  const jet::array a = transpose ? base.T() : base;
  last_data = a.data();
  jet::dlpack_options o;
  o.stream = consumer_stream(stream);
  return versioned ? static_cast<void*>(jet::to_dlpack(a, o))
                   : static_cast<void*>(jet::to_dlpack_legacy(a, o));
}

// The data address of the last exported array.
void* bridge_last_data() { return last_data; }

// Takes in a tensor: the sum of its elements as float64, its data address as Jet sees it in
// `data`, its dtype's name in `name` (16 bytes).
double bridge_import_sum(void* tensor, int versioned, void** data, char* name) {
  const jet::array a = versioned ? jet::from_dlpack(static_cast<DLManagedTensorVersioned*>(tensor))
                                 : jet::from_dlpack(static_cast<DLManagedTensor*>(tensor));
  *data = a.data();
  const std::string_view n = jet::name(a.dtype());
  n.copy(name, 15);
  name[std::min<std::size_t>(n.size(), 15)] = '\0';
  return jet::sum(a.astype(jet::float64)).item<double>();
}

}  // extern "C"
