// The pipeline's driver: key, look up, render, compile, load, size, pack, launch.
#include "src/pipeline/run_plan.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <iterator>
#include <memory>
#include <mutex>

#include "codegen/core/limits.hpp"
#include "codegen/ir/passes.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/cache/disk_cache.hpp"
#include "src/cache/memory_cache.hpp"
#include "src/cache/stats.hpp"
#include "src/device/device_errors.hpp"
#include "src/device/launch.hpp"
#include "src/device/stream_queue.hpp"
#include "src/device/stream_state.hpp"
#include "src/pipeline/compile_threads.hpp"
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

// The most blocks a grid-stride launch takes.
std::int64_t most_blocks(const codegen::launch_geometry& l) {
  if (l.uncapped) return 0x7fffffff;
  if (l.blocks_per_sm) return std::int64_t{device::current().multiprocessors} * l.blocks_per_sm;
  return max_grid_blocks();
}

// The grid and block that cover a plan's work. A reduction's chunks are planned here, for the
// loaded kernel's occupancy, with room for their partial states, and a scan's tile states are
// made (`work` keeps what had to be allocated for them until the launch is queued).
launch_shape size_launch(const codegen::launch_geometry& l, const loaded_kernel& kernel,
                         std::shared_ptr<buffer>& work) {
  using codegen::block_threads;
  if (l.scan) {
    place_tile_states(*l.reduction, work);
    return {dim3(static_cast<unsigned>(codegen::scan_blocks(*l.reduction))),
            dim3(static_cast<unsigned>(codegen::scan_threads(*l.reduction)))};
  }
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
  const auto blocks = static_cast<unsigned>(std::clamp<std::int64_t>(wanted, 1, most_blocks(l)));
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

// Compiles `source` or loads it from the disk cache, and loads the module.
std::unique_ptr<loaded_kernel> make_kernel(const codegen::kernel_source& source,
                                           const std::string& arch, const compile_extras& extras) {
  const obtained_kernel obtained = compile_or_load(source, arch, extras);
  static std::once_flag compiled_once;  // NVRTC's libraries are loaded now: stop before them
  if (obtained.origin != kernel_origin::disk)
    std::call_once(compiled_once, stop_compile_threads_at_exit);
  trace(1, "%s %s for %s: %.3f ms",
        obtained.origin == kernel_origin::disk ? "disk cache hit" : "compile", source.name.c_str(),
        obtained.compiled.arch.c_str(), obtained.milliseconds);
  const auto start = clock::now();
  auto kernel = std::make_unique<loaded_kernel>(obtained.compiled.image, obtained.compiled.name);
  trace(1, "load %s: %.3f ms", source.name.c_str(), ms_since(start));
  return kernel;
}

// Renders the plan here, where its operands are, and makes the kernel on a compile thread.
void make_in_background(const codegen::kernel_plan& plan, const std::string& key,
                        std::shared_ptr<pending_kernel> pending) {
  compile_in_background([key, pending = std::move(pending), source = render_traced(plan),
                         extras = extras_of(plan), arch = device::arch()] {
    kernels().make_claimed(key, *pending, [&] {
      if (compile_threads_stopping())
        throw error("the program is exiting: kernel " + source.name + " was not compiled");
      return make_kernel(source, arch, extras);
    });
  });
}

// Sizes, packs and launches the plan's kernel on the current stream.
void launch_now(codegen::kernel_plan& plan, const loaded_kernel& kernel) {
  std::shared_ptr<buffer> work;
  const launch_shape shape = size_launch(plan.launch, kernel, work);
  trace(3, "size %s: %u x %u blocks of %u x %u threads", kernel.name().c_str(), shape.grid.x,
        shape.grid.y, shape.block.x, shape.block.y);
  alignas(16) std::byte block[codegen::max_param_bytes];
  if (plan.reports_errors) bind_device_errors();
  plan.params.pack(block);
  trace(3, "pack: %zu bytes", plan.params.bytes());
  launch_block(kernel.handle(), shape.grid, shape.block, block);
  trace(3, "launch %s", kernel.name().c_str());
  if (plan.reports_errors) check_after_launch();
}

// A launch waiting for its kernel, packed while the plan's operands were at hand. A reduction
// keeps its geometry: its chunks wait for the loaded kernel's occupancy, and their fields are
// packed again then.
// It lives where it was made (behind a shared_ptr): launch.reduction points at its geometry.
struct deferred_launch {
  alignas(16) std::array<std::byte, codegen::max_param_bytes> block;
  codegen::launch_geometry launch;
  ir::reduction_geometry geometry;
  std::array<std::uint32_t, std::size(codegen::reduction_roles)> offsets{};
  bool reports_errors = false;

  explicit deferred_launch(const codegen::kernel_plan& plan)
      : launch(plan.launch), reports_errors(plan.reports_errors) {
    if (reports_errors) bind_device_errors();
    plan.params.pack(block.data());
    if (!launch.reduction) return;
    geometry = *launch.reduction;
    launch.reduction = &geometry;
    for (std::size_t i = 0; i < offsets.size(); ++i)
      offsets[i] = plan.params.at(codegen::reduction_roles[i]).offset;
  }

  void operator()(const loaded_kernel& kernel) {
    std::shared_ptr<buffer> work;
    const launch_shape shape = size_launch(launch, kernel, work);
    if (launch.reduction)
      for (std::size_t i = 0; i < offsets.size(); ++i)
        std::memcpy(block.data() + offsets[i],
                    codegen::reduction_field(geometry, codegen::reduction_roles[i]), 8);
    launch_block(kernel.handle(), shape.grid, shape.block, block.data());
    trace(3, "launch %s (queued)", kernel.name().c_str());
    if (reports_errors) check_after_launch();
  }
};

// Queues the launch behind the work on the current stream, for when `kernel` is ready.
void launch_later(const codegen::kernel_plan& plan, std::shared_ptr<const pending_kernel> kernel) {
  auto launch = std::make_shared<deferred_launch>(plan);
  launch_when_ready(current_stream(), std::move(kernel),
                    [launch](const loaded_kernel& k) { (*launch)(k); });
}

}  // namespace

void run_plan(codegen::kernel_plan& plan, plan_trace* explaining) {
  thread_local std::string key;  // scratch, so that a cache hit allocates nothing
  key.clear();
  codegen::append_key(plan, key);
  if (mixed_architectures()) key += device::arch();  // one kernel per architecture
  trace(3, "key: %zu bytes", key.size());
  if (explaining) {
    explain_plan(plan, key, *explaining);
    return;
  }
  const loaded_kernel* kernel = kernels().find(key);
  trace(3, "look up: %s", kernel ? "hit" : "miss");
  if (kernel) {
    note_memory_hit();
    if (stream_idle(current_stream())) return launch_now(plan, *kernel);
    return launch_later(plan, std::make_shared<pending_kernel>(kernel));
  }
  bool claimed = false;
  std::shared_ptr<pending_kernel> pending = kernels().claim(key, claimed);
  if (!claimed) note_memory_hit();  // another thread is making it, or has made it meanwhile
  if (claimed && !async_evaluation()) {
    kernels().make_claimed(key, *pending, [&] {
      return make_kernel(render_traced(plan), device::arch(), extras_of(plan));
    });
  } else if (claimed) {
    make_in_background(plan, key, pending);
  }
  if (!async_evaluation() || (pending->ready() && stream_idle(current_stream())))
    return launch_now(plan, pending->get());
  launch_later(plan, std::move(pending));
}

}  // namespace jet::detail
