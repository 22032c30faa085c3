// The device error channel: one record in mapped host memory that the host reads without a
// copy, and a claim word per device that elects the record's one writer.
#include "src/device/device_errors.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>

#include "codegen/expr/node.hpp"
#include "codegen/ir/params.hpp"
#include "jet/error.hpp"
#include "jet/stream.hpp"
#include "src/device/cuda_check.hpp"

namespace jet::detail {
namespace {

// As the kernels' preamble declares it (codegen/render/preamble.cpp).
struct error_record {
  std::uint32_t code;
  std::uint32_t unused;
  std::int64_t values[3];
};

constexpr int max_devices = 64;

struct channel {
  std::mutex mutex;
  error_record* record = nullptr;  // host address, mapped (UVA: the device's address too)
  unsigned* claims[max_devices] = {};
  bool any_open = false;  // set once a kernel may have reported: until then nothing to read
};

channel& the_channel() {
  static auto* const c = new channel;  // never destroyed: arrays may be freed at exit
  return *c;
}

bool sync_checks() {
  static const bool on = [] {
    const char* v = std::getenv("JET_SYNC_CHECKS");
    return v && std::strcmp(v, "0") != 0 && *v;
  }();
  return on;
}

// Clears every device's claim, which a report leaves taken, before any later kernel runs.
void reopen_claims(channel& c) {
  int current = 0;
  check_cuda(cudaGetDevice(&current), "cudaGetDevice");
  for (int d = 0; d < max_devices; ++d) {
    if (!c.claims[d]) continue;
    check_cuda(cudaSetDevice(d), "cudaSetDevice");
    check_cuda(cudaMemset(c.claims[d], 0, sizeof(unsigned)), "cudaMemset (device error claim)");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
  }
  check_cuda(cudaSetDevice(current), "cudaSetDevice");
}

// jet_checked_index's report: the index, how it was checked (make_checked_index, or a data
// check's code) and the size.
[[noreturn]] void raise_index_out_of_bounds(std::int64_t index, std::int64_t how,
                                            std::int64_t size) {
  switch (how) {
    case index_in_flat_array:
      throw value_error("index " + std::to_string(index) +
                        " is out of bounds for array with size " + std::to_string(size));
    case index_in_coordinates: throw value_error("invalid entry in coordinates array");
    case index_in_choices: throw value_error("invalid entry in choice array");
    case all_nan_slice: throw value_error("All-NaN slice encountered");
    case weights_sum_to_zero: throw value_error("Weights sum to zero, can't be normalized");
    default: throw index_error(out_of_bounds_text(index, how, size));
  }
}

}  // namespace

std::string out_of_bounds_text(std::int64_t index, std::int64_t axis, std::int64_t size) {
  return "index " + std::to_string(index) + " is out of bounds for axis " + std::to_string(axis) +
         " with size " + std::to_string(size);
}

void bind_device_errors() {
  channel& c = the_channel();
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  if (device >= max_devices) throw internal_error("device " + std::to_string(device));
  std::lock_guard lock(c.mutex);
  if (!c.record) {
    void* host = nullptr;
    check_cuda(
        cudaHostAlloc(&host, sizeof(error_record), cudaHostAllocMapped | cudaHostAllocPortable),
        "cudaHostAlloc (device error record)");
    std::memset(host, 0, sizeof(error_record));
    c.record = static_cast<error_record*>(host);
  }
  if (!c.claims[device]) {
    void* claim = nullptr;
    check_cuda(cudaMalloc(&claim, sizeof(unsigned)), "cudaMalloc (device error claim)");
    check_cuda(cudaMemset(claim, 0, sizeof(unsigned)), "cudaMemset (device error claim)");
    check_cuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");  // before any stream's kernel
    c.claims[device] = static_cast<unsigned*>(claim);
  }
  void* record = nullptr;
  check_cuda(cudaHostGetDevicePointer(&record, c.record, 0), "cudaHostGetDevicePointer");
  codegen::device_errors = {c.claims[device], record};
  c.any_open = true;
}

void check_after_launch() {
  if (!sync_checks()) return;
  synchronize();
}

void raise_device_errors() {
  channel& c = the_channel();
  if (!c.any_open) return;
  std::uint32_t code = 0;
  std::int64_t values[3] = {};
  {
    std::lock_guard lock(c.mutex);
    volatile error_record* r = c.record;
    code = r->code;
    if (code == 0) return;
    for (int k = 0; k < 3; ++k) values[k] = r->values[k];
    r->code = 0;
    reopen_claims(c);
  }
  switch (code) {
    case 1: throw value_error("Integers to negative integer powers are not allowed.");
    case 2: raise_index_out_of_bounds(values[0], values[1], values[2]);
    default: throw internal_error("device error code " + std::to_string(code));
  }
}

}  // namespace jet::detail
