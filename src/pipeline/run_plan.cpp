// The pipeline's driver: key, look up, render, compile, load, size, pack, launch.
#include "src/pipeline/run_plan.hpp"

#include <algorithm>
#include <chrono>
#include <memory>

#include "codegen/core/limits.hpp"
#include "codegen/ir/passes.hpp"
#include "jet/device.hpp"
#include "src/cache/disk_cache.hpp"
#include "src/cache/memory_cache.hpp"
#include "src/cache/stats.hpp"
#include "src/device/device_errors.hpp"
#include "src/device/launch.hpp"
#include "src/pipeline/reduction_scratch.hpp"
#include "src/pipeline/trace.hpp"

namespace jet::detail {
namespace {

using clock = std::chrono::steady_clock;

double ms_since(clock::time_point start) {
  return std::chrono::duration<double, std::milli>(clock::now() - start).count();
}

const compile_extras& extras_of(const codegen::kernel_plan& plan) {
  static const compile_extras none;
  return plan.extras ? *plan.extras : none;
}

struct launch_shape {
  dim3 grid, block;
};

// The grid and block that cover a plan's work. A reduction's chunks are planned here, for the
// loaded kernel's occupancy, with room for their partial states (`work` keeps what had to be
// allocated for them until the launch is queued).
launch_shape size_launch(const codegen::launch_geometry& l, const loaded_kernel& kernel,
                         std::shared_ptr<buffer>& work) {
  using codegen::block_threads;
  if (ir::reduction_geometry* r = l.reduction) {
    const std::size_t work_bytes =
        codegen::plan_chunks(*r, device::current().multiprocessors, kernel.blocks_per_sm());
    const std::int64_t blocks = codegen::output_blocks(*r, max_grid_blocks());
    if (r->splits > 1) place_partial_states(*r, blocks, work_bytes, work);
    return {dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(r->splits)),
            dim3(block_threads)};
  }
  const std::int64_t wanted =
      l.tiled ? l.work_items : (l.work_items + block_threads - 1) / block_threads;
  const auto blocks = static_cast<unsigned>(std::clamp<std::int64_t>(wanted, 1, max_grid_blocks()));
  return {dim3(blocks),
          l.tiled ? dim3(codegen::tile_size, codegen::tile_rows) : dim3(block_threads)};
}

codegen::kernel_source render_traced(const codegen::kernel_plan& plan) {
  const auto start = clock::now();
  codegen::kernel_source source = codegen::render(plan);
  trace(1, "render %s: %.3f ms", source.name.c_str(), ms_since(start));
  trace(2, "source of %s:\n%s", source.name.c_str(), source.source.c_str());
  return source;
}

// Renders the plan and compiles it for the explaining caller's architecture; caches nothing.
void explain_plan(const codegen::kernel_plan& plan, const std::string& key,
                  plan_trace& explaining) {
  codegen::kernel_source source = render_traced(plan);
  explaining.compiled = compile(source, explaining.arch, extras_of(plan));
  trace(1, "compile %s for %s: %.3f ms", source.name.c_str(), explaining.arch.c_str(),
        explaining.compiled.milliseconds);
  explaining.key = key;
  explaining.source = std::move(source);
}

// Renders the plan, then compiles it or loads it from the disk cache, and loads the module.
std::unique_ptr<loaded_kernel> make_kernel(const codegen::kernel_plan& plan) {
  const codegen::kernel_source source = render_traced(plan);
  const obtained_kernel obtained = compile_or_load(source, device::arch(), extras_of(plan));
  trace(1, "%s %s for %s: %.3f ms",
        obtained.origin == kernel_origin::disk ? "disk cache hit" : "compile", source.name.c_str(),
        obtained.compiled.arch.c_str(), obtained.milliseconds);
  const auto start = clock::now();
  auto kernel = std::make_unique<loaded_kernel>(obtained.compiled.image, obtained.compiled.name);
  trace(1, "load %s: %.3f ms", source.name.c_str(), ms_since(start));
  return kernel;
}

}  // namespace

void run_plan(codegen::kernel_plan& plan, plan_trace* explaining) {
  thread_local std::string key;  // scratch, so that a cache hit allocates nothing
  key.clear();
  codegen::append_key(plan, key);
  trace(3, "key: %zu bytes", key.size());
  if (explaining) {
    explain_plan(plan, key, *explaining);
    return;
  }
  const loaded_kernel* kernel = kernels().find(key);
  trace(3, "look up: %s", kernel ? "hit" : "miss");
  bool made = false;
  if (!kernel) {
    kernel = kernels().obtain(key, [&] {
      made = true;
      return make_kernel(plan);
    });
  }
  if (!made) note_memory_hit();  // also where another thread made it meanwhile
  std::shared_ptr<buffer> work;
  const launch_shape shape = size_launch(plan.launch, *kernel, work);
  trace(3, "size %s: %u x %u blocks of %u x %u threads", kernel->name().c_str(), shape.grid.x,
        shape.grid.y, shape.block.x, shape.block.y);
  alignas(16) std::byte block[codegen::max_param_bytes];
  if (plan.reports_errors) bind_device_errors();
  plan.params.pack(block);
  trace(3, "pack: %zu bytes", plan.params.bytes());
  launch_block(kernel->handle(), shape.grid, shape.block, block);
  trace(3, "launch %s", kernel->name().c_str());
  if (plan.reports_errors) check_after_launch();
}

}  // namespace jet::detail
