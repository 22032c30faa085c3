// The pipeline, in order: build IR, collapse, classify, key, look up; on a miss render,
// compile and load; then pack parameters and launch.
#include "src/eval.hpp"

#include <chrono>
#include <cstdio>

#include "codegen/passes.hpp"
#include "jet/device.hpp"
#include "jet/error.hpp"
#include "src/cache_stats.hpp"
#include "src/disk_cache.hpp"
#include "src/kernel.hpp"

namespace jet::detail {
namespace {

// Parameter blocks above this are split: 4 KiB is what every supported driver accepts.
constexpr std::size_t max_params_bytes = 4096;

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::int64_t input_count(const node& n) {
  if (n.op == op_code::input) return 1;
  std::int64_t count = 0;
  for (int i = 0; i < n.arity; ++i) count += input_count(*n.args[i]);
  return count;
}

// Replaces the argument subtree with the most inputs by its materialized value.
node_ptr split_largest(const node& root) {
  int largest = 0;
  for (int i = 1; i < root.arity; ++i)
    if (input_count(*root.args[i]) > input_count(*root.args[largest])) largest = i;
  auto copy = std::make_shared<node>(root);
  const node& child = *root.args[largest];
  if (child.arity == 0) throw internal_error("cannot split an expression with a leaf argument");
  array value = empty(child.extents, child.type);
  evaluate(child, value);
  copy->args[largest] = make_input(value);
  return copy;
}

void prepare(const node& root, const array& out, ir::graph& g) {
  codegen::build_ir(root, out, g);
  codegen::collapse_axes(g);
  codegen::choose_access(g);
}

// The memory cache, else the disk cache, else NVRTC (src/disk_cache.hpp).
const loaded_kernel& find_or_build(const ir::graph& g, const std::string& signature) {
  if (const loaded_kernel* hit = kernels().find(signature)) {
    note_memory_hit();
    return *hit;
  }
  const auto start = std::chrono::steady_clock::now();
  const codegen::kernel_source source = codegen::render(g);
  if (debug_level() >= 2) std::fprintf(stderr, "[jet] source of %s:\n%s\n", source.name.c_str(), source.source.c_str());
  const obtained_kernel obtained = compile_or_load(source, device::arch());
  if (debug_level() >= 1)
    std::fprintf(stderr, "[jet] %s %s for %s in %.3f ms\n",
                 obtained.origin == kernel_origin::disk ? "loaded from disk" : "compiled",
                 obtained.compiled.name.c_str(), obtained.compiled.arch.c_str(), obtained.milliseconds);
  auto loaded = std::make_unique<loaded_kernel>(obtained.compiled);
  const loaded_kernel* kept = kernels().insert(signature, std::move(loaded));
  if (debug_level() >= 1)
    std::fprintf(stderr, "[jet] render + obtain + load of %s: %.3f ms\n", obtained.compiled.name.c_str(), ms_since(start));
  return *kept;
}

}  // namespace

void evaluate(const node& root, const array& out) {
  if (out.size() == 0) return;
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
  const array out = placeholder(root.extents, root.type);
  ir::graph g;
  prepare(root, out, g);
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
