// The DLPack 1.1 ABI (github.com/dmlc/dlpack, include/dlpack/dlpack.h): the structs other
// libraries exchange tensors through, laid out as the specification lays them out, under its
// names, so that include/jet/interop.hpp's forward declarations name these same types. Debian
// 12 packages only DLPack 0.6 (libdlpack-dev), which lacks the versioned struct.
#pragma once

#include <cstdint>

extern "C" {

struct DLPackVersion {
  std::uint32_t major;
  std::uint32_t minor;
};

enum DLDeviceType : std::int32_t {
  kDLCPU = 1,
  kDLCUDA = 2,
  kDLCUDAHost = 3,
  kDLCUDAManaged = 13,
};

struct DLDevice {
  DLDeviceType device_type;
  std::int32_t device_id;
};

enum DLDataTypeCode : std::uint8_t {
  kDLInt = 0,
  kDLUInt = 1,
  kDLFloat = 2,
  kDLBfloat = 4,
  kDLComplex = 5,
  kDLBool = 6,
};

struct DLDataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct DLTensor {
  void* data;
  DLDevice device;
  std::int32_t ndim;
  DLDataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null for C order
  std::uint64_t byte_offset;
};

struct DLManagedTensor {
  DLTensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(DLManagedTensor* self);
};

struct DLManagedTensorVersioned {
  DLPackVersion version;
  void* manager_ctx;
  void (*deleter)(DLManagedTensorVersioned* self);
  std::uint64_t flags;
  DLTensor dl_tensor;
};

}  // extern "C"

namespace jet::detail {
inline constexpr std::uint32_t dlpack_major = 1, dlpack_minor = 1;
inline constexpr std::uint64_t dlpack_read_only = 1u << 0, dlpack_is_copied = 1u << 1;
}  // namespace jet::detail
