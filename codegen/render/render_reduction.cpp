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
// whose registers would otherwise cut the blocks an SM holds (H200: argmax(a) with four
// states, 89% of the copy bandwidth against 93%).
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
    case detail::reduce_post::power: return "jet_pow((" + type + ")" + r + ", (" + type + ")p.post_arg)";
  }
  return r;
}

// Adds to b[] the offsets of axes [first, last) at linear position `index` over them:
// b[j] for input j, b[inputs] for the output (when `with_output`).
void render_unravel(const ir::graph& g, std::string& s, const std::string& index, int first, int last,
                    bool with_output) {
  if (first == last) return;
  s += "  jet_idx rest = " + index + ";\n";
  for (int d = last - 1; d >= first; --d) {
    const std::string dim = std::to_string(d);
    if (d > first)
      s += "  { const jet_idx c = rest % (jet_idx)p.extents[" + dim + "]; rest /= (jet_idx)p.extents[" + dim + "];\n";
    else
      s += "  { const jet_idx c = rest;\n";
    for (std::size_t j = 0; j < g.inputs.size(); ++j)
      if (g.inputs[j].has_strides())
        s += "    b[" + std::to_string(j) + "] += (jet_off)c * (jet_off)p.in" + std::to_string(j) + "_strides[" + dim + "];\n";
    if (with_output && g.output.has_strides())
      s += "    b[" + std::to_string(g.inputs.size()) + "] += (jet_off)c * (jet_off)p.out_strides[" + dim + "];\n";
    s += "  }\n";
  }
}

// jet_bases (offsets of output m's kept axes), jet_at (the producer's value at reduced
// position k) and jet_store (the result of a state, cast and stored for output m).
void render_access(const ir::graph& g, std::string& s) {
  const std::string slots = std::to_string(g.inputs.size() + 1);
  const int nd = g.extents.size(), kept = g.reduce.kept;
  // Inlined: out of line, b[] went through the stack and the loops' addresses waited on it.
  // Together with rolled step loops this made Jet's sum(a) kernel as fast as a hand-written
  // one (H200, queued calls: 3% faster than either change alone).
  s += "__device__ __forceinline__ void jet_bases(const jet_params& p, jet_idx m, jet_off* b) {\n";
  s += "  #pragma unroll\n  for (int j = 0; j < " + slots + "; ++j) b[j] = 0;\n";
  render_unravel(g, s, "m", 0, kept, true);
  s += "}\n\n";
  const dtype value = g.code.back().type;
  s += std::string("__device__ __forceinline__ ") + value_type(value) +
       " jet_at(const jet_params& p, jet_idx k, const jet_off* base) {\n";
  s += "  jet_off b[" + slots + "];\n  #pragma unroll\n  for (int j = 0; j < " + slots + "; ++j) b[j] = base[j];\n";
  render_unravel(g, s, "k", kept, nd, false);
  std::string call = "jet_element(p, 0";
  for (std::size_t j = 0; j < g.inputs.size(); ++j) {
    const std::string n = std::to_string(j);
    call += ", " + load(g.inputs[j].type, "p.in" + n + "[" + (g.inputs[j].has_strides() ? "b[" + n + "]" : "0") + "]");
  }
  s += "  return " + call + ");\n}\n\n";
  const dtype out = g.output.type, result = g.reduce.result;
  s += "__device__ __noinline__ void jet_store(const jet_params& p, const jet_off* b, const jet_state& s) {\n";
  s += std::string("  const ") + value_type(result) + " r = " + result_of(g) + ";\n";
  const std::string converted = result == out ? "r" : render_cast(result, out, "r");
  const std::string at = g.output.has_strides() ? "b[" + std::to_string(g.inputs.size()) + "]" : "0";
  s += "  p.out[" + at + "] = " + store(out, converted) + ";\n}\n\n";
}

// The end of a whole step: each state's jet_step.
void render_step_end(const reduction_body& r, std::string& s, const std::string& indent) {
  s += indent + "#pragma unroll\n" + indent + "for (int u = 0; u < " + std::to_string(r.parts) + "; ++u) jet_step(part[u]);\n";
}

// States per thread (state_parts), so that no element waits on the one before. Whole steps
// load `loads` elements before adding any (a guard per element would serialize the loads); the
// rest of the chunk goes one element at a time. `step` is the distance between a thread's
// elements. Columns' steps of 8 loads stay rolled, as the vector loop's (H200: then as fast as
// a hand-written column sum); the rows' steps of 4 are left to the compiler, as they were
// before (rolled, they have not been measured apart).
void render_scalar_loop(const reduction_body& r, std::string& s, const std::string& first, const std::string& step,
                        int loads) {
  const std::string n = std::to_string(loads), parts = std::to_string(r.parts);
  s += "    jet_idx k = " + first + ";\n";
  if (r.columns) s += "    #pragma unroll 1\n";
  s += "    for (; k + " + std::to_string(loads - 1) + " * " + step + " < k1; k += " + n + " * " + step + ") {\n";
  s += "      jet_value x[" + n + "];\n";
  s += "      #pragma unroll\n      for (int u = 0; u < " + n + "; ++u) x[u] = jet_at(p, k + u * " + step + ", b);\n";
  s += "      #pragma unroll\n      for (int u = 0; u < " + n + "; ++u) ";
  s += "part[u % " + parts + "].add(x[u], (long long)(k + u * " + step + "));\n";
  render_step_end(r, s, "      ");
  s += "    }\n";
  s += "    #pragma unroll 1\n    for (; k < k1; k += " + step + ") part[0].add(jet_at(p, k, b), (long long)k);\n";
}

// Rows whose reduced axis is contiguous in every operand that moves along it: each lane loads
// `unroll` 16-byte vectors per step when the row is aligned (checked per row), else it takes
// the scalar loop. Whole steps of the group come first; the chunk's rest goes element-wise.
void render_vector_loop(const reduction_body& r, std::string& s, const std::string& group) {
  const ir::graph& g = *r.vectors;
  const int width = g.vector_width, unroll = vector_unroll(width);
  const std::string w = std::to_string(width), u = std::to_string(unroll);
  std::string aligned = "true", loads, operands;
  for (std::size_t j = 0; j < g.inputs.size(); ++j) {
    const ir::operand& op = g.inputs[j];
    const std::string n = std::to_string(j), ptr = "(p.in" + n + " + b[" + n + "])";
    const std::string vec = "jet_vec<" + std::string(storage_type(op.type)) + ", " + w + ">";
    if (op.mode == ir::access::strided_unit_inner) {
      aligned += " && (unsigned long long)" + ptr + " % sizeof(" + vec + ") == 0";
      loads += "        " + vec + " x" + n + "[" + u + "];\n";
      loads += "        #pragma unroll\n        for (int u = 0; u < " + u + "; ++u) x" + n + "[u] = jet_load_row((const " + vec +
               "*)(" + ptr + " + kl + u * vs));\n";
      operands += ", " + load(op.type, "x" + n + "[u].v[e]");
    } else {
      const std::string at = op.mode == ir::access::scalar ? "0" : "b[" + n + "]";
      operands += ", " + load(op.type, "p.in" + n + "[" + at + "]");
    }
  }
  // Rolled (see jet_bases): unrolled, the compiler moved adds between the next steps' loads.
  s += "    const jet_idx vs = (jet_idx)" + group + " * " + w + ";\n";
  s += "    if (" + aligned + ") {\n";
  s += "      jet_vectors_keep<jet_state, " + u + ", " + w + "> keep;\n";
  s += "      jet_idx k = k0;\n";
  s += "      #pragma unroll 1\n";
  s += "      for (; k + " + u + " * vs <= k1; k += " + u + " * vs) {\n";
  s += "        const jet_idx kl = k + lane * " + w + ";\n";
  s += loads;
  s += "        jet_value y[" + u + "][" + w + "];\n";
  s += "        #pragma unroll\n        for (int u = 0; u < " + u + "; ++u)\n";
  s += "          #pragma unroll\n          for (int e = 0; e < " + w + "; ++e) y[u][e] = jet_element(p, 0" + operands + ");\n";
  s += "        jet_add_vectors(part, keep, y, (long long)kl, (long long)vs);\n";
  render_step_end(r, s, "        ");
  s += "      }\n";
  s += "      jet_end_vectors(part, keep);\n";
  s += "      #pragma unroll 1\n      for (k += lane; k < k1; k += " + group + ") ";
  s += "part[0].add(jet_at(p, k, b), (long long)k);\n";
  s += "    } else {\n";
  render_scalar_loop(r, s, "k0 + lane", group, 4);
  s += "    }\n";
}

void render_accumulate(const reduction_body& r, std::string& s, const std::string& first, const std::string& step) {
  const std::string parts = std::to_string(r.parts);
  s += "    jet_state part[" + parts + "];\n";
  s += "    #pragma unroll\n    for (int u = 0; u < " + parts + "; ++u) part[u].init();\n";
  if (r.vectors) render_vector_loop(r, s, step);
  else render_scalar_loop(r, s, first, step, r.columns ? column_loads : 4);
  if (parts == "4") s += "    part[2].merge(part[3]);\n";
  s += "    part[0].merge(part[1]);\n";
  if (parts == "4") s += "    part[0].merge(part[2]);\n";
  s += "    jet_state s = part[0];\n";
}

// Output m's partial state of this chunk: stored when the reduced axes are one chunk, else
// written to the work buffer (chunk-major).
const char* const keep_partial =
    "      if (jet_splits == 1) jet_store(p, b, s);\n"
    "      else ((jet_state*)jet_work)[(unsigned long long)blockIdx.y * M + m] = s;\n";

// Merges into `s` output m's partial states j = first, first + stride, ..., loading `batch`
// at a time when states take at most 16 bytes (larger ones would cost the kernel registers),
// so that the L2 round trips overlap. A missing partial reads as an empty state, which every
// accumulator merges as nothing.
void render_merge_partials(std::string& s, const std::string& first, const std::string& stride, int batch) {
  s += "  constexpr int batch = sizeof(jet_state) <= 16 ? " + std::to_string(batch) + " : 1;\n";
  s += "  for (unsigned long long j = " + first + "; j < jet_splits; j += " + stride + " * batch) {\n";
  s += "    jet_state t[batch];\n";
  s += "    #pragma unroll\n    for (int u = 0; u < batch; ++u) {\n";
  s += "      const unsigned long long ju = j + u * " + stride + ";\n";
  s += "      if (ju < jet_splits) t[u] = jet_load_cg(((const jet_state*)jet_work) + ju * M + m);\n";
  s += "      else t[u].init();\n    }\n";
  s += "    #pragma unroll\n    for (int u = 0; u < batch; ++u) s.merge(t[u]);\n  }\n";
}

// With several chunks, the last block of a column of the grid to finish merges the chunks'
// partial states of its outputs and stores them (counted per column; the count is reset for
// the next launch on this stream): a thread per output for columns, else the output's group
// of lanes, which then combine theirs.
void render_last_block(const reduction_body& r, std::string& s) {
  s += "  if (jet_splits == 1) return;\n";
  s += "  __shared__ int jet_last;\n";
  s += "  __threadfence();\n  __syncthreads();\n";
  s += "  if (threadIdx.x == 0) {\n";
  s += "    jet_last = atomicAdd(jet_counters + blockIdx.x, 1u) == (unsigned)jet_splits - 1;\n";
  s += "    if (jet_last) jet_counters[blockIdx.x] = 0;\n  }\n";
  s += "  __syncthreads();\n  if (!jet_last) return;\n  __threadfence();\n";
  const std::string store = "  {\n    jet_off b[" + std::to_string(r.slots) + "];\n    jet_bases(p, m, b);\n    jet_store(p, b, s);\n  }\n";
  if (r.columns) {
    s += "  const jet_idx m = (jet_idx)blockIdx.x * 256 + threadIdx.x;\n";
    s += "  if (m >= M) return;\n  jet_state s;\n  s.init();\n";
    render_merge_partials(s, "0", "1", 8);
    s += store;
    return;
  }
  const std::string group = std::to_string(r.group);
  s += "  const jet_idx m = (jet_idx)blockIdx.x * per_block + threadIdx.x / " + group + ";\n";
  s += "  jet_state s;\n  s.init();\n";
  s += "  if (m < M) {\n";
  render_merge_partials(s, "lane", group, 4);
  s += "  }\n";
  s += r.group == 32 ? "  s = jet_warp_reduce(s);\n" : "  s = jet_block_reduce(s);\n";
  s += "  if (lane == 0 && m < M)\n" + store;
}

void render_rows(const reduction_body& r, std::string& s) {
  const std::string group = std::to_string(r.group), slots = std::to_string(r.slots);
  s += "  const jet_idx per_block = 256 / " + group + ";\n";
  s += "  const int lane = threadIdx.x % " + group + ";\n";
  s += "  for (jet_idx m = (jet_idx)blockIdx.x * per_block + threadIdx.x / " + group +
       "; m < M; m += (jet_idx)gridDim.x * per_block) {\n";
  s += "    jet_off b[" + slots + "];\n    jet_bases(p, m, b);\n";
  render_accumulate(r, s, "k0 + lane", group);
  s += r.group == 32 ? "    s = jet_warp_reduce(s);\n" : "    s = jet_block_reduce(s);\n";
  s += "    if (lane == 0) {\n" + std::string(keep_partial) + "    }\n  }\n";
  render_last_block(r, s);
}

void render_columns(const reduction_body& r, std::string& s) {
  const std::string slots = std::to_string(r.slots);
  s += "  {\n    const jet_idx m = (jet_idx)blockIdx.x * 256 + threadIdx.x;\n";
  s += "    if (m < M) {\n";
  s += "    jet_off b[" + slots + "];\n    jet_bases(p, m, b);\n";
  render_accumulate(r, s, "k0", "1");
  s += keep_partial;
  s += "    }\n  }\n";
  render_last_block(r, s);
}

std::string reduction_name(const ir::graph& g) {
  return "jet_" + std::string(detail::reduce_name(g.reduce.op)) + kernel_name(g).substr(3);
}

}  // namespace

void render_reduction_body(const reduction_body& body, std::string& s) {
  s += "  const jet_idx k0 = (jet_idx)blockIdx.y * chunk, k1 = K - k0 < chunk ? K : k0 + chunk;\n";
  if (body.columns) render_columns(body, s);
  else render_rows(body, s);
}

kernel_source render_reduction(const ir::graph& g) {
  kernel_source out;
  out.name = reduction_name(g);
  std::string& s = out.source;
  render_prologue(g, s);
  s += "typedef " + accumulator(g) + " jet_state;\n";
  s += "typedef " + std::string(value_type(g.code.back().type)) + " jet_value;\n\n";
  render_access(g, s);
  s += "extern \"C\" __global__ void __launch_bounds__(256) " + out.name + "(const __grid_constant__ jet_params p) {\n";
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
  return out;
}

}  // namespace jet::codegen
