// Scan IR -> CUDA C: the producer's element function, the scan's operator, and a kernel that
// runs one of the two bodies of preamble_scan.cpp: tiles of a row (rows), or runs of positions
// of 256 outputs (columns), each tile finding the prefix before it by decoupled look-back.
#include <string>

#include "codegen/render/render.hpp"

namespace jet::codegen {

kernel_source render_scan(const ir::graph& g, const param_layout& params) {
  const bool sum = g.reduce.op == detail::reduce_op::sum;
  kernel_source out;
  out.name = std::string(sum ? "jet_cumsum" : "jet_cumprod") + kernel_name(g).substr(3);
  std::string s;
  render_prologue(g, params, s);
  const std::string v = value_type(g.code.back().type);
  s += "struct jet_scan_op {\n";
  s += "  static __device__ __forceinline__ " + v + " identity() { return jet_num<" + v +
       ">::" + (sum ? "zero" : "one") + "(); }\n";
  s += "  __device__ __forceinline__ " + v + " operator()(" + v + " a, " + v +
       " b) const { return a " + (sum ? "+" : "*") + " b; }\n};\n\n";
  render_reduced_access(g, s);
  render_scan_store(g, s);
  const ir::reduction_geometry& r = g.reduce.geometry;
  s += kernel_entry(out.name, "jet_params", scan_threads(r));
  s += std::string("  ") + (r.columns ? "jet_scan_columns<" : "jet_scan_rows<") +
       std::to_string(r.step_loads) + ", jet_scan_op, " + std::to_string(g.inputs.size() + 1) +
       (r.columns ? "" : ", " + std::to_string(scan_threads(r))) + ">(p);\n}\n";
  out.source = kernel_text(g, s);
  return out;
}

}  // namespace jet::codegen
