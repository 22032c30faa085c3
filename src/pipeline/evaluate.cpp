// The pipeline, in order: build IR, collapse, classify, key, look up; on a miss render,
// compile and load; then pack parameters and launch. Reductions take the same steps with
// their own IR pass and launch shape; reductions inside expressions are evaluated first.
#include "src/pipeline/evaluate.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "codegen/ir/passes.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/device/cuda_check.hpp"
#include "src/device/loaded_kernel.hpp"
#include "src/device/memory.hpp"
#include "src/device/stream_state.hpp"

namespace jet::detail {
namespace {

// Parameter blocks above this are split: 4 KiB is what every supported driver accepts.
constexpr std::size_t max_params_bytes = 4096;

std::int64_t input_count(const node& root) {
  std::int64_t count = 0;
  any_node(root, [&](const node& n) {
    count += n.op == op_code::input;
    return false;
  });
  return count;
}

// Replaces the argument subtree with the most inputs by its materialized value.
node_ptr split_largest(const node& root) {
  int largest = 0;
  for (int i = 1; i < root.arity; ++i)
    if (input_count(*root.args[i]) > input_count(*root.args[largest])) largest = i;
  auto copy = copy_node(root);
  const node& child = *root.args[largest];
  if (child.arity == 0) throw internal_error("cannot split an expression with a leaf argument");
  array value = empty(child.extents(), child.type);
  evaluate(child, value);
  copy->set_arg(largest, make_input(value));
  return copy;
}

void prepare(const node& root, const array& out, ir::graph& g) {
  codegen::build_ir(root, out, g);
  codegen::collapse_axes(g);
  codegen::choose_access(g);
}

// The memory cache, else the disk cache, else NVRTC: the source is rendered only on a miss.
const loaded_kernel& find_or_build(const ir::graph& g, const std::string& signature) {
  return obtain_kernel(signature, [&] { return codegen::render(g); });
}

// What replace_reductions made of the nodes with several owners it has met: a reduction used
// twice (`(x - m) * (x - m)` with `m = mean(x)`) is computed once, and stays shared.
using replaced_nodes = std::vector<std::pair<const node*, node_ptr>>;

// `n` with every reduction in it replaced by an input node reading `value_of(reduction)`:
// reductions cannot fuse into the kernel that consumes them.
template <class F>
node_ptr replace_reductions(const node_ptr& n, F&& value_of, replaced_nodes& done) {
  if (!n->contains_reduction) return n;
  const bool shared = n.use_count() > 1;
  if (shared)
    for (const auto& [from, to] : done)
      if (from == n.get()) return to;
  node_ptr result;
  if (n->op == op_code::reduce) {
    result = make_input(value_of(*n));
  } else {
    auto copy = copy_node(*n);
    copy->contains_reduction = false;
    for (int i = 0; i < n->arity; ++i) copy->set_arg(i, replace_reductions(n->args[i], value_of, done));
    result = std::move(copy);
  }
  if (shared) done.emplace_back(n.get(), result);
  return result;
}

// `root` with the reductions below it replaced (it stays a reduction if it is one); `root`
// contains a reduction, so it is no input node.
template <class F>
node_ptr replace_inner_reductions(const node& root, F&& value_of) {
  std::shared_ptr<node> copy = copy_node(root);
  copy->contains_reduction = root.op == op_code::reduce;
  replaced_nodes done;
  for (int i = 0; i < root.arity; ++i) copy->set_arg(i, replace_reductions(root.args[i], value_of, done));
  return copy;
}

array evaluated(const node& n) {
  array value = empty(n.extents(), n.type);
  evaluate(n, value);
  return value;
}

// The reduction `root` over `producer` instead of its own argument.
node_ptr reduction_of(const node& root, node_ptr producer) {
  auto copy = copy_node(root);
  copy->set_arg(0, std::move(producer));
  return copy;
}

// The reduction over its argument's evaluated value: for producers the reduction kernel
// cannot compute in place (an index expression, too many parameters).
node_ptr reduction_of_value(const node& root) { return reduction_of(root, make_input(evaluated(*root.args[0]))); }

bool uses_index(const ir::graph& g) {
  for (const ir::instr& in : g.code)
    if (in.op == op_code::index) return true;
  return false;
}

// Scratch of reductions on one device and stream: chunk counters, zeroed once here and reset
// by each kernel's last block, and room for the chunks' partial states. Launches in stream
// order take turns with it, so a reduction allocates nothing when its states fit (a full
// reduction's always do: a chunk per resident block, at most 8 per SM, of at most 48 bytes).
// Never freed: kernels may use it until the process ends.
struct reduction_scratch {
  unsigned* counters = nullptr;
  std::size_t counter_capacity = 0;
  void* work = nullptr;
  static constexpr std::size_t work_capacity = std::size_t{64} << 10;
};

const reduction_scratch& scratch_for_stream() {
  int device_index = 0;
  check_cuda(cudaGetDevice(&device_index), "cudaGetDevice");
  const cudaStream_t stream = current_stream();
  // Most calls come from the thread and stream of the call before.
  thread_local struct {
    int device = -1;
    cudaStream_t stream = nullptr;
    const reduction_scratch* scratch = nullptr;
  } last;
  if (last.scratch && last.device == device_index && last.stream == stream) return *last.scratch;
  static std::mutex mutex;
  static std::map<std::pair<int, cudaStream_t>, reduction_scratch> all;
  std::lock_guard lock(mutex);
  reduction_scratch& slot = all[{device_index, stream}];
  if (!slot.counters) {
    slot.counter_capacity = std::size_t(device::current().multiprocessors) * 8;
    check_cuda(cudaMalloc(&slot.counters, slot.counter_capacity * sizeof(unsigned)), "cudaMalloc");
    check_cuda(cudaMemsetAsync(slot.counters, 0, slot.counter_capacity * sizeof(unsigned), stream), "cudaMemsetAsync");
    check_cuda(cudaMalloc(&slot.work, reduction_scratch::work_capacity), "cudaMalloc");
  }
  last = {device_index, stream, &slot};
  return slot;
}

// A reduction: one kernel over chunks of the reduced axes; with several chunks per output,
// the last block of each grid column to finish merges the chunks' partial states.
void evaluate_reduction(const node& root, const array& out) {
  if (!(out.shape() == root.extents())) {
    // Assigned into a view it broadcasts to: reduce once, then copy across.
    evaluate(*make_input(evaluated(root)), out);
    return;
  }
  if (root.args[0]->contains_reduction) {
    evaluate(*replace_inner_reductions(root, evaluated), out);
    return;
  }
  const int sms = device::current().multiprocessors;
  thread_local ir::graph g;
  thread_local std::string signature;
  codegen::build_reduce_ir(root, out, g, sms);
  if (uses_index(g)) {
    evaluate(*reduction_of_value(root), out);
    return;
  }
  // Empty operands have no memory; only elements that are read need it.
  for (const ir::operand& op : g.inputs)
    if (!op.data && g.reduce.geometry.length > 0) throw value_error("a jet::placeholder array cannot be evaluated");
  signature.clear();
  codegen::append_signature(g, signature);
  const loaded_kernel& kernel = find_or_build(g, signature);
  std::shared_ptr<buffer> work;
  const dim3 grid = plan_reduction_launch(g.reduce.geometry, kernel, work);
  const ir::reduction_geometry& r = g.reduce.geometry;
  alignas(16) std::byte params[max_params_bytes];
  if (!codegen::pack_params(g, params, sizeof params)) {
    evaluate(*reduction_of_value(root), out);
    return;
  }
  if (debug_level() >= 3)
    std::fprintf(stderr, "[jet] launch %s: %lld outputs of %lld elements, %s, %lld x %lld blocks\n",
                 kernel.name().c_str(), static_cast<long long>(r.outputs), static_cast<long long>(r.length),
                 r.columns ? "columns" : r.group == 32 ? "a warp per output" : "a block per output",
                 static_cast<long long>(grid.x), static_cast<long long>(grid.y));
  launch_grid(kernel.handle(), grid, params);
}

}  // namespace

dim3 plan_reduction_launch(ir::reduction_geometry& r, const loaded_kernel& kernel, std::shared_ptr<buffer>& work) {
  const std::size_t work_bytes = codegen::plan_chunks(r, device::current().multiprocessors, kernel.blocks_per_sm());
  const std::int64_t blocks = codegen::output_blocks(r, max_grid_blocks());
  // Partial states need device memory only when the reduced axes are cut into chunks.
  if (r.splits > 1) {
    const reduction_scratch& scratch = scratch_for_stream();
    if (static_cast<std::size_t>(blocks) > scratch.counter_capacity)
      throw internal_error("a reduction needs " + std::to_string(blocks) + " chunk counters");
    r.counters = scratch.counters;
    if (work_bytes <= reduction_scratch::work_capacity) {
      r.work = scratch.work;
    } else {
      work = allocate(work_bytes);
      r.work = work->data;
    }
  }
  return dim3(static_cast<unsigned>(blocks), static_cast<unsigned>(r.splits));
}

void evaluate(const node& root, const array& out) {
  if (out.size() == 0) return;
  if (root.op == op_code::reduce) {
    evaluate_reduction(root, out);
    return;
  }
  if (root.contains_reduction) {
    evaluate(*replace_inner_reductions(root, evaluated), out);
    return;
  }
  // Per-thread scratch: a cache hit allocates nothing.
  thread_local ir::graph g;
  thread_local std::string signature;
  prepare(root, out, g);
  for (const ir::operand& op : g.inputs)
    if (!op.data) throw value_error("a jet::placeholder array cannot be evaluated");
  alignas(16) std::byte params[max_params_bytes];
  if (!codegen::pack_params(g, params, sizeof params)) {
    evaluate(*split_largest(root), out);
    return;
  }
  signature.clear();
  codegen::append_signature(g, signature);
  const loaded_kernel& kernel = find_or_build(g, signature);
  if (debug_level() >= 3)
    std::fprintf(stderr, "[jet] launch %s: %lld elements, vector width %d, %zu parameter bytes\n",
                 kernel.name().c_str(), static_cast<long long>(g.size()), g.vector_width,
                 codegen::params_size(g));
  launch(kernel, g.work_items(), g.tiled, params);
}

explanation explain(const node& root) {
  const array out = placeholder(root.extents(), root.type);
  ir::graph g;
  if (root.contains_reduction) {
    // Inner reductions run as kernels of their own: here they stand as placeholders.
    const node_ptr shown =
        replace_inner_reductions(root, [](const node& n) { return placeholder(n.extents(), n.type); });
    if (root.op == op_code::reduce) {
      const int sms = device::available() ? device::current().multiprocessors : 132;
      codegen::build_reduce_ir(*shown, out, g, sms);
      codegen::plan_chunks(g.reduce.geometry, sms, 8);  // launches use the kernel's own occupancy
    } else {
      prepare(*shown, out, g);
    }
  } else {
    prepare(root, out, g);
  }
  explanation e;
  const codegen::kernel_source source = codegen::render(g);
  e.source = source.source;
  e.kernel_name = source.name;
  std::string signature;
  codegen::append_signature(g, signature);
  static const char* hex = "0123456789abcdef";
  for (unsigned char c : signature) {
    e.key += hex[c >> 4];
    e.key += hex[c & 15];
  }
  auto describe = [&](const char* what, const ir::operand& op) {
    e.operands += std::string(what) + ": " + std::string(name(op.type)) + ", " + ir::access_name(op.mode) +
                  ", strides " + to_string(op.strides) + "\n";
    const std::int64_t elements = op.mode == ir::access::scalar ? 1 : g.size();
    e.bytes += elements * itemsize(op.type);
  };
  describe("out", g.output);
  for (std::size_t k = 0; k < g.inputs.size(); ++k) describe(("in" + std::to_string(k)).c_str(), g.inputs[k]);
  const compiled_kernel compiled = compile(source, device::available() ? device::arch() : "sm_90");
  e.arch = compiled.arch;
  e.compile_ms = compiled.milliseconds;
  e.binary_bytes = compiled.image.size();
  return e;
}

}  // namespace jet::detail
