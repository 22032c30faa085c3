// Launch geometry and limits that the generated kernels, the planner and the launcher share.
#pragma once

#include <cstddef>
#include <cstdint>

namespace jet::codegen {

// Threads in each block of every kernel Jet generates: the kernels' __launch_bounds__, the
// occupancy the planner asks about, and the block the launcher gives. (The reductions' block
// combine in render/preamble_reduce.cpp is written for its 8 warps.)
inline constexpr int block_threads = 256;
inline constexpr int warp_threads = 32;
// A scan's tile of a row is a block of fewer threads, each holding more elements: the tile's
// look-back costs the same whatever its size, so larger tiles and more blocks an SM run closer
// to the copy bandwidth (bench/NOTES.md, session 33). A multiple of 32, at most 1024.
inline constexpr int scan_row_threads = 128;
// A kernel with a transposed operand works in square tiles, each done by a block of
// tile_size x tile_rows threads.
inline constexpr int tile_size = 32;
inline constexpr int tile_rows = block_threads / tile_size;
// The largest parameter block a launch takes: what every supported driver accepts.
inline constexpr std::size_t max_param_bytes = 4096;
// The most results one kernel writes (jet::evaluate(e1, e2, ...)); more go to further kernels.
inline constexpr int max_kernel_outputs = 32;
// Element offsets from here on need 64-bit indexing.
inline constexpr std::int64_t index32_limit = std::int64_t{1} << 31;
// Grid-stride kernels launch at most this many blocks per SM (JET_BLOCKS_PER_SM overrides it).
inline constexpr int default_blocks_per_sm = 32;
// The threads an SM keeps resident (compute capability 7.0 to 9.0: 2048 but 7.5's 1024).
inline constexpr int max_threads_per_sm = 2048;
// The most bytes of bins a scatter adds into in shared memory (ir::graph::shared_bins).
inline constexpr std::int64_t max_shared_bin_bytes = 32 * 1024;
// What plans assume where no GPU is present (jet::explain on a machine without one): the GPU
// Jet is tuned on, an H200.
inline constexpr int reference_multiprocessors = 132;
inline constexpr const char* reference_arch = "sm_90";

}  // namespace jet::codegen
