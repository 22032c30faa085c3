// The kernel IR: a typed SSA list of elementwise instructions over explicit operands.
// Pure C++; the passes in this folder build it, collapse it, key it and render it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/core/limits.hpp"
#include "codegen/expr/node.hpp"
#include "jet/dtype.hpp"
#include "jet/shape.hpp"

namespace jet::ir {

// How a kernel reaches an operand's elements.
enum class access : std::uint8_t {
  contiguous,          // C-order over the kernel's extents: element i is at i
  scalar,              // every stride 0: one element, read once
  strided,             // general strides
  strided_unit_inner,  // strided, innermost stride 1 (vector loads in vectorized kernels)
  strided_zero_inner,  // strided, innermost stride 0 (one load per vector)
  transposed,          // 2-D, fastest along the outer axis: staged through a shared-memory tile
};
const char* access_name(access a);

struct operand {
  const void* data = nullptr;  // device address of the first element
  dtype type = dtype::float64;
  access mode = access::contiguous;
  shape strides;  // in elements, one per kernel axis
  // A gather's source: read where the code says (op_code::gather adds an offset to the
  // element's own position), not loaded once per element before the code runs.
  bool gathered = false;
  // A random draw (detail::random_node) reads no memory: the kernel makes each value from the
  // draw's key and first counter, at the element's offset (in the draw's own C order, which
  // the strides give, 0 on broadcast axes).
  bool drawn = false;
  detail::random_dist dist = detail::random_dist::uniform;
  std::uint64_t key = 0, base = 0;

  // Whether the kernel needs this operand's strides as parameters.
  bool has_strides() const { return mode != access::contiguous && mode != access::scalar; }
  // Whether every element is the first one (all strides 0).
  bool reads_one_element() const {
    return std::all_of(strides.begin(), strides.end(), [](std::int64_t s) { return s == 0; });
  }
  // The largest distance in elements from the first element to another, over `extents`.
  std::int64_t span(const shape& extents) const {
    std::int64_t span = 0;
    for (int d = 0; d < extents.size(); ++d)
      span += (strides[d] < 0 ? -strides[d] : strides[d]) * (extents[d] - 1);
    return span;
  }
};

struct param {
  dtype type = dtype::float64;
  detail::scalar_value value;
};

// One SSA instruction; `args` index earlier instructions, `slot` an operand or a param.
struct instr {
  detail::op_code op = detail::op_code::input;
  dtype type = dtype::float64;
  std::int16_t args[3] = {-1, -1, -1};
  std::int16_t slot = -1;
};

// How a reduction kernel covers its outputs, for Jet's reductions and user reduction kernels
// alike: the layout (rows or columns) and the chunks plan_chunks cuts the reduced axes into.
// All but the layout are kernel parameters, not part of the source.
struct reduction_geometry {
  std::int64_t outputs = 1, length = 1;  // M outputs, each reducing K elements
  bool columns = false;  // a thread per output walks the reduced axes (they are outer)
  int group = codegen::block_threads;  // rows: threads per output, a warp or a block
  int step_loads = 4;           // elements a thread loads per step, before it adds any of them
  std::size_t state_bytes = 8;  // one partial state on the device
  std::int64_t splits = 1, chunk = 1;  // the reduced axes cut in `splits` chunks
  void* work = nullptr;                // splits x M partial states when splits > 1
  unsigned* counters = nullptr;        // per grid column: chunks done (zero between launches)
};

// One more reduction of a kernel computing several in one pass: what it reduces to, as
// reduction's own fields say for output 0.
struct reduce_part {
  detail::reduce_op op = detail::reduce_op::sum;
  detail::reduce_post post = detail::reduce_post::none;
  dtype result = dtype::float64;
  double post_arg = 0;
};

// A reduction kernel's shape: the graph's extents are the kept axes, then the reduced ones.
struct reduction {
  bool active = false;
  detail::reduce_op op = detail::reduce_op::sum;
  detail::reduce_post post = detail::reduce_post::none;
  dtype result = dtype::float64;  // the reduction's dtype, before the cast to the output's
  int kept = 0;                   // leading axes that index outputs
  double post_arg = 0;            // a parameter, as the geometry's sizes are
  // A scan (render_scan.cpp): the output keeps every prefix. Its geometry's chunks are tiles of
  // the reduced axes (rows) or runs of positions (columns), `step_loads` the elements a
  // thread holds, `state_bytes` a value's; `work` and `counters` the tiles' prefixes and flags.
  bool scan = false;
  reduction_geometry geometry;
  // Reductions of the same axes sharing the pass (jet::evaluate(jet::sum(x), jet::max(x))):
  // output k (graph::more_outputs[k - 1]) reduces the value of instruction more_results[k - 1]
  // as more[k - 1] says. The more_outputs past these store each element's value of their
  // instruction instead (graph::stores_elements).
  std::vector<reduce_part> more;
};

struct graph {
  std::vector<instr> code;  // topological; the last instruction is the result
  std::vector<operand> inputs;
  std::vector<param> params;
  operand output;
  // Outputs 1, 2, ... of a kernel writing several results (jet::evaluate(e1, e2, ...)): each
  // stores the value of its instruction in `more_results`; `output` stores the last one's.
  std::vector<operand> more_outputs;
  std::vector<std::int16_t> more_results;
  // A scatter (output.gathered): the instruction whose value each store adds to the element's
  // own position in the output.
  std::int16_t store_offset = -1;
  detail::scatter_op combine = detail::scatter_op::store;  // how a scatter writes
  // A scatter adding into bins [0, shared_bins) of its output (each offset is a bin): each block
  // adds into its own copy of the bins in shared memory, then adds its copy into the output.
  std::int64_t shared_bins = 0;
  shape extents;  // the kernel's iteration space, after collapsing
  bool index64 = false;
  int vector_width = 1;
  bool tiled = false;  // 2-D with a transposed operand: 32x32 tiles, blocks of 32x8 threads
  reduction reduce;

  // Whether output k (0 is `output`, k > 0 more_outputs[k - 1]) of a reduction kernel stores
  // each element's value where the element is, over every axis, rather than a reduction of
  // the values (jet::evaluate(y, jet::sum(y)): y comes from the pass that sums it).
  bool stores_elements(std::size_t k) const { return reduce.active && k > reduce.more.size(); }

  // Whether the kernel takes the extents as parameters.
  bool has_extents() const {
    return extents.size() > 1 || tiled || (reduce.active && !extents.empty());
  }

  // Work items the launch covers: tiles, or vectors of vector_width elements.
  std::int64_t work_items() const;
  // Whether the element count or an offset into some operand needs 64-bit indexing.
  bool needs_index64() const;
  // Whether the kernel can find an error in the data (an integer to a negative power, an index
  // out of bounds), which it reports through the device error channel.
  bool reports_errors() const;
  // Whether an operand is read or written through an offset (a gather's source, a scatter's
  // destination).
  bool gathers() const {
    return output.gathered ||
           std::any_of(inputs.begin(), inputs.end(), [](const operand& op) { return op.gathered; });
  }

  // Whether every gather reads at a fixed offset from the element's own position, only where
  // its guard holds (a fused join's parts): such reads follow the output lane by lane, so the
  // kernel can still take vectors of elements. False with a search (its reads wander).
  bool gathers_in_order() const;

  // Calls `f` on the outputs, then on each input.
  template <class F>
  void for_each_operand(F&& f) {
    f(output);
    for (operand& op : more_outputs) f(op);
    for (operand& op : inputs) f(op);
  }

  void clear();
  std::int64_t size() const { return extents.product(); }
};

}  // namespace jet::ir
