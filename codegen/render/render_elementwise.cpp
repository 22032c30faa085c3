// Jet's elementwise kernels: a grid-stride loop over vectors of elements, or 32x32 tiles where
// an operand is transposed.
#include <algorithm>
#include <string>

#include "codegen/core/limits.hpp"
#include "codegen/render/render.hpp"

namespace jet::codegen {

namespace {

// Offsets of every strided operand for the element at linear index `i`.
void render_offsets(const ir::graph& g, std::string& s) {
  const int nd = g.extents.size();
  auto strided = [&](auto&& f) {
    if (g.output.has_strides()) f(std::string("out"));
    for (std::size_t k = 0; k < g.more_outputs.size(); ++k)
      if (g.more_outputs[k].has_strides()) f(output_name(static_cast<int>(k + 1)));
    for (std::size_t k = 0; k < g.inputs.size(); ++k)
      if (g.inputs[k].has_strides()) f("in" + std::to_string(k));
  };
  bool any = false;
  strided([&](const std::string& n) {
    s += "    jet_off o_" + n + " = 0;\n";
    any = true;
  });
  if (!any) return;
  if (nd == 1) {
    strided([&](const std::string& n) {
      s += "    o_" + n + " = (jet_off)i * (jet_off)p." + n + "_strides[0];\n";
    });
    return;
  }
  s += "    jet_idx rest = i;\n";
  for (int d = nd - 1; d >= 0; --d) {
    const std::string dim = std::to_string(d);
    if (d > 0) {
      s += "    { const jet_idx c = rest % (jet_idx)p.extents[" + dim +
           "]; rest /= (jet_idx)p.extents[" + dim + "];\n";
    } else {
      s += "    { const jet_idx c = rest;\n";
    }
    strided([&](const std::string& n) {
      s += "      o_" + n + " += (jet_off)c * (jet_off)p." + n + "_strides[" + dim + "];\n";
    });
    s += "    }\n";
  }
}

// Offset of an operand's element (or first vector element) at linear index `i`.
std::string offset(const ir::operand& op, const std::string& n) {
  switch (op.mode) {
    case ir::access::contiguous: return "i";
    case ir::access::scalar: return "0";
    default: return "o_" + n;
  }
}

// Address of an operand's element (or first vector element) at linear index `i`.
std::string address(const ir::operand& op, const std::string& n) {
  return op.mode == ir::access::scalar ? "p." + n : "p." + n + " + " + offset(op, n);
}

bool vector_operand(const ir::operand& op) {
  return op.mode == ir::access::contiguous || op.mode == ir::access::strided_unit_inner;
}

// One work item: `width` consecutive elements along the innermost axis. Loads and stores are
// 16-byte vectors when the chunk is whole (a 1-D kernel's last chunk may be partial). The
// element body is emitted once, in a loop that shifts through the vectors, so that NVRTC
// compiles each math function once rather than once per lane.
// The helper that combines a scatter's value into an element of dtype t atomically.
std::string atomic_helper(dtype t, detail::scatter_op op) {
  const std::string o = std::to_string(static_cast<int>(op));
  switch (kind(t)) {
    case dtype_kind::floating:
      if (t == dtype::float16 || t == dtype::bfloat16)
        return "jet_atomic_half<" + o + (t == dtype::bfloat16 ? ", true>" : ", false>");
      return "jet_atomic_float<" + o + ">";
    case dtype_kind::complex: return "jet_atomic_complex<" + o + ">";
    default: return "jet_atomic_int<" + o + ">";
  }
}

// A scatter's store of its one element at store_at: plain, or combined with what is there (in
// the block's bins in shared memory, where it has them).
std::string scatter_store(const ir::graph& g) {
  const std::string at =
      g.shared_bins ? "jet_bins[store_at]" : "(" + address(g.output, "out") + ")[store_at]";
  if (g.combine == detail::scatter_op::store) return "if (in_bounds) " + at + " = r.v[0];";
  return "if (in_bounds) " + atomic_helper(g.output.type, g.combine) + "(&" + at + ", r.v[0]);";
}

// The call of jet_element for element i + k: its vector operands' values are lane k's
// (`by_lane`, an unrolled loop) or lane 0's (a loop that shifts the lanes down).
std::string element_call(const ir::graph& g, bool by_lane) {
  std::string call = "jet_element(p, i + k";
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const ir::operand& op = g.inputs[k];
    const std::string n = "in" + std::to_string(k), v = "v" + std::to_string(k);
    // A gathered operand's own position moves with the lane along a unit inner stride.
    const bool moves = by_lane && (op.mode == ir::access::contiguous || op.strides.back() == 1);
    if (op.gathered)
      call += ", " + address(op, n) + (moves ? " + k" : "");
    else
      call += ", " + load(op.type, v + (vector_operand(op) ? by_lane ? ".v[k]" : ".v[0]" : ""));
  }
  if (g.output.gathered) call += ", store_at, in_bounds";
  for (std::size_t k = 1; k <= g.more_outputs.size(); ++k) call += ", y" + std::to_string(k);
  return call + ")";
}

// Declarations of the values of outputs 1, 2, ... of one element, which jet_element sets.
std::string more_values(const ir::graph& g) {
  std::string s;
  for (std::size_t k = 0; k < g.more_outputs.size(); ++k)
    s += std::string(value_type(g.code[g.more_results[k]].type)) + " y" + std::to_string(k + 1) +
         "{}; ";
  return s;
}

// Output k's vector of results: r, r1, r2, ...
std::string result_name(std::size_t k) { return k == 0 ? "r" : "r" + std::to_string(k); }

// A vector of `width` elements of dtype t.
std::string vec(dtype t, int width) {
  return "jet_vec<" + std::string(storage_type(t)) + ", " + std::to_string(width) + ">";
}

// Each input's values for the chunk: whole vectors, or element by element in a partial chunk.
void render_loads(const ir::graph& g, std::string& s, int width, bool partial_chunks) {
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const ir::operand& op = g.inputs[k];
    const std::string n = "in" + std::to_string(k), v = "v" + std::to_string(k);
    if (op.gathered) continue;  // read in jet_element, where its offset is known
    if (op.drawn) {             // made for the whole chunk (lanes past the end are never stored)
      s += vector_operand(op)
               ? "    " + vec(op.type, width) + " " + v + ";\n    " +
                     fill_draw(g, static_cast<int>(k), offset(op, n), width, v + ".v") + "\n"
               : "    const " + std::string(value_type(op.type)) + " " + v + " = " +
                     read_input(g, static_cast<int>(k), offset(op, n)) + ";\n";
      continue;
    }
    if (!vector_operand(op)) {
      s += "    const " + std::string(storage_type(op.type)) + " " + v + " = *(" + address(op, n) +
           ");\n";
      continue;
    }
    s += "    " + vec(op.type, width) + " " + v + "{};\n";
    const std::string whole_load =
        v + " = *(const " + vec(op.type, width) + "*)(" + address(op, n) + ");";
    if (!partial_chunks) {
      s += "    " + whole_load + "\n";
    } else {
      s += "    if (whole) " + whole_load + "\n";
      s += "    else {\n      #pragma unroll\n      for (int k = 0; k < " + std::to_string(width) +
           "; ++k) if (i + k < n) " + v + ".v[k] = (" + address(op, n) + ")[k];\n    }\n";
    }
  }
}

// Lane `lane` of outputs 1, 2, ... from y1, y2, ...
std::string more_lanes(const ir::graph& g, const std::string& lane) {
  std::string m;
  for (std::size_t k = 1; k <= g.more_outputs.size(); ++k)
    m += " " + result_name(k) + ".v[" + lane +
         "] = " + store(output_of(g, static_cast<int>(k)).type, "y" + std::to_string(k)) + ";";
  return m;
}

// Whether the kernel makes random draws and does little with them: its lanes are then unrolled
// (a loop shifting the vectors would spend more instructions moving values than computing).
bool draws_cheaply(const ir::graph& g) {
  return g.code.size() <= 8 && std::any_of(g.inputs.begin(), g.inputs.end(),
                                           [](const ir::operand& op) { return op.drawn; });
}

// The loop over the chunk's lanes that fills each output's vector of results.
void render_lanes(const ir::graph& g, std::string& s, int width, bool partial_chunks) {
  const std::string w = std::to_string(width);
  const std::size_t outputs = g.more_outputs.size() + 1;
  if ((g.gathers() || draws_cheaply(g)) && width > 1) {
    // A join's reads, lane by lane: unrolled, so that the lanes' reads are in flight together.
    s += "    #pragma unroll\n    for (int k = 0; k < " + w + "; ++k)\n";
    s += std::string(partial_chunks ? "      if (whole || i + k < n) " : "      ") + "{ " +
         more_values(g) + "r.v[k] = " + store(g.output.type, element_call(g, true)) + ";" +
         more_lanes(g, "k") + " }\n";
    return;
  }
  s += "    #pragma unroll 1\n    for (int k = 0; k < " + w + "; ++k) {\n";
  if (outputs > 1) s += "      " + more_values(g) + "\n";
  // Lanes past the end hold zeros: a kernel that reports errors in the data must not look
  // at them (a zero weight sum is an error where it is data).
  const std::string y = store(g.output.type, element_call(g, false));
  const std::string type = storage_type(g.output.type);
  if (partial_chunks && g.reports_errors())
    s += "      " + type + " y{};\n      if (whole || i + k < n) y = " + y + ";\n";
  else
    s += "      const " + type + " y = " + y + ";\n";
  if (width > 1) {
    s += "      #pragma unroll\n      for (int j = 0; j + 1 < " + w + "; ++j) {\n";
    for (std::size_t k = 0; k < g.inputs.size(); ++k)
      if (vector_operand(g.inputs[k]))
        s += "        v" + std::to_string(k) + ".v[j] = v" + std::to_string(k) + ".v[j + 1];\n";
    for (std::size_t k = 0; k < outputs; ++k)
      s += "        " + result_name(k) + ".v[j] = " + result_name(k) + ".v[j + 1];\n";
    s += "      }\n";
  }
  const std::string last = std::to_string(width - 1);
  s += "      r.v[" + last + "] = y;" + more_lanes(g, last) + "\n    }\n";
}

// Each output's vector of results stored: whole, or element by element in a partial chunk.
void render_stores(const ir::graph& g, std::string& s, int width, bool partial_chunks) {
  for (std::size_t k = 0; k <= g.more_outputs.size(); ++k) {
    const ir::operand& out = output_of(g, static_cast<int>(k));
    const std::string at = address(out, output_name(static_cast<int>(k))), r = result_name(k);
    // A scatter's kernels take one element a thread (choose_access).
    const std::string whole_store =
        out.gathered ? scatter_store(g)
                     : "*(" + vec(out.type, width) + "*)(" + at + ") = " + r + ";";
    if (!partial_chunks) {
      s += "    " + whole_store + "\n";
    } else {
      s += "    if (whole) " + whole_store + "\n";
      s += "    else {\n      #pragma unroll\n      for (int k = 0; k < " + std::to_string(width) +
           "; ++k) if (i + k < n) (" + at + ")[k] = " + r + ".v[k];\n    }\n";
    }
  }
}

void render_body(const ir::graph& g, std::string& s, int width, bool partial_chunks) {
  if (partial_chunks) s += "    const bool whole = i + " + std::to_string(width) + " <= n;\n";
  render_loads(g, s, width, partial_chunks);
  // Zeroed: the shifts below read every lane before the loop has written it.
  for (std::size_t k = 0; k <= g.more_outputs.size(); ++k)
    s += "    " + vec(output_of(g, static_cast<int>(k)).type, width) + " " + result_name(k) +
         "{};\n";
  if (g.output.gathered) s += "    long long store_at = 0;\n    bool in_bounds = true;\n";
  render_lanes(g, s, width, partial_chunks);
  render_stores(g, s, width, partial_chunks);
}

// 2-D kernels with transposed inputs: each tile of the output is computed by a block of
// tile_size x tile_rows threads; transposed inputs are read coalesced along their fast (outer)
// axis into a padded shared-memory tile, then read back along the output's rows.
void render_tiled(const ir::graph& g, std::string& s) {
  const std::string size = std::to_string(tile_size), last = std::to_string(tile_size - 1);
  const std::string padded = std::to_string(tile_size + 1), rows_step = std::to_string(tile_rows);
  for (std::size_t k = 0; k < g.inputs.size(); ++k)
    if (g.inputs[k].mode == ir::access::transposed)
      s += "  __shared__ " + std::string(storage_type(g.inputs[k].type)) + " tile" +
           std::to_string(k) + "[" + size + "][" + padded + "];\n";
  s += "  const jet_idx rows = (jet_idx)p.extents[0], cols = (jet_idx)p.extents[1];\n";
  s += "  const jet_idx tiles_c = (cols + " + last + ") / " + size + ", tiles = ((rows + " + last +
       ") / " + size + ") * tiles_c;\n";
  s += "  for (jet_idx t = blockIdx.x; t < tiles; t += gridDim.x) {\n";
  s += "    const jet_idx r0 = (t / tiles_c) * " + size + ", c0 = (t % tiles_c) * " + size + ";\n";
  const std::string tile_rows_loop =
      "for (int j = threadIdx.y; j < " + size + "; j += " + rows_step + ") {\n";
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    if (g.inputs[k].mode != ir::access::transposed) continue;
    const std::string n = "in" + std::to_string(k);
    s += "    " + tile_rows_loop;
    s += "      const jet_idx r = r0 + threadIdx.x, c = c0 + j;\n";
    s += "      if (r < rows && c < cols) tile" + std::to_string(k) + "[threadIdx.x][j] = p." + n +
         "[(jet_off)r * (jet_off)p." + n + "_strides[0] + (jet_off)c * (jet_off)p." + n +
         "_strides[1]];\n";
    s += "    }\n";
  }
  s += "    __syncthreads();\n";
  s += "    " + tile_rows_loop;
  s += "      const jet_idx r = r0 + j, c = c0 + threadIdx.x;\n";
  s += "      if (r >= rows || c >= cols) continue;\n";
  s += "      const jet_idx i = r * cols + c;\n";
  auto tile_offset = [&](const ir::operand& op, const std::string& n) -> std::string {
    switch (op.mode) {
      case ir::access::contiguous: return "i";
      case ir::access::scalar: return "0";
      default:
        return "(jet_off)r * (jet_off)p." + n + "_strides[0] + (jet_off)c * (jet_off)p." + n +
               "_strides[1]";
    }
  };
  std::string call = "jet_element(p, i";
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const ir::operand& op = g.inputs[k];
    const std::string n = "in" + std::to_string(k);
    call += ", " + (op.mode == ir::access::transposed
                        ? load(op.type, "tile" + std::to_string(k) + "[j][threadIdx.x]")
                        : read_input(g, static_cast<int>(k), tile_offset(op, n)));
  }
  call += ")";
  s += "      p.out[" + tile_offset(g.output, "out") + "] = " + store(g.output.type, call) + ";\n";
  s += "    }\n    __syncthreads();\n  }\n";
}

// A scatter into shared bins (ir::graph::shared_bins): the block's bins, zeroed; after its
// elements, each bin the block added to is added into the output (all of whose strides are 0).
void render_bins_start(const ir::graph& g, std::string& s) {
  const std::string bins = std::to_string(g.shared_bins);
  s += "  __shared__ " + std::string(storage_type(g.output.type)) + " jet_bins[" + bins + "];\n";
  s += "  for (int b = threadIdx.x; b < " + bins + "; b += blockDim.x) jet_bins[b] = 0;\n";
  s += "  __syncthreads();\n";
}

void render_bins_end(const ir::graph& g, std::string& s) {
  s += "  __syncthreads();\n";
  s += "  for (int b = threadIdx.x; b < " + std::to_string(g.shared_bins) + "; b += blockDim.x)\n";
  s += "    if (jet_bins[b] != 0) " + atomic_helper(g.output.type, g.combine) +
       "(p.out + b, jet_bins[b]);\n";
}

}  // namespace

kernel_source render_elementwise(const ir::graph& g, const param_layout& params) {
  kernel_source out;
  out.name = kernel_name(g);
  std::string s;
  render_prologue(g, params, s);
  const int width = g.vector_width;
  s += kernel_entry(out.name);
  if (g.tiled) {
    render_tiled(g, s);
    s += "}\n";
    out.source = kernel_text(g, s);
    return out;
  }
  s += "  const jet_idx n = (jet_idx)p.n;\n";
  s += "  const jet_idx step = (jet_idx)gridDim.x * blockDim.x;\n";
  s += "  const jet_idx first = (jet_idx)blockIdx.x * blockDim.x + threadIdx.x;\n";
  const bool partial_chunks = width > 1 && g.extents.size() == 1;
  s += "  const jet_idx items = (n + " + std::to_string(width - 1) + ") / " +
       std::to_string(width) + ";\n";
  if (g.shared_bins) render_bins_start(g, s);
  s += "  for (jet_idx item = first; item < items; item += step) {\n";
  s += "    const jet_idx i = item * " + std::to_string(width) + ";\n";
  render_offsets(g, s);
  render_body(g, s, width, partial_chunks);
  s += "  }\n";
  if (g.shared_bins) render_bins_end(g, s);
  s += "}\n";
  out.source = kernel_text(g, s);
  return out;
}

}  // namespace jet::codegen
