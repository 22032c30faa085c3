// The IR passes, in pipeline order. Each is one function in a file of its own (the reduction
// layout's in reduction_layout.cpp).
#pragma once

#include <algorithm>
#include <cstddef>
#include <span>
#include <string>

#include "codegen/ir/ir.hpp"

namespace jet::codegen {

// Lowers an expression tree writing into `out` to IR: casts explicit, broadcasts as stride 0,
// common subexpressions and repeated operands merged. Reuses `g`'s storage.
void build_ir(const detail::node& root, const array& out, ir::graph& g);
// Several trees into outputs of one shape, in one kernel that computes what they share once:
// outs[0] is g.output (its value the last instruction), outs[1], ... g.more_outputs.
void build_ir(std::span<const detail::node* const> roots, std::span<const array> outs,
              ir::graph& g);
// The same without an output: the code computing `root` as `type` over `extents`.
void build_code(const detail::node& root, const shape& extents, dtype type, ir::graph& g);
// The code computing several trees over `extents`, tree k as types[k]: the first's value the
// last instruction, the others' in g.more_results.
void build_code(std::span<const detail::node* const> roots, std::span<const dtype> types,
                const shape& extents, ir::graph& g);
// A scatter: `values` written into `view` (of the iteration space's shape, stride 0 on the axes
// its index arrays replace) at each element's position plus `offset` (int64, in elements).
// With `bins` > 0, the caller promises every offset in [0, bins) and every stride 0: an addition
// of integers or floats into so few bins that they fit max_shared_bin_bytes adds in shared
// memory first (ir::graph::shared_bins).
void build_scatter_ir(const detail::node& values, const detail::node& offset, const array& view,
                      detail::scatter_op combine, std::int64_t bins, ir::graph& g);

// Drops extent-1 axes and merges adjacent axes that are contiguous in every operand, never
// an axis before `boundary` with one after it; returns where the boundary is then. (Reductions
// keep their kept and reduced axes apart so.)
int collapse_axes(ir::graph& g, int boundary = 0);

// Classifies each operand's access, picks 32- or 64-bit indexing and the vector width.
void choose_access(ir::graph& g);

// Lowers a reduction node writing into `out`: the producer's code as build_ir makes it,
// axes ordered kept-then-reduced and merged within each group, operands classified, and the
// layout (rows or columns, a warp or a block per output) chosen for a GPU with
// `multiprocessors` SMs. Launch values (chunks, work buffer) are left to plan_chunks.
void build_reduce_ir(const detail::node& root, const array& out, ir::graph& g, int multiprocessors);
// Several reductions of the same axes and keepdims over producers of one shape, in one kernel
// (ir::reduction::more): outs[k] receives roots[k]. Every op must share_a_pass. Trees that are
// no reduction may follow the reductions, each of the producers' shape: their values are
// stored element by element as the pass reads them (ir::graph::stores_elements).
void build_reduce_ir(std::span<const detail::node* const> roots, std::span<const array> outs,
                     ir::graph& g, int multiprocessors);
// Whether a reduction of `op` over values of dtype `value` can share a kernel with others: its
// state combines member by member (not the index-keeping extremes: argmin, argmax, ptp and
// complex extremes, nor scans).
bool shares_a_pass(detail::reduce_op op, dtype value);

// Vectors a lane of a vectorized reduction (g.vector_width > 1) loads per step: 16 elements,
// at most 4 vectors, the 64 bytes in flight per lane that a full reduction needs to reach the
// copy bandwidth (bench/NOTES.md).
inline int vector_unroll(int width) { return width >= 16 ? 1 : std::min(4, 16 / width); }
// Elements a thread of a columns reduction loads per step (one per row, coalesced across the
// block's outputs).
constexpr int column_loads = 8;

// The layout of a reduction whose `axes` axes are the `kept` ones, then the reduced ones, with
// r.outputs and r.length set: a thread per output (columns) or a group of threads per output
// (rows), judged by the strides of `primary`, the operand that decides it (none: rows).
void choose_reduction_layout(ir::reduction_geometry& r, const ir::operand* primary, int kept,
                             int axes, int multiprocessors);

// A scan's tiles, for values of `value_bytes`: the elements a thread holds (r.step_loads) and
// the tiles (r.chunk elements each) along each output's reduced axes (r.splits).
void choose_scan_tiles(ir::reduction_geometry& r, std::size_t value_bytes);
// The threads of a scan's blocks: scan_row_threads for tiles of rows, block_threads for runs
// of columns (a thread an output).
int scan_threads(const ir::reduction_geometry& r);
// A scan's blocks: one a tile, tiles of an output consecutive.
std::int64_t scan_blocks(const ir::reduction_geometry& r);
// Bytes of a scan's tile states: 8 bytes a tile for its flag (or its status word: flag and
// value), then the tiles' aggregates and inclusive prefixes (per lane for columns), at
// `values_offset`.
std::size_t scan_state_bytes(const ir::reduction_geometry& r, std::size_t& values_offset);

// Cuts the reduced axes into chunks for a kernel that keeps `blocks_per_sm` blocks resident on
// each of `multiprocessors` SMs; sets r.splits and r.chunk. Returns the bytes of partial states
// the launch needs (0 with one chunk per output).
std::size_t plan_chunks(ir::reduction_geometry& r, int multiprocessors, int blocks_per_sm);
// Blocks of outputs along the grid's x axis (the chunks are its y axis); rows with one chunk
// loop over outputs, so they take at most `max_blocks`.
std::int64_t output_blocks(const ir::reduction_geometry& r, std::int64_t max_blocks);

// Appends the structural signature of `g` to `key`: everything that changes the source,
// nothing that is a kernel parameter (addresses, extents, strides, scalar values).
void append_signature(const ir::graph& g, std::string& key);

}  // namespace jet::codegen
