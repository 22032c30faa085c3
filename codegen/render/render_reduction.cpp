// Reduction IR -> CUDA C: the producer's element function, an accumulator, and one kernel.
// It reduces chunks of the reduced axes, either a warp or a block per output (`rows`, reduced
// axes innermost) or a thread per output (`columns`); with one chunk per output it stores the
// result, else it writes partial states and the last block to finish merges and stores them.
#include <string>

#include "codegen/render/render.hpp"

namespace jet::codegen {
namespace {

using detail::reduce_op;

// The accumulator of `op` over values of dtype t.
std::string accumulator(reduce_op op, dtype t) {
  const std::string v = value_type(t);
  if (is_complex(t)) {
    switch (op) {
      case reduce_op::min: return "jet_acc_arg<" + v + ", false>";
      case reduce_op::max: return "jet_acc_arg<" + v + ", true>";
      case reduce_op::nanmin: return "jet_acc_nanarg<" + v + ", false>";
      case reduce_op::nanmax: return "jet_acc_nanarg<" + v + ", true>";
      case reduce_op::ptp: return "jet_acc_argptp<" + v + ">";
      default: break;
    }
  }
  switch (op) {
    case reduce_op::sum:
    case reduce_op::mean: return "jet_acc_sum<" + v + ">";
    case reduce_op::prod: return "jet_acc_prod<" + v + ">";
    case reduce_op::nansum: return "jet_acc_nansum<" + v + ">";
    case reduce_op::nanmean: return "jet_acc_nanmean<" + v + ">";
    case reduce_op::var: return "jet_acc_var<" + v + ", " + value_type(real_dtype(t)) + ">";
    case reduce_op::min: return "jet_acc_extreme<" + v + ", false, false>";
    case reduce_op::max: return "jet_acc_extreme<" + v + ", true, false>";
    case reduce_op::nanmin: return "jet_acc_extreme<" + v + ", false, true>";
    case reduce_op::nanmax: return "jet_acc_extreme<" + v + ", true, true>";
    case reduce_op::ptp: return "jet_acc_ptp<" + v + ">";
    case reduce_op::argmin: return "jet_acc_arg<" + v + ", false>";
    case reduce_op::argmax: return "jet_acc_arg<" + v + ", true>";
    case reduce_op::all: return "jet_acc_truth<" + v + ", true>";
    case reduce_op::any: return "jet_acc_truth<" + v + ", false>";
    case reduce_op::count_nonzero: return "jet_acc_count<" + v + ">";
  }
  return "?";
}

// Reduction k of the kernel: 0 is the reduction's own fields, then its `more` (several
// reductions sharing the pass).
ir::reduce_part part_of(const ir::graph& g, int k) {
  if (k > 0) return g.reduce.more[static_cast<std::size_t>(k - 1)];
  return {g.reduce.op, g.reduce.post, g.reduce.result, g.reduce.post_arg};
}
int parts_count(const ir::graph& g) { return static_cast<int>(g.reduce.more.size()) + 1; }
// The dtype of the values reduction k reduces.
dtype value_of(const ir::graph& g, int k) {
  return k == 0 ? g.code.back().type : g.code[g.more_results[static_cast<std::size_t>(k - 1)]].type;
}

// Independent states per thread: four, so that the adds of one step's loads overlap, but two
// for the accumulators that keep an index (jet_acc_arg, _nanarg, _argptp) or a variance, and
// for states of more than two reductions sharing the pass, whose registers would otherwise cut
// the blocks an SM holds (bench/NOTES.md, argmax and the one-pass reductions).
int state_parts(const ir::graph& g) {
  if (parts_count(g) > 2) return 2;
  for (int k = 0; k < parts_count(g); ++k) {
    const std::string a = accumulator(part_of(g, k).op, value_of(g, k));
    if (a.find("arg") != std::string::npos || a.find("var") != std::string::npos) return 2;
  }
  return 4;
}

// The reduced value of state `s` (of reduction `r`, its post-step argument `post_arg`), the
// post-step applied.
std::string result_of(const ir::reduce_part& r, const std::string& s, const std::string& post_arg) {
  std::string v;
  switch (r.op) {
    case reduce_op::mean: v = "jet_div_count(" + s + ".v, p.length)"; break;
    case reduce_op::nanmean: v = "jet_div_count(" + s + ".v, " + s + ".n)"; break;
    case reduce_op::var: v = s + ".variance(" + post_arg + ")"; break;
    case reduce_op::nanmin:
    case reduce_op::nanmax: v = s + ".result()"; break;
    case reduce_op::ptp: v = "(" + s + ".hi.v - " + s + ".lo.v)"; break;
    case reduce_op::argmin:
    case reduce_op::argmax: v = s + ".i"; break;
    case reduce_op::all:
    case reduce_op::any: v = "(" + s + ".v != 0)"; break;
    default: v = s + ".v";
  }
  const std::string type = value_type(r.result);
  switch (r.post) {
    case detail::reduce_post::none: return v;
    case detail::reduce_post::sqrt: return "jet_sqrt((" + type + ")" + v + ")";
    case detail::reduce_post::power:
      return "jet_pow((" + type + ")" + v + ", (" + type + ")" + post_arg + ")";
  }
  return v;
}

// jet_store: each reduction's result, cast and stored for the outputs whose offsets are b (the
// outputs' after the inputs').
void render_store(const ir::graph& g, std::string& s) {
  s += "__device__ __noinline__ void jet_store(const jet_params& p, const jet_off* b, const "
       "jet_state& s) {\n";
  const bool shared = !g.more_outputs.empty();
  for (int k = 0; k < parts_count(g); ++k) {
    const ir::reduce_part r = part_of(g, k);
    const ir::operand& out = output_of(g, k);
    const std::string n = std::to_string(k), name = "r" + (shared ? n : "");
    const std::string state = shared ? "s.a" + n : "s";
    const std::string post_arg = k == 0 ? "p.post_arg" : "p.post_arg" + n;
    s += std::string("  const ") + value_type(r.result) + " " + name + " = " +
         result_of(r, state, post_arg) + ";\n";
    const std::string converted =
        r.result == out.type ? name : render_cast(r.result, out.type, name);
    const std::string at =
        out.has_strides()
            ? "b[" + std::to_string(g.inputs.size() + static_cast<std::size_t>(k)) + "]"
            : "0";
    s += "  p." + output_name(k) + "[" + at + "] = " + store(out.type, converted) + ";\n";
  }
  s += "}\n\n";
}

// Several results of the pass: the producers' values as one jet_value, and one jet_state
// holding an accumulator for each reduction, which adds, merges and steps member by member.
void render_shared_state(const ir::graph& g, std::string& s) {
  std::string values, members, init, add, merge, step;
  for (std::size_t k = 0; k <= g.more_outputs.size(); ++k)
    values += std::string("  ") + value_type(value_of(g, static_cast<int>(k))) + " v" +
              std::to_string(k) + ";\n";
  for (int k = 0; k < parts_count(g); ++k) {
    const std::string n = std::to_string(k);
    members += "  " + accumulator(part_of(g, k).op, value_of(g, k)) + " a" + n + ";\n";
    init += " a" + n + ".init();";
    add += " a" + n + ".add(x.v" + n + ", k);";
    merge += " a" + n + ".merge(o.a" + n + ");";
    step += " jet_step(s.a" + n + ");";
  }
  s += "struct jet_value {\n" + values + "};\n";
  s += "struct jet_state {\n" + members;
  s += "  __device__ __forceinline__ void init() {" + init + " }\n";
  s += "  __device__ __forceinline__ void add(const jet_value& x, long long k) {" + add + " }\n";
  s += "  __device__ __forceinline__ void merge(const jet_state& o) {" + merge + " }\n};\n";
  s += "__device__ __forceinline__ void jet_step(jet_state& s) {" + step + " }\n\n";
}

std::string reduction_name(const ir::graph& g) {
  return "jet_" + std::string(detail::reduce_name(g.reduce.op)) + kernel_name(g).substr(3);
}

}  // namespace

kernel_source render_reduction(const ir::graph& g, const param_layout& params) {
  kernel_source out;
  out.name = reduction_name(g);
  std::string s;
  render_prologue(g, params, s);
  if (g.more_outputs.empty()) {
    s += "typedef " + accumulator(g.reduce.op, g.code.back().type) + " jet_state;\n";
    s += "typedef " + std::string(value_type(g.code.back().type)) + " jet_value;\n\n";
  } else {
    render_shared_state(g, s);
  }
  render_reduced_access(g, s);
  render_store(g, s);
  s += kernel_entry(out.name);
  s += "  const jet_idx M = (jet_idx)p.outputs, K = (jet_idx)p.length, chunk = (jet_idx)p.chunk;\n";
  s += "  const unsigned long long jet_splits = (unsigned long long)p.splits;\n";
  s += "  void* const jet_work = p.work;\n  unsigned* const jet_counters = p.counters;\n";
  reduction_body body;
  body.group = g.reduce.geometry.group;
  body.columns = g.reduce.geometry.columns;
  body.parts = state_parts(g);
  body.slots = static_cast<int>(g.inputs.size() + 1 + g.more_outputs.size());
  body.vectors = g.vector_width > 1 ? &g : nullptr;
  render_reduction_body(body, s);
  s += "}\n\n";
  out.source = kernel_text(g, s);
  return out;
}

}  // namespace jet::codegen
