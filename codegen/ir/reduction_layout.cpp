// The layout and the chunks of a reduction kernel, for Jet's reductions and user reduction
// kernels alike.
#include <algorithm>
#include <cstdint>
#include <cstdlib>

#include "codegen/core/limits.hpp"
#include "codegen/ir/passes.hpp"

namespace jet::codegen {
namespace {

// Rows this short or shorter take a thread each: a warp per output would leave most of its
// lanes idle (a norm over the 2 coordinates of 5e6 points took 1.95 ms as a warp per output,
// bench/kmeans.cpp).
constexpr std::int64_t short_row = 16;

// A thread per output (columns) when the innermost reduced axis is outer in memory (stride
// beyond 1 element) and the innermost kept one contiguous, so that neighbouring threads' loads
// meet, or when the rows are short; and there are enough outputs to spread.
bool columns_layout(std::int64_t kept_stride, std::int64_t reduced_stride, std::int64_t length,
                    std::int64_t outputs) {
  const bool meet = std::abs(kept_stride) == 1 && std::abs(reduced_stride) > 1;
  return (meet || length <= short_row) && outputs >= 64;
}

// Rows: a warp per output when there are enough outputs to fill the GPU with warps, or too
// few elements per output to keep a block busy; else a block.
int rows_group(std::int64_t outputs, std::int64_t length, int multiprocessors) {
  return outputs >= std::int64_t{multiprocessors} * warp_threads || length <= 2048 ? warp_threads
                                                                                   : block_threads;
}

// Outputs one block reduces.
std::int64_t outputs_per_block(const ir::reduction_geometry& r) {
  return r.columns ? block_threads : block_threads / r.group;
}

}  // namespace

void choose_reduction_layout(ir::reduction_geometry& r, const ir::operand* primary, int kept,
                             int axes, int multiprocessors) {
  r.columns =
      primary && kept > 0 && kept < axes &&
      columns_layout(primary->strides[kept - 1], primary->strides[axes - 1], r.length, r.outputs);
  r.group = rows_group(r.outputs, r.length, multiprocessors);
  r.step_loads = r.columns ? column_loads : 4;
}

std::size_t plan_chunks(ir::reduction_geometry& r, int multiprocessors, int blocks_per_sm) {
  // Chunks fill the GPU in one wave of the blocks this kernel keeps resident at once, and never
  // ask for more, which would wait for a second wave. Where a thread's step keeps 8 or more
  // loads in flight (vector rows, columns), they aim for at most 4 blocks per SM: longer chunks
  // leave fewer partial states for the last block to merge. Rows of scalar loads aim for every
  // resident block. (bench/NOTES.md has the measurements behind both rules.)
  const std::int64_t sms = multiprocessors;
  const int wanted = r.step_loads >= 8 ? std::min(4, blocks_per_sm) : blocks_per_sm;
  const std::int64_t target = std::max<std::int64_t>(sms * wanted, 1);
  const std::int64_t resident = sms * blocks_per_sm;
  const std::int64_t blocks = (r.outputs + outputs_per_block(r) - 1) / outputs_per_block(r);
  // A chunk is whole steps of the threads that share an output, and worth a chunk: 64 rows of
  // a column, or 32 elements for each lane of a row's group.
  const std::int64_t step = r.columns ? r.step_loads : r.step_loads * r.group;
  const std::int64_t min_chunk = r.columns ? 64 : 32 * r.group;
  std::int64_t splits = 1;
  if (2 * blocks <= target && r.length > min_chunk)
    splits = std::min({(target + blocks - 1) / blocks, std::max<std::int64_t>(resident / blocks, 1),
                       (r.length + min_chunk - 1) / min_chunk, std::int64_t{65535}});
  r.chunk = std::max<std::int64_t>(1, (r.length + splits - 1) / splits);
  r.chunk = (r.chunk + step - 1) / step * step;
  r.splits = std::max<std::int64_t>(1, (r.length + r.chunk - 1) / r.chunk);
  if (r.splits == 1) return 0;
  return static_cast<std::size_t>(r.splits * r.outputs) * r.state_bytes;
}

int scan_threads(const ir::reduction_geometry& r) {
  return r.columns ? block_threads : scan_row_threads;
}

void choose_scan_tiles(ir::reduction_geometry& r, std::size_t value_bytes) {
  // Rows: 256 bytes of values a thread (at most 64 values), a tile of 32 KiB staged through
  // shared memory (more bytes in flight a block: bench/NOTES.md, session 34); rows shorter
  // than a tile take the fewest elements a thread (powers of two) that cover them. Columns: a
  // run of 64 bytes (at most 16 values) in a thread's registers.
  const std::int64_t threads = scan_threads(r);
  const std::size_t bytes = r.columns ? 64 : 256, most = r.columns ? 16 : 64;
  int items = static_cast<int>(std::clamp<std::size_t>(bytes / value_bytes, 1, most));
  if (!r.columns)
    while (items > 1 && threads * (items / 2) >= r.length) items /= 2;
  r.step_loads = items;
  r.state_bytes = value_bytes;
  r.chunk = r.columns ? items : threads * items;
  r.splits = std::max<std::int64_t>(1, (r.length + r.chunk - 1) / r.chunk);
}

std::int64_t scan_blocks(const ir::reduction_geometry& r) {
  const std::int64_t groups =
      r.columns ? (r.outputs + block_threads - 1) / block_threads : r.outputs;
  return groups * r.splits;
}

std::size_t scan_state_bytes(const ir::reduction_geometry& r, std::size_t& values_offset) {
  const std::int64_t tiles = scan_blocks(r);
  // A flag a tile, or for rows of values of 4 bytes or fewer a status word (flag and value).
  values_offset = (static_cast<std::size_t>(tiles) * sizeof(std::uint64_t) + 15) / 16 * 16;
  const std::int64_t lanes = r.columns ? block_threads : 1;
  return values_offset + 2 * static_cast<std::size_t>(tiles * lanes) * r.state_bytes;
}

std::int64_t output_blocks(const ir::reduction_geometry& r, std::int64_t max_blocks) {
  const std::int64_t blocks = (r.outputs + outputs_per_block(r) - 1) / outputs_per_block(r);
  // One chunk per output: rows loop over outputs, so the grid need not pass max_blocks.
  return r.splits == 1 && !r.columns ? std::min(blocks, max_blocks) : blocks;
}

}  // namespace jet::codegen
