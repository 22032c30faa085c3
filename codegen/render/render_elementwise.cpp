// IR -> CUDA C. The only place in Jet that spells CUDA syntax for generated kernels.
#include <string>

#include "codegen/render/op_spelling.hpp"
#include "codegen/ir/passes.hpp"
#include "codegen/render/preamble.hpp"
#include "codegen/render/render.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
using detail::op_code;

// The type the kernel computes in: half types widen to float.
const char* value_type(dtype t) {
  switch (t) {
    case dtype::bool_: return "bool";
    case dtype::int8: return "signed char";
    case dtype::int16: return "short";
    case dtype::int32: return "int";
    case dtype::int64: return "long long";
    case dtype::uint8: return "unsigned char";
    case dtype::uint16: return "unsigned short";
    case dtype::uint32: return "unsigned int";
    case dtype::uint64: return "unsigned long long";
    case dtype::float16:
    case dtype::bfloat16:
    case dtype::float32: return "float";
    case dtype::float64: return "double";
    case dtype::complex64: return "jet_c64";
    case dtype::complex128: return "jet_c128";
  }
  return "?";
}

// The type elements have in memory.
const char* storage_type(dtype t) {
  return t == dtype::float16 || t == dtype::bfloat16 ? "unsigned short" : value_type(t);
}

const char* short_name(dtype t) {
  constexpr const char* names[] = {"b1",  "i8",  "i16",  "i32", "i64", "u8",  "u16", "u32",
                                   "u64", "f16", "bf16", "f32", "f64", "c64", "c128"};
  return names[static_cast<int>(t)];
}

namespace {

bool single_precision(dtype t) {
  return t == dtype::float16 || t == dtype::bfloat16 || t == dtype::float32 ||
         t == dtype::complex64;
}

}  // namespace

std::string load(dtype t, const std::string& raw) {
  if (t == dtype::float16) return "jet_f16_to_f32(" + raw + ")";
  if (t == dtype::bfloat16) return "jet_bf16_to_f32(" + raw + ")";
  return raw;
}

std::string store(dtype t, const std::string& value) {
  if (t == dtype::float16) return "jet_f32_to_f16(" + value + ")";
  if (t == dtype::bfloat16) return "jet_f32_to_bf16(" + value + ")";
  return value;
}

namespace {

std::string temp(int i) { return "t" + std::to_string(i); }

std::string substitute(const char* pattern, const ir::instr& in, dtype loop) {
  std::string out;
  for (const char* c = pattern; *c; ++c) {
    if (*c != '$') {
      out += *c;
      continue;
    }
    const char k = *++c;
    if (k >= '0' && k <= '2') out += temp(in.args[k - '0']);
    else if (k == 'T') out += value_type(loop);
    else if (k == 'R') out += single_precision(loop) ? "float" : "double";
    else if (k == 'f') out += single_precision(loop) ? "f" : "";
  }
  return out;
}

}  // namespace

std::string render_cast(dtype from, dtype to, const std::string& x) {
  const std::string real = single_precision(to) ? "float" : "double";
  if (to == dtype::bool_) return is_complex(from) ? "jet_ctruth(" + x + ")" : "(" + x + " != 0)";
  if (is_complex(to)) {
    if (is_complex(from)) return std::string(value_type(to)) + "{(" + real + ")" + x + ".re, (" + real + ")" + x + ".im}";
    return std::string(value_type(to)) + "{(" + real + ")" + x + ", (" + real + ")0}";
  }
  const std::string source = is_complex(from) ? x + ".re" : x;
  if (to == dtype::float16) return "jet_round_f16((float)" + source + ")";
  if (to == dtype::bfloat16) return "jet_round_bf16((float)" + source + ")";
  return "(" + std::string(value_type(to)) + ")" + source;
}

namespace {

std::string render_instr(const ir::graph& g, const ir::instr& in) {
  switch (in.op) {
    case op_code::input: return "x" + std::to_string(in.slot);
    case op_code::scalar: return "p.s" + std::to_string(in.slot);
    case op_code::index: return "(long long)i";
    case op_code::cast: return render_cast(g.code[in.args[0]].type, in.type, temp(in.args[0]));
    default: break;
  }
  // The loop dtype is the operands' (they were cast to it); where's first operand is bool.
  const dtype loop = g.code[in.args[in.op == op_code::where ? 1 : 0]].type;
  const op_spelling& s = spelling(in.op);
  const char* pattern = nullptr;
  switch (kind(loop)) {
    case dtype_kind::boolean: pattern = s.boolean; break;
    case dtype_kind::signed_int:
    case dtype_kind::unsigned_int: pattern = s.integer; break;
    case dtype_kind::floating: pattern = s.floating; break;
    case dtype_kind::complex: pattern = s.complex; break;
  }
  if (!pattern)
    throw internal_error(std::string("no CUDA spelling of ") + detail::op_name(in.op) + " for " +
                         std::string(name(loop)));
  return substitute(pattern, in, loop);
}

}  // namespace

bool uses_complex(const ir::graph& g) {
  for (const ir::instr& in : g.code)
    if (is_complex(in.type)) return true;
  return is_complex(g.output.type);
}

std::string kernel_name(const ir::graph& g) {
  std::string name = "jet";
  int ops = 0;
  for (const ir::instr& in : g.code) {
    if (in.op == op_code::input || in.op == op_code::scalar) continue;
    if (++ops > 6) {
      name += "_etc";
      break;
    }
    name += std::string("_") + (in.op == op_code::cast ? "cast" : detail::op_name(in.op));
  }
  if (ops == 0) name += "_copy";
  return name + "_" + short_name(g.output.type) + "_" + std::to_string(g.inputs.size()) + "in";
}

void render_params(const ir::graph& g, std::string& s) {
  const int nd = g.extents.size();
  s += "struct jet_params {\n";
  s += std::string("  alignas(8) ") + storage_type(g.output.type) + "* out;\n";
  for (std::size_t k = 0; k < g.inputs.size(); ++k)
    s += std::string("  alignas(8) const ") + storage_type(g.inputs[k].type) + "* in" + std::to_string(k) + ";\n";
  for (std::size_t k = 0; k < g.params.size(); ++k)
    s += std::string("  alignas(8) ") + value_type(g.params[k].type) + " s" + std::to_string(k) + ";\n";
  s += "  long long n;\n";
  if (g.has_extents()) s += "  long long extents[" + std::to_string(nd) + "];\n";
  if (g.output.has_strides()) s += "  long long out_strides[" + std::to_string(nd) + "];\n";
  for (std::size_t k = 0; k < g.inputs.size(); ++k)
    if (g.inputs[k].has_strides())
      s += "  long long in" + std::to_string(k) + "_strides[" + std::to_string(nd) + "];\n";
  if (g.reduce.active)
    s += "  long long outputs, length, chunk, splits;\n  void* work;\n  unsigned* counters;\n  double post_arg;\n";
  s += "};\n\n";
}

void render_prologue(const ir::graph& g, std::string& s) {
  s.reserve(20000);
  s += "// Generated by Jet.\n";
  s += preamble_base;
  const bool complex = uses_complex(g);
  if (complex) s += preamble_complex;
  // Index types first: index-keeping accumulators store jet_off. Accumulators come after the
  // combining helpers, whose general jet_warp_reduce the extremes' own forms fall back on.
  s += g.index64 ? "typedef unsigned long long jet_idx;\ntypedef long long jet_off;\n\n"
                 : "typedef unsigned int jet_idx;\ntypedef int jet_off;\n\n";
  if (g.reduce.active) {
    s += preamble_reduce;
    if (complex) s += preamble_reduce_complex;
    s += preamble_reduce_combine;
    s += preamble_accumulators;
  }
  render_params(g, s);
  render_element(g, s);
}

void render_element(const ir::graph& g, std::string& s) {
  s += std::string("__device__ __forceinline__ ") + value_type(g.code.back().type) +
       " jet_element(const jet_params& p, unsigned long long i";
  for (std::size_t k = 0; k < g.inputs.size(); ++k)
    s += std::string(", ") + value_type(g.inputs[k].type) + " x" + std::to_string(k);
  s += ") {\n";
  for (std::size_t i = 0; i < g.code.size(); ++i)
    s += std::string("  const ") + value_type(g.code[i].type) + " " + temp(static_cast<int>(i)) +
         " = " + render_instr(g, g.code[i]) + ";\n";
  s += std::string("  return ") + temp(static_cast<int>(g.code.size() - 1)) + ";\n}\n\n";
}

namespace {

// Offsets of every strided operand for the element at linear index `i`.
void render_offsets(const ir::graph& g, std::string& s) {
  const int nd = g.extents.size();
  auto strided = [&](auto&& f) {
    if (g.output.has_strides()) f(std::string("out"));
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
    strided([&](const std::string& n) { s += "    o_" + n + " = (jet_off)i * (jet_off)p." + n + "_strides[0];\n"; });
    return;
  }
  s += "    jet_idx rest = i;\n";
  for (int d = nd - 1; d >= 0; --d) {
    const std::string dim = std::to_string(d);
    if (d > 0) {
      s += "    { const jet_idx c = rest % (jet_idx)p.extents[" + dim + "]; rest /= (jet_idx)p.extents[" + dim + "];\n";
    } else {
      s += "    { const jet_idx c = rest;\n";
    }
    strided([&](const std::string& n) { s += "      o_" + n + " += (jet_off)c * (jet_off)p." + n + "_strides[" + dim + "];\n"; });
    s += "    }\n";
  }
}

// Address of an operand's element (or first vector element) at linear index `i`.
std::string address(const ir::operand& op, const std::string& n) {
  switch (op.mode) {
    case ir::access::contiguous: return "p." + n + " + i";
    case ir::access::scalar: return "p." + n;
    default: return "p." + n + " + o_" + n;
  }
}

bool vector_operand(const ir::operand& op) {
  return op.mode == ir::access::contiguous || op.mode == ir::access::strided_unit_inner;
}

// One work item: `width` consecutive elements along the innermost axis. Loads and stores are
// 16-byte vectors when the chunk is whole (a 1-D kernel's last chunk may be partial). The
// element body is emitted once, in a loop that shifts through the vectors, so that NVRTC
// compiles each math function once rather than once per lane.
void render_body(const ir::graph& g, std::string& s, int width, bool partial_chunks) {
  const std::string w = std::to_string(width);
  auto vec = [&](dtype t) { return "jet_vec<" + std::string(storage_type(t)) + ", " + w + ">"; };
  if (partial_chunks) s += "    const bool whole = i + " + w + " <= n;\n";
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const ir::operand& op = g.inputs[k];
    const std::string n = "in" + std::to_string(k), v = "v" + std::to_string(k);
    if (!vector_operand(op)) {
      s += "    const " + std::string(storage_type(op.type)) + " " + v + " = *(" + address(op, n) + ");\n";
      continue;
    }
    s += "    " + vec(op.type) + " " + v + "{};\n";
    const std::string whole_load = v + " = *(const " + vec(op.type) + "*)(" + address(op, n) + ");";
    if (!partial_chunks) {
      s += "    " + whole_load + "\n";
    } else {
      s += "    if (whole) " + whole_load + "\n";
      s += "    else {\n      #pragma unroll\n      for (int k = 0; k < " + w + "; ++k) if (i + k < n) " + v +
           ".v[k] = (" + address(op, n) + ")[k];\n    }\n";
    }
  }
  s += "    " + vec(g.output.type) + " r;\n";
  s += "    #pragma unroll 1\n    for (int k = 0; k < " + w + "; ++k) {\n";
  std::string call = "jet_element(p, i + k";
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const ir::operand& op = g.inputs[k];
    call += ", " + load(op.type, "v" + std::to_string(k) + (vector_operand(op) ? ".v[0]" : ""));
  }
  call += ")";
  s += "      const " + std::string(storage_type(g.output.type)) + " y = " + store(g.output.type, call) + ";\n";
  if (width > 1) {
    s += "      #pragma unroll\n      for (int j = 0; j + 1 < " + w + "; ++j) {\n";
    for (std::size_t k = 0; k < g.inputs.size(); ++k)
      if (vector_operand(g.inputs[k])) s += "        v" + std::to_string(k) + ".v[j] = v" + std::to_string(k) + ".v[j + 1];\n";
    s += "        r.v[j] = r.v[j + 1];\n      }\n";
  }
  s += "      r.v[" + std::to_string(width - 1) + "] = y;\n    }\n";
  const std::string whole_store = "*(" + vec(g.output.type) + "*)(" + address(g.output, "out") + ") = r;";
  if (!partial_chunks) {
    s += "    " + whole_store + "\n";
  } else {
    s += "    if (whole) " + whole_store + "\n";
    s += "    else {\n      #pragma unroll\n      for (int k = 0; k < " + w + "; ++k) if (i + k < n) (" +
         address(g.output, "out") + ")[k] = r.v[k];\n    }\n";
  }
}

// 2-D kernels with transposed inputs: each 32x32 tile of the output is computed by a 32x8
// block; transposed inputs are read coalesced along their fast (outer) axis into a padded
// shared-memory tile, then read back along the output's rows.
void render_tiled(const ir::graph& g, std::string& s) {
  for (std::size_t k = 0; k < g.inputs.size(); ++k)
    if (g.inputs[k].mode == ir::access::transposed)
      s += "  __shared__ " + std::string(storage_type(g.inputs[k].type)) + " tile" + std::to_string(k) + "[32][33];\n";
  s += "  const jet_idx rows = (jet_idx)p.extents[0], cols = (jet_idx)p.extents[1];\n";
  s += "  const jet_idx tiles_c = (cols + 31) / 32, tiles = ((rows + 31) / 32) * tiles_c;\n";
  s += "  for (jet_idx t = blockIdx.x; t < tiles; t += gridDim.x) {\n";
  s += "    const jet_idx r0 = (t / tiles_c) * 32, c0 = (t % tiles_c) * 32;\n";
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    if (g.inputs[k].mode != ir::access::transposed) continue;
    const std::string n = "in" + std::to_string(k);
    s += "    for (int j = threadIdx.y; j < 32; j += 8) {\n";
    s += "      const jet_idx r = r0 + threadIdx.x, c = c0 + j;\n";
    s += "      if (r < rows && c < cols) tile" + std::to_string(k) + "[threadIdx.x][j] = p." + n +
         "[(jet_off)r * (jet_off)p." + n + "_strides[0] + (jet_off)c * (jet_off)p." + n + "_strides[1]];\n";
    s += "    }\n";
  }
  s += "    __syncthreads();\n";
  s += "    for (int j = threadIdx.y; j < 32; j += 8) {\n";
  s += "      const jet_idx r = r0 + j, c = c0 + threadIdx.x;\n";
  s += "      if (r >= rows || c >= cols) continue;\n";
  s += "      const jet_idx i = r * cols + c;\n";
  auto offset = [&](const ir::operand& op, const std::string& n) -> std::string {
    switch (op.mode) {
      case ir::access::contiguous: return "i";
      case ir::access::scalar: return "0";
      default: return "(jet_off)r * (jet_off)p." + n + "_strides[0] + (jet_off)c * (jet_off)p." + n + "_strides[1]";
    }
  };
  std::string call = "jet_element(p, i";
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const ir::operand& op = g.inputs[k];
    const std::string n = "in" + std::to_string(k);
    const std::string raw = op.mode == ir::access::transposed ? "tile" + std::to_string(k) + "[j][threadIdx.x]"
                                                               : "p." + n + "[" + offset(op, n) + "]";
    call += ", " + load(op.type, raw);
  }
  call += ")";
  s += "      p.out[" + offset(g.output, "out") + "] = " + store(g.output.type, call) + ";\n";
  s += "    }\n    __syncthreads();\n  }\n";
}

}  // namespace

kernel_source render(const ir::graph& g) {
  if (g.reduce.active) return render_reduction(g);
  kernel_source out;
  out.name = kernel_name(g);
  std::string& s = out.source;
  render_prologue(g, s);
  const int width = g.vector_width;
  s += "extern \"C\" __global__ void __launch_bounds__(256) " + out.name +
       "(const __grid_constant__ jet_params p) {\n";
  if (g.tiled) {
    render_tiled(g, s);
    s += "}\n";
    return out;
  }
  s += "  const jet_idx n = (jet_idx)p.n;\n";
  s += "  const jet_idx step = (jet_idx)gridDim.x * blockDim.x;\n";
  s += "  const jet_idx first = (jet_idx)blockIdx.x * blockDim.x + threadIdx.x;\n";
  const bool partial_chunks = width > 1 && g.extents.size() == 1;
  s += "  const jet_idx items = (n + " + std::to_string(width - 1) + ") / " + std::to_string(width) + ";\n";
  s += "  for (jet_idx item = first; item < items; item += step) {\n";
  s += "    const jet_idx i = item * " + std::to_string(width) + ";\n";
  render_offsets(g, s);
  render_body(g, s, width, partial_chunks);
  s += "  }\n";
  s += "}\n";
  return out;
}

}  // namespace jet::codegen
