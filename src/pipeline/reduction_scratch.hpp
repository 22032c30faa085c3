// Where a reduction's chunks keep their partial states and count themselves done, and a
// scan's tiles their prefixes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

#include "codegen/ir/ir.hpp"
#include "src/device/memory.hpp"

namespace jet::detail {

// Gives a reduction cut into chunks (r.splits > 1) over `blocks` grid columns its chunk
// counters and `work_bytes` of room for partial states: the current stream's scratch, or
// `work`, allocated here when the scratch is too small (the caller keeps it until the launch
// is queued). Sets r.counters and r.work.
void place_partial_states(ir::reduction_geometry& r, std::int64_t blocks, std::size_t work_bytes,
                          std::shared_ptr<buffer>& work);

// Gives a scan its tiles' flags (zeroed on the current stream, before the launch) and values:
// `work`, allocated here, which the caller keeps until the launch is queued. Sets r.counters
// and r.work.
void place_tile_states(ir::reduction_geometry& r, std::shared_ptr<buffer>& work);

// How many (device, stream) scratches are held: one per stream that ran a reduction, until
// that jet::stream is destroyed.
std::size_t reduction_scratch_count();

}  // namespace jet::detail
