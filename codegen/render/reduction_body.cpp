// The body every reduction kernel shares, Jet's and user reduction kernels': chunks of the
// reduced axes, a warp or a block per output (rows) or a thread per output (columns), partial
// states merged by the last block to finish.
#include <string>

#include "codegen/core/limits.hpp"
#include "codegen/render/render.hpp"

namespace jet::codegen {
namespace {

// The end of a whole step: each state's jet_step.
void render_step_end(const reduction_body& r, std::string& s, const std::string& indent) {
  s += indent + "#pragma unroll\n" + indent + "for (int u = 0; u < " + std::to_string(r.parts) +
       "; ++u) jet_step(part[u]);\n";
}

// States per thread (state_parts), so that no element waits on the one before. Whole steps
// load `loads` elements before adding any (a guard per element would serialize the loads); the
// rest of the chunk goes one element at a time. `step` is the distance between a thread's
// elements. Columns' steps of 8 loads stay rolled, as the vector loop's, which makes the
// column sum as fast as a hand-written one (bench/NOTES.md); the rows' steps of 4 are left for
// the compiler to unroll (rolled ones have not been measured against them).
void render_scalar_loop(const reduction_body& r, std::string& s, const std::string& first,
                        const std::string& step, int loads) {
  const std::string n = std::to_string(loads), parts = std::to_string(r.parts);
  s += "    jet_idx k = " + first + ";\n";
  if (r.columns) s += "    #pragma unroll 1\n";
  s += "    for (; k + " + std::to_string(loads - 1) + " * " + step + " < k1; k += " + n + " * " +
       step + ") {\n";
  s += "      jet_value x[" + n + "];\n";
  s += "      #pragma unroll\n      for (int u = 0; u < " + n + "; ++u) x[u] = jet_at(p, k + u * " +
       step + ", b);\n";
  s += "      #pragma unroll\n      for (int u = 0; u < " + n + "; ++u) ";
  s += "part[u % " + parts + "].add(x[u], (long long)(k + u * " + step + "));\n";
  render_step_end(r, s, "      ");
  s += "    }\n";
  s += "    #pragma unroll 1\n    for (; k < k1; k += " + step +
       ") part[0].add(jet_at(p, k, b), (long long)k);\n";
}

// The stores of a vector step's values into the outputs storing elements (the values in
// y[u][e], a jet_value each), a vector at a time; `aligned` gains their rows' alignment.
std::string vector_stores(const ir::graph& g, std::string& aligned) {
  const std::string w = std::to_string(g.vector_width);
  const std::string u = std::to_string(vector_unroll(g.vector_width));
  std::string s;
  for (std::size_t k = 1; k <= g.more_outputs.size(); ++k) {
    if (!g.stores_elements(k)) continue;
    const ir::operand& out = g.more_outputs[k - 1];
    const std::string vec = "jet_vec<" + std::string(storage_type(out.type)) + ", " + w + ">";
    const std::string ptr = "(p." + output_name(static_cast<int>(k)) + " + b[" +
                            std::to_string(g.inputs.size() + k) + "])";
    aligned += " && (unsigned long long)" + ptr + " % sizeof(" + vec + ") == 0";
    s += "        #pragma unroll\n        for (int u = 0; u < " + u + "; ++u) {\n";
    s += "          " + vec + " o;\n";
    s += "          #pragma unroll\n          for (int e = 0; e < " + w +
         "; ++e) o.v[e] = " + store(out.type, "y[u][e].v" + std::to_string(k)) + ";\n";
    s += "          *(" + vec + "*)(" + ptr + " + kl + u * vs) = o;\n        }\n";
  }
  return s;
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
      // A random draw's vectors are made, whole Philox blocks at a time, where the row starts
      // at a multiple of the width.
      aligned += op.drawn ? " && (unsigned long long)b[" + n + "] % " + w + " == 0"
                          : " && (unsigned long long)" + ptr + " % sizeof(" + vec + ") == 0";
      loads += "        " + vec + " x" + n + "[" + u + "];\n";
      loads += "        #pragma unroll\n        for (int u = 0; u < " + u + "; ++u) " +
               (op.drawn ? fill_draw(g, static_cast<int>(j), "b[" + n + "] + kl + u * vs", width,
                                     "x" + n + "[u].v")
                         : "x" + n + "[u] = jet_load_row((const " + vec + "*)(" + ptr +
                               " + kl + u * vs));") +
               "\n";
      operands += ", " + load(op.type, "x" + n + "[u].v[e]");
    } else {
      const std::string at = op.mode == ir::access::scalar ? "0" : "b[" + n + "]";
      operands += ", " + read_input(g, static_cast<int>(j), at);
    }
  }
  const std::string stores = vector_stores(g, aligned);
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
  // With several reductions sharing the pass, each value is a jet_value of the producers'.
  std::string into = "y[u][e]";
  for (std::size_t k = 1; k <= g.more_outputs.size(); ++k) {
    operands += ", y[u][e].v" + std::to_string(k);
    into = "y[u][e].v0";
  }
  s += "        #pragma unroll\n        for (int u = 0; u < " + u + "; ++u)\n";
  s += "          #pragma unroll\n          for (int e = 0; e < " + w + "; ++e) " + into +
       " = jet_element(p, 0" + operands + ");\n";
  s += stores;
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

void render_accumulate(const reduction_body& r, std::string& s, const std::string& first,
                       const std::string& step) {
  const std::string parts = std::to_string(r.parts);
  s += "    jet_state part[" + parts + "];\n";
  s += "    #pragma unroll\n    for (int u = 0; u < " + parts + "; ++u) part[u].init();\n";
  if (r.vectors)
    render_vector_loop(r, s, step);
  else
    render_scalar_loop(r, s, first, step, r.columns ? column_loads : 4);
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
// accumulator merges as nothing. The loop stays rolled: ptxas unrolls a loop this small, which
// cost NVRTC ~40 ms of a float32 sum's 160.
void render_merge_partials(std::string& s, const std::string& first, const std::string& stride,
                           int batch) {
  s += "  constexpr int batch = sizeof(jet_state) <= 16 ? " + std::to_string(batch) + " : 1;\n";
  s += "  #pragma unroll 1\n  for (unsigned long long j = " + first +
       "; j < jet_splits; j += " + stride + " * batch) {\n";
  s += "    jet_state t[batch];\n";
  s += "    #pragma unroll\n    for (int u = 0; u < batch; ++u) {\n";
  s += "      const unsigned long long ju = j + u * " + stride + ";\n";
  s +=
      "      if (ju < jet_splits) t[u] = jet_load_cg(((const jet_state*)jet_work) + ju * M + m);\n";
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
  const std::string store = "  {\n    jet_off b[" + std::to_string(r.slots) +
                            "];\n    jet_bases(p, m, b);\n    jet_store(p, b, s);\n  }\n";
  if (r.columns) {
    s += "  const jet_idx m = (jet_idx)blockIdx.x * " + std::to_string(block_threads) +
         " + threadIdx.x;\n";
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
  s += r.group == warp_threads ? "  s = jet_warp_reduce(s);\n" : "  s = jet_block_reduce(s);\n";
  s += "  if (lane == 0 && m < M)\n" + store;
}

void render_rows(const reduction_body& r, std::string& s) {
  const std::string group = std::to_string(r.group), slots = std::to_string(r.slots);
  s += "  const jet_idx per_block = " + std::to_string(block_threads) + " / " + group + ";\n";
  s += "  const int lane = threadIdx.x % " + group + ";\n";
  s += "  for (jet_idx m = (jet_idx)blockIdx.x * per_block + threadIdx.x / " + group +
       "; m < M; m += (jet_idx)gridDim.x * per_block) {\n";
  s += "    jet_off b[" + slots + "];\n    jet_bases(p, m, b);\n";
  render_accumulate(r, s, "k0 + lane", group);
  s += r.group == warp_threads ? "    s = jet_warp_reduce(s);\n" : "    s = jet_block_reduce(s);\n";
  s += "    if (lane == 0) {\n" + std::string(keep_partial) + "    }\n  }\n";
  render_last_block(r, s);
}

void render_columns(const reduction_body& r, std::string& s) {
  const std::string slots = std::to_string(r.slots);
  s += "  {\n    const jet_idx m = (jet_idx)blockIdx.x * " + std::to_string(block_threads) +
       " + threadIdx.x;\n";
  s += "    if (m < M) {\n";
  s += "    jet_off b[" + slots + "];\n    jet_bases(p, m, b);\n";
  render_accumulate(r, s, "k0", "1");
  s += keep_partial;
  s += "    }\n  }\n";
  render_last_block(r, s);
}

}  // namespace

void render_reduction_body(const reduction_body& body, std::string& s) {
  s += "  const jet_idx k0 = (jet_idx)blockIdx.y * chunk, k1 = K - k0 < chunk ? K : k0 + chunk;\n";
  if (body.columns)
    render_columns(body, s);
  else
    render_rows(body, s);
}

}  // namespace jet::codegen
