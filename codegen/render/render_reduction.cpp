// Reduction IR -> CUDA C: the producer's element function, an accumulator, and one kernel.
// It reduces chunks of the reduced axes, either a warp or a block per output (`rows`, reduced
// axes innermost) or a thread per output (`columns`); with one chunk per output it stores the
// result, else it writes partial states and the last block to finish merges and stores them.
#include <string>

#include "codegen/render/render.hpp"

namespace jet::codegen {
namespace {

using detail::reduce_op;

// The accumulator over the producer's values.
std::string accumulator(const ir::graph& g) {
  const dtype t = g.code.back().type;
  const std::string v = value_type(t);
  if (is_complex(t)) {
    switch (g.reduce.op) {
      case reduce_op::min: return "jet_acc_arg<" + v + ", false>";
      case reduce_op::max: return "jet_acc_arg<" + v + ", true>";
      case reduce_op::nanmin: return "jet_acc_nanarg<" + v + ", false>";
      case reduce_op::nanmax: return "jet_acc_nanarg<" + v + ", true>";
      case reduce_op::ptp: return "jet_acc_argptp<" + v + ">";
      default: break;
    }
  }
  switch (g.reduce.op) {
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

// Independent states per thread: four, so that the adds of one step's loads overlap, but two
// for the accumulators that keep an index (jet_acc_arg, _nanarg, _argptp) or a variance,
// whose registers would otherwise cut the blocks an SM holds (bench/NOTES.md, argmax).
int state_parts(const ir::graph& g) {
  const std::string a = accumulator(g);
  return a.find("arg") == std::string::npos && a.find("var") == std::string::npos ? 4 : 2;
}

// The reduced value of state `s`, post-step applied.
std::string result_of(const ir::graph& g) {
  std::string r;
  switch (g.reduce.op) {
    case reduce_op::mean: r = "jet_div_count(s.v, p.length)"; break;
    case reduce_op::nanmean: r = "jet_div_count(s.v, s.n)"; break;
    case reduce_op::var: r = "s.variance(p.post_arg)"; break;
    case reduce_op::nanmin:
    case reduce_op::nanmax: r = "s.result()"; break;
    case reduce_op::ptp: r = "(s.hi.v - s.lo.v)"; break;
    case reduce_op::argmin:
    case reduce_op::argmax: r = "s.i"; break;
    case reduce_op::all:
    case reduce_op::any: r = "(s.v != 0)"; break;
    default: r = "s.v";
  }
  const std::string type = value_type(g.reduce.result);
  switch (g.reduce.post) {
    case detail::reduce_post::none: return r;
    case detail::reduce_post::sqrt: return "jet_sqrt((" + type + ")" + r + ")";
    case detail::reduce_post::power:
      return "jet_pow((" + type + ")" + r + ", (" + type + ")p.post_arg)";
  }
  return r;
}

// jet_store: the result of a state, cast and stored for the output whose offsets are b.
void render_store(const ir::graph& g, std::string& s) {
  const dtype out = g.output.type, result = g.reduce.result;
  s += "__device__ __noinline__ void jet_store(const jet_params& p, const jet_off* b, const "
       "jet_state& s) {\n";
  s += std::string("  const ") + value_type(result) + " r = " + result_of(g) + ";\n";
  const std::string converted = result == out ? "r" : render_cast(result, out, "r");
  const std::string at =
      g.output.has_strides() ? "b[" + std::to_string(g.inputs.size()) + "]" : "0";
  s += "  p.out[" + at + "] = " + store(out, converted) + ";\n}\n\n";
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
  s += "typedef " + accumulator(g) + " jet_state;\n";
  s += "typedef " + std::string(value_type(g.code.back().type)) + " jet_value;\n\n";
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
  body.slots = static_cast<int>(g.inputs.size()) + 1;
  body.vectors = g.vector_width > 1 ? &g : nullptr;
  render_reduction_body(body, s);
  s += "}\n\n";
  out.source = kernel_text(g, s);
  return out;
}

}  // namespace jet::codegen
