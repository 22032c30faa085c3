// Which device an array is on, against the calling thread's current device.
#pragma once

#include <cuda_runtime.h>

#include "jet/array.hpp"

namespace jet::detail {

// True when `a` has memory on a device other than the current one (never with one device).
bool on_other_device(const array& a);
// Throws jet::value_error when `a` is on another device than the current one; `what` names
// the operation.
void check_on_current_device(const array& a, const char* what);
// A copy of C-contiguous `source` (on the current device, its work on `source_stream`) on
// device `to`, allocated and written on `target_stream` there; each stream waits for the
// other's part, so that neither reads or frees memory early. Peer to peer where the pair of
// devices allows it, else through the host (CUDA's choice).
array copy_to_peer(const array& source, int to, cudaStream_t source_stream,
                   cudaStream_t target_stream);
// Waits until every piece of work Jet queued on device `id`, on any stream, has finished.
void settle_device(int id);

}  // namespace jet::detail
