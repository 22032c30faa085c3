// Jet arrays and other CUDA code: device memory that others own (array::wrap, in jet/array.hpp),
// their streams (jet::external_stream, in jet/stream.hpp), and DLPack, the exchange format of
// PyTorch, CuPy, JAX, NumPy and others. Include dlpack/dlpack.h (1.x) to read the structs.
#pragma once

#include <optional>

#include "jet/array.hpp"

struct CUstream_st;
struct DLManagedTensor;
struct DLManagedTensorVersioned;

namespace jet {

// How to_dlpack hands an array over, as the Python array API's __dlpack__ takes it.
struct dlpack_options {
  // The stream the consumer will use: Jet's queued work on the array is issued, and that
  // stream made to wait for it (an event, no host wait). Without one, the work is issued on
  // Jet's current stream and the consumer orders itself after it.
  std::optional<CUstream_st*> stream;
  // true: hand over a copy (flagged DLPACK_FLAG_BITMASK_IS_COPIED); false or unset: the
  // array's own memory, zero-copy.
  std::optional<bool> copy;
  // Marks the tensor DLPACK_FLAG_BITMASK_READ_ONLY for the consumer.
  bool read_only = false;
};

// `a` as a DLPack 1.x tensor (kDLCUDA, its dtype, shape and strides in elements). The array's
// memory stays alive until the consumer calls the tensor's deleter.
DLManagedTensorVersioned* to_dlpack(const array& a, const dlpack_options& options = {});
// The same as the legacy (pre-1.0) struct, for consumers that only take that one.
DLManagedTensor* to_dlpack_legacy(const array& a, const dlpack_options& options = {});

// An array over a DLPack tensor's memory, zero-copy, taking ownership: the tensor's deleter
// runs once no array uses the memory and the work queued on it has finished. CUDA and managed
// memory of the current device is used in place; a read-only tensor (versioned flag), or host
// memory (kDLCPU, kDLCUDAHost) in C order, is copied, and its deleter called at once.
// Throws jet::dtype_error for a type Jet lacks, jet::value_error for another device, a
// misaligned pointer or host memory that is not contiguous; the deleter is called then too.
array from_dlpack(DLManagedTensorVersioned* tensor);
array from_dlpack(DLManagedTensor* tensor);

}  // namespace jet
