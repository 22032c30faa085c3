// How reductions and scans reach their operands: the offsets of an output's kept axes, the
// producer's value at a reduced position, and a scan's output at one.
#include <string>

#include "codegen/render/render.hpp"

namespace jet::codegen {
namespace {

// Which offsets render_unravel adds to: those of the operands that move along the reduced
// axes (the inputs and the outputs storing elements), of every operand, or of the output.
enum class offsets : std::uint8_t { reduced, all, output };

// Whether render_unravel adds output k's offsets for `which`.
bool moves(const ir::graph& g, std::size_t k, offsets which) {
  return which != offsets::reduced || g.stores_elements(k);
}

// Adds to b[] the offsets of axes [first, last) at linear position `index` over them:
// b[j] for input j, b[inputs + k] for output k, as `which` says.
void render_unravel(const ir::graph& g, std::string& s, const std::string& index, int first,
                    int last, offsets which) {
  if (first == last) return;
  s += "  jet_idx rest = " + index + ";\n";
  for (int d = last - 1; d >= first; --d) {
    const std::string dim = std::to_string(d);
    if (d > first)
      s += "  { const jet_idx c = rest % (jet_idx)p.extents[" + dim +
           "]; rest /= (jet_idx)p.extents[" + dim + "];\n";
    else
      s += "  { const jet_idx c = rest;\n";
    for (std::size_t j = 0; j < g.inputs.size() && which != offsets::output; ++j)
      if (g.inputs[j].has_strides())
        s += "    b[" + std::to_string(j) + "] += (jet_off)c * (jet_off)p.in" + std::to_string(j) +
             "_strides[" + dim + "];\n";
    for (std::size_t k = 0; k <= g.more_outputs.size(); ++k)
      if (moves(g, k, which) && output_of(g, static_cast<int>(k)).has_strides())
        s += "    b[" + std::to_string(g.inputs.size() + k) + "] += (jet_off)c * (jet_off)p." +
             output_name(static_cast<int>(k)) + "_strides[" + dim + "];\n";
    s += "  }\n";
  }
}

}  // namespace

// The producers' values at an element from jet_element's call `call` (without its closing
// parenthesis): its value, or with several results a jet_value of them all, the values of the
// outputs storing elements stored (at offsets b[]).
std::string producer_values(const ir::graph& g, const std::string& call) {
  if (g.more_outputs.empty()) return "  return " + call + ");\n";
  std::string s = "  jet_value r;\n  r.v0 = " + call;
  for (std::size_t k = 1; k <= g.more_outputs.size(); ++k) s += ", r.v" + std::to_string(k);
  s += ");\n";
  for (std::size_t k = 1; k <= g.more_outputs.size(); ++k) {
    if (!g.stores_elements(k)) continue;
    const ir::operand& out = g.more_outputs[k - 1];
    const std::string at =
        out.has_strides() ? "b[" + std::to_string(g.inputs.size() + k) + "]" : "0";
    s += "  p." + output_name(static_cast<int>(k)) + "[" + at +
         "] = " + store(out.type, "r.v" + std::to_string(k)) + ";\n";
  }
  return s + "  return r;\n";
}

void render_reduced_access(const ir::graph& g, std::string& s) {
  const std::string slots = std::to_string(g.inputs.size() + 1 + g.more_outputs.size());
  const int nd = g.extents.size(), kept = g.reduce.kept;
  // Inlined: out of line, b[] goes through the stack and the loops' addresses wait on it.
  // With the step loops rolled, this makes Jet's sum(a) kernel as fast as a hand-written one
  // (bench/NOTES.md).
  s += "__device__ __forceinline__ void jet_bases(const jet_params& p, jet_idx m, jet_off* b) {\n";
  s += "  #pragma unroll\n  for (int j = 0; j < " + slots + "; ++j) b[j] = 0;\n";
  render_unravel(g, s, "m", 0, kept, offsets::all);
  s += "}\n\n";
  const std::string value = g.more_outputs.empty() ? value_type(g.code.back().type) : "jet_value";
  s += "__device__ __forceinline__ " + value +
       " jet_at(const jet_params& p, jet_idx k, const jet_off* base) {\n";
  s += "  jet_off b[" + slots + "];\n  #pragma unroll\n  for (int j = 0; j < " + slots +
       "; ++j) b[j] = base[j];\n";
  render_unravel(g, s, "k", kept, nd, offsets::reduced);
  std::string call = "jet_element(p, 0";
  for (std::size_t j = 0; j < g.inputs.size(); ++j) {
    const std::string n = std::to_string(j);
    const std::string at = g.inputs[j].has_strides() ? "b[" + n + "]" : "0";
    call += ", " + (g.inputs[j].gathered ? "p.in" + n + " + " + at
                                         : read_input(g, static_cast<int>(j), at));
  }
  s += producer_values(g, call) + "}\n\n";
}

void render_scan_store(const ir::graph& g, std::string& s) {
  const std::string slots = std::to_string(g.inputs.size() + 1);
  const std::string out = std::to_string(g.inputs.size());
  const dtype value = g.code.back().type, to = g.output.type;
  s += std::string("__device__ __forceinline__ void jet_put(const jet_params& p, jet_idx k, ") +
       "const jet_off* base, " + value_type(value) + " v) {\n";
  s += "  jet_off b[" + slots + "];\n  b[" + out + "] = base[" + out + "];\n";
  render_unravel(g, s, "k", g.reduce.kept, g.extents.size(), offsets::output);
  const std::string converted = value == to ? "v" : render_cast(value, to, "v");
  s += "  p.out[b[" + out + "]] = " + store(to, converted) + ";\n}\n\n";
}

}  // namespace jet::codegen
