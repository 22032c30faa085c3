// What lowering makes of every kernel Jet launches, whatever its kind: what it computes, its
// parameter block as one table, how its launch covers the work, and what its compile adds.
// One driver (src/pipeline/run_plan.cpp) takes every plan through the same stages: key, look
// up, render, compile, load, size the launch, pack, launch.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <variant>

#include "codegen/ir/ir.hpp"
#include "codegen/ir/params.hpp"
#include "codegen/render/kernel_source.hpp"
#include "codegen/user/user_kernels.hpp"

namespace jet::codegen {

// A kernel whose source does not depend on its operands (the random kernels): its memory-cache
// key, and the function that renders it.
struct fixed_kernel {
  std::string key;
  std::string name;
  kernel_source (*render)(const std::string& name) = nullptr;
};

// What the kernel computes: Jet's own IR (an elementwise kernel, or a reduction when
// g.reduce.active), a user kernel's spec, or a fixed kernel.
using kernel_body = std::variant<const ir::graph*, const user_elementwise_spec*,
                                 const user_reduction_spec*, const fixed_kernel*>;

// How the launch covers the work: a grid-stride loop of block_threads-thread blocks over
// `work_items` (capped at the blocks the GPU keeps busy, unless `uncapped`), square tiles of it
// (`tiled`), a reduction's output blocks by chunks, which the driver plans once it knows the
// loaded kernel's occupancy, or a scan's tiles.
struct launch_geometry {
  std::int64_t work_items = 0;
  bool tiled = false;
  // A gather's or scatter's kernel: a thread a work item. Its reads wait on positions, and a
  // thread that loops waits on each in turn; more threads keep more of them in flight (measured
  // on the H200: a random gather of 2^26 floats 1.72 ms capped, 1.50 ms not; bench/NOTES.md).
  bool uncapped = false;
  // Where more than 0, at most this many blocks an SM: a scatter into shared bins, each of
  // whose blocks adds all its bins into the output at its end.
  int blocks_per_sm = 0;
  ir::reduction_geometry* reduction = nullptr;
  bool scan = false;  // the reduction is a scan: a block a tile (scan_blocks)
};

struct kernel_plan {
  kernel_body body;
  param_layout params;
  launch_geometry launch;
  const compile_extras* extras = nullptr;  // NVRTC options: a user kernel's, or Jet's own below
  bool reports_errors = false;  // takes the device error channel (ir::graph::reports_errors)
};

// The NVRTC options of the kernels whose whole source Jet writes (the fixed kernels' plans take
// them): -minimal, since that source includes no header and uses no CUDA runtime type, which
// halves NVRTC's front-end time. User kernels' code may use those, so theirs lack it.
const compile_extras& fixed_kernel_extras();
// The NVRTC options of Jet's kernels of IR (lower sets them): fixed_kernel_extras and no fused
// multiply-add, so that each operation rounds as NumPy's does.
const compile_extras& jet_kernel_extras();

// Appends the plan's memory-cache key to `key`: everything that changes the kernel's source,
// nothing that is a parameter.
void append_key(const kernel_plan& plan, std::string& key);
// The plan's CUDA C.
kernel_source render(const kernel_plan& plan);

// How lowering an expression came out.
enum class lowering : std::uint8_t {
  one_kernel,           // the plan computes it
  too_many_parameters,  // its parameters pass the 4 KiB a launch takes
  reads_index,          // a reduction's producer reads the element index, which the kernel lacks
};
// Lowers `root` (whose only reduction, if any, is itself) writing into `out`, of root's shape,
// to one kernel's plan over `g`, for a GPU of `multiprocessors` SMs. The plan points into `g`
// and is complete even when the result is not one_kernel (jet::explain shows it).
lowering lower(const detail::node& root, const array& out, int multiprocessors, ir::graph& g,
               kernel_plan& plan);
// The same for several elementwise trees (no reductions) written into outputs of one shape by
// one kernel (build_ir's several-output form), or for several reductions that share a pass
// (build_reduce_ir's several-output form).
lowering lower(std::span<const detail::node* const> roots, std::span<const array> outs,
               int multiprocessors, ir::graph& g, kernel_plan& plan);
// The same for a scatter: `values` stored into `view` through `offset`, or combined with what
// is there by `combine`, into `bins` bins where more than 0 (build_scatter_ir).
lowering lower_scatter(const detail::node& values, const detail::node& offset, const array& view,
                       detail::scatter_op combine, std::int64_t bins, ir::graph& g,
                       kernel_plan& plan);

}  // namespace jet::codegen
