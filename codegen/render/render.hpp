// The render layer: IR -> CUDA C, the only place that spells CUDA syntax for Jet's kernels
// (user kernels add their own code; codegen/user renders around it with these spellings).
#pragma once

#include <string>

#include "codegen/core/limits.hpp"
#include "codegen/ir/params.hpp"
#include "codegen/ir/passes.hpp"
#include "codegen/render/kernel_source.hpp"

namespace jet::codegen {

// Jet's kernels for a graph, declaring `params` (made by layout_params) as their block:
// elementwise (render_elementwise.cpp), or a reduction when g.reduce.active
// (render_reduction.cpp).
kernel_source render_elementwise(const ir::graph& g, const param_layout& params);
kernel_source render_reduction(const ir::graph& g, const param_layout& params);
// A scan's kernel (render_scan.cpp), when g.reduce.scan.
kernel_source render_scan(const ir::graph& g, const param_layout& params);

// How reductions and scans reach their operands (reduced_access.cpp): jet_bases(p, m, b), the
// offsets of output m's kept axes into b[] (the output's at b[inputs]), and jet_at(p, k, b),
// the producer's value at reduced position k.
void render_reduced_access(const ir::graph& g, std::string& s);
// jet_put(p, k, b, v): a scan's value `v` at reduced position k, cast and stored.
void render_scan_store(const ir::graph& g, std::string& s);

// The spellings every generated kernel shares (spelling.cpp).

// The type the kernel computes in (half types widen to float), and the type in memory.
const char* value_type(dtype t);
const char* storage_type(dtype t);
// A dtype's short spelling in kernel names: "f32", "c64", ...
const char* short_name(dtype t);
// Converts a raw element of `t` to its value type, and a value back for storing.
std::string load(dtype t, const std::string& raw);
std::string store(dtype t, const std::string& value);
// Input k's value at element offset `at`: its load, or a random draw's value there.
std::string read_input(const ir::graph& g, int k, const std::string& at);
// The statement filling `into` (an array of `width` values) with input k's values at offsets
// first, first + 1, ...: a random draw's, `first` a multiple of `width`.
std::string fill_draw(const ir::graph& g, int k, const std::string& first, int width,
                      const std::string& into);
// The expression converting `x` from one value type to another, as NumPy casts.
std::string render_cast(dtype from, dtype to, const std::string& x);
// "jet_<ops>_<out dtype>_<n>in": the ops are the first few of the graph's code ("_<k>out"
// before the dtype for a kernel of several outputs).
std::string kernel_name(const ir::graph& g);
// Output k of the graph (0: g.output, then g.more_outputs) and its name in the kernel: "out",
// "out1", "out2", ...
const ir::operand& output_of(const ir::graph& g, int k);
std::string output_name(int k);
// A kernel's first line: `extern "C" __global__ void __launch_bounds__(threads) name(const
// __grid_constant__ params_type p) {`, the one parameter every kernel takes.
std::string kernel_entry(const std::string& name, const std::string& params_type = "jet_params",
                         int threads = block_threads);
// `struct jet_params`: the fields of `params`, in its order.
void render_params(const ir::graph& g, const param_layout& params, std::string& s);
// jet_params and jet_element: what every Jet kernel's code starts with.
void render_prologue(const ir::graph& g, const param_layout& params, std::string& s);
// A Jet kernel's source around its code: a header line, the index types, and the helpers of
// preamble.hpp that the code names.
std::string kernel_text(const ir::graph& g, const std::string& code);
// `jet_element(p, i, x0, ..., y1, ...)`: the graph's code for one element, given its inputs'
// values; returns output 0's value and sets y1, ... to the other outputs'.
void render_element(const ir::graph& g, std::string& s);

// The body of a reduction kernel, shared by Jet's reductions and user reduction kernels
// (reduction_body.cpp): chunks of the reduced axes, a warp or a block per output (rows) or a
// thread per output (columns), partial states merged by the last block to finish. The
// kernel defines before it: jet_state (init, add, merge), jet_value, jet_bases(p, m, b),
// jet_at(p, k, b) and jet_store(p, b, s), the combining helpers, and in its first lines M,
// K, chunk (jet_idx), jet_splits, jet_work and jet_counters.
struct reduction_body {
  int group = block_threads;           // rows: threads per output, a warp or a block
  bool columns = false;                // a thread per output instead
  int parts = 4;                       // independent states per thread
  int slots = 1;                       // offsets in each b[]
  const ir::graph* vectors = nullptr;  // a graph whose rows load vectors (vector_width > 1)
};
void render_reduction_body(const reduction_body& body, std::string& s);

}  // namespace jet::codegen
