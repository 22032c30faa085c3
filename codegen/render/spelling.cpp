// The spellings every generated kernel shares: value and storage types, conversions, the
// graph's code for one element, the parameter block and the prologue.
#include <string>

#include "codegen/core/limits.hpp"
#include "codegen/render/op_spelling.hpp"
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

// A draw's template arguments: its distribution and value type.
std::string draw_args(const ir::operand& op) {
  return "<" + std::to_string(static_cast<int>(op.dist)) + ", " + value_type(op.type);
}

}  // namespace

std::string read_input(const ir::graph& g, int k, const std::string& at) {
  const ir::operand& op = g.inputs[static_cast<std::size_t>(k)];
  const std::string n = "p.in" + std::to_string(k);
  if (op.drawn)
    return "jet_draw_at" + draw_args(op) + ">(" + n + ", (unsigned long long)(" + at + "))";
  return load(op.type, n + "[" + at + "]");
}

std::string fill_draw(const ir::graph& g, int k, const std::string& first, int width,
                      const std::string& into) {
  const ir::operand& op = g.inputs[static_cast<std::size_t>(k)];
  return "jet_draw_fill" + draw_args(op) + ", " + std::to_string(width) + ">(p.in" +
         std::to_string(k) + ", (unsigned long long)(" + first + "), " + into + ");";
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
    if (k >= '0' && k <= '2')
      out += temp(in.args[k - '0']);
    else if (k == 'T')
      out += value_type(loop);
    else if (k == 'R')
      out += single_precision(loop) ? "float" : "double";
    else if (k == 'f')
      out += single_precision(loop) ? "f" : "";
  }
  return out;
}

}  // namespace

std::string render_cast(dtype from, dtype to, const std::string& x) {
  const std::string real = single_precision(to) ? "float" : "double";
  if (to == dtype::bool_) return is_complex(from) ? "jet_ctruth(" + x + ")" : "(" + x + " != 0)";
  if (is_complex(to)) {
    if (is_complex(from))
      return std::string(value_type(to)) + "{(" + real + ")" + x + ".re, (" + real + ")" + x +
             ".im}";
    return std::string(value_type(to)) + "{(" + real + ")" + x + ", (" + real + ")0}";
  }
  const std::string source = is_complex(from) ? x + ".re" : x;
  if (to == dtype::float16 && real_dtype(from) == dtype::float64)
    return "jet_round_f16(" + source + ")";  // in one rounding, as NumPy's cast
  if (to == dtype::float16) return "jet_round_f16((float)" + source + ")";
  if (to == dtype::bfloat16) return "jet_round_bf16((float)" + source + ")";
  if (is_integer(to) && is_inexact(from))
    return "jet_ftoi<" + std::string(value_type(to)) + ">(" + source + ")";
  return "(" + std::string(value_type(to)) + ")" + source;
}

namespace {

// The sign bit of an integer of `bytes` bytes, as a CUDA C literal.
const char* sign_bit(int bytes) {
  switch (bytes) {
    case 1: return "0x80u";
    case 2: return "0x8000u";
    case 4: return "0x80000000u";
    default: return "0x8000000000000000ull";
  }
}

// The sort key of `x`, a value of `from` (make_sort_key): integers with the sign bit flipped,
// floats by their bits (jet_float_key), complex numbers by jet_complex_key.
std::string render_sort_key(dtype from, const std::string& x, bool comparing) {
  const std::string key_type = value_type(detail::sort_key_dtype(from));
  const std::string ties = comparing ? "true" : "false";
  switch (from) {
    case dtype::float16:
      return "jet_float_key(jet_f32_to_f16(" + x + "), (unsigned short)0x7c00, " + ties + ")";
    case dtype::bfloat16:
      return "jet_float_key(jet_f32_to_bf16(" + x + "), (unsigned short)0x7f80, " + ties + ")";
    case dtype::float32:
      return "jet_float_key(__float_as_uint(" + x + "), 0x7f800000u, " + ties + ")";
    case dtype::float64:
      return "jet_float_key((unsigned long long)__double_as_longlong(" + x +
             "), 0x7ff0000000000000ull, " + ties + ")";
    case dtype::complex64:
    case dtype::complex128: return "jet_complex_key(" + x + ".re, " + x + ".im)";
    default: break;
  }
  const std::string as_key = "(" + key_type + ")" + x;
  if (kind(from) == dtype_kind::signed_int)
    return "(" + key_type + ")(" + as_key + " ^ " + sign_bit(itemsize(from)) + ")";
  return as_key;
}

// The value of `to` whose sort key is `key`.
std::string render_sort_value(dtype to, const std::string& key) {
  switch (to) {
    case dtype::bool_: return "(" + key + " != 0)";
    case dtype::float16: return "jet_f16_to_f32(jet_float_unkey(" + key + "))";
    case dtype::bfloat16: return "jet_bf16_to_f32(jet_float_unkey(" + key + "))";
    case dtype::float32: return "__uint_as_float(jet_float_unkey(" + key + "))";
    case dtype::float64: return "__longlong_as_double((long long)jet_float_unkey(" + key + "))";
    default: break;
  }
  if (kind(to) == dtype_kind::signed_int)
    return "(" + std::string(value_type(to)) + ")(" + key + " ^ " + sign_bit(itemsize(to)) + ")";
  return key;
}

// A binary search of the sorted array in.slot (its first element's address; args 1 and 2 its
// length and stride) for the compare key of value args[0], in that value's dtype.
std::string render_search(const ir::graph& g, const ir::instr& in) {
  const dtype common = g.code[in.args[0]].type;
  const dtype stored = g.inputs[in.slot].type;
  const std::string key_type = value_type(detail::sort_key_dtype(common));
  const std::string element =
      render_cast(stored, common,
                  load(stored, "x" + std::to_string(in.slot) + "[mid * " + temp(in.args[2]) + "]"));
  const bool right = in.op == op_code::search_right;
  return "[&]() {\n    const " + key_type +
         " key = " + render_sort_key(common, temp(in.args[0]), true) +
         ";\n    long long lo = 0, hi = " + temp(in.args[1]) +
         ";\n    while (lo < hi) {\n      const long long mid = lo + ((hi - lo) >> 1);\n"
         "      if (jet_key_before(" +
         render_sort_key(common, element, true) + ", key, " + (right ? "true" : "false") +
         ")) lo = mid + 1;\n      else hi = mid;\n    }\n    return lo;\n  }()";
}

std::string render_instr(const ir::graph& g, const ir::instr& in) {
  switch (in.op) {
    case op_code::input:
    case op_code::random: return "x" + std::to_string(in.slot);
    case op_code::scalar: return "p.s" + std::to_string(in.slot);
    case op_code::index: return "(long long)i";
    case op_code::gather: {
      const std::string read =
          load(in.type, "x" + std::to_string(in.slot) + "[" + temp(in.args[0]) + "]");
      if (in.args[1] < 0) return read;
      const std::string type = value_type(in.type);
      const std::string zero = is_complex(in.type) ? type + "{}" : "(" + type + ")0";
      return "(" + temp(in.args[1]) + " ? " + read + " : " + zero + ")";
    }
    case op_code::checked_index:
      return "jet_checked_index(" + temp(in.args[0]) + ", " + temp(in.args[1]) + ", " +
             temp(in.args[2]) + ", p.errors, in_bounds)";
    case op_code::cast: return render_cast(g.code[in.args[0]].type, in.type, temp(in.args[0]));
    case op_code::sort_key:
    case op_code::compare_key:
      return render_sort_key(g.code[in.args[0]].type, temp(in.args[0]),
                             in.op == op_code::compare_key);
    case op_code::sort_value: return render_sort_value(in.type, temp(in.args[0]));
    case op_code::search_left:
    case op_code::search_right: return render_search(g, in);
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
  const std::string value = substitute(pattern, in, loop);
  // float16 and bfloat16 compute in float; NumPy rounds every ufunc's result to the storage
  // type, so each node does too, and a fused kernel returns what the unfused sequence does.
  if (in.type == dtype::float16) return "jet_round_f16(" + value + ")";
  if (in.type == dtype::bfloat16) return "jet_round_bf16(" + value + ")";
  return value;
}

}  // namespace

std::string output_name(int k) { return k == 0 ? "out" : "out" + std::to_string(k); }

const ir::operand& output_of(const ir::graph& g, int k) {
  return k == 0 ? g.output : g.more_outputs[static_cast<std::size_t>(k - 1)];
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
    name += std::string("_") + (in.op == op_code::cast     ? "cast"
                                : in.op == op_code::random ? "rand"
                                                           : detail::op_name(in.op));
  }
  if (ops == 0) name += "_copy";
  if (!g.more_outputs.empty()) name += "_" + std::to_string(g.more_outputs.size() + 1) + "out";
  return name + "_" + short_name(g.output.type) + "_" + std::to_string(g.inputs.size()) + "in";
}

void render_params(const ir::graph& g, const param_layout& params, std::string& s) {
  const std::string axes = "[" + std::to_string(g.extents.size()) + "]";
  auto operand = [&](int k) { return k < 0 ? output_name(-1 - k) : "in" + std::to_string(k); };
  s += "struct jet_params {\n";
  for (const param_field& f : params.fields()) {
    const std::string k = std::to_string(f.index);
    switch (f.role) {
      case param_role::output:
        s += std::string("  alignas(8) ") + storage_type(output_of(g, f.index).type) + "* " +
             output_name(f.index) + ";\n";
        break;
      case param_role::input:
        s += g.inputs[f.index].drawn
                 ? "  jet_draw in" + k + ";\n"
                 : std::string("  alignas(8) const ") + storage_type(g.inputs[f.index].type) +
                       "* in" + k + ";\n";
        break;
      case param_role::scalar:
        s += std::string("  alignas(8) ") + value_type(g.params[f.index].type) + " s" + k + ";\n";
        break;
      case param_role::count: s += "  long long n;\n"; break;
      case param_role::extents: s += "  long long extents" + axes + ";\n"; break;
      case param_role::strides:
        s += "  long long " + operand(f.index) + "_strides" + axes + ";\n";
        break;
      // The four sizes, which follow each other, are one declaration.
      case param_role::reduce_outputs: s += "  long long outputs, length, chunk, splits;\n"; break;
      case param_role::reduce_length:
      case param_role::reduce_chunk:
      case param_role::reduce_splits: break;
      case param_role::reduce_work: s += "  void* work;\n"; break;
      case param_role::reduce_counters: s += "  unsigned* counters;\n"; break;
      case param_role::post_arg: s += "  double post_arg" + (f.index ? k : "") + ";\n"; break;
      case param_role::device_errors: s += "  jet_error_channel errors;\n"; break;
      default: throw internal_error("a user kernel's parameter in a Jet kernel's block");
    }
  }
  s += "};\n\n";
}

std::string kernel_entry(const std::string& name, const std::string& params_type, int threads) {
  return "extern \"C\" __global__ void __launch_bounds__(" + std::to_string(threads) + ") " + name +
         "(const __grid_constant__ " + params_type + " p) {\n";
}

void render_prologue(const ir::graph& g, const param_layout& params, std::string& s) {
  render_params(g, params, s);
  render_element(g, s);
}

std::string kernel_text(const ir::graph& g, const std::string& code) {
  // Index types first: index-keeping accumulators store jet_off.
  std::string s = "// Generated by Jet.\n";
  s += g.index64 ? "typedef unsigned long long jet_idx;\ntypedef long long jet_off;\n\n"
                 : "typedef unsigned int jet_idx;\ntypedef int jet_off;\n\n";
  s += helpers_named_by(code);
  s += "\n";
  return s + code;
}

void render_element(const ir::graph& g, std::string& s) {
  s += std::string("__device__ __forceinline__ ") + value_type(g.code.back().type) +
       " jet_element(const jet_params& p, unsigned long long i";
  for (std::size_t k = 0; k < g.inputs.size(); ++k) {
    const ir::operand& op = g.inputs[k];
    // A gather's source comes as the address of the element's own position.
    s += op.gathered ? std::string(", const ") + storage_type(op.type) + "* x"
                     : std::string(", ") + value_type(op.type) + " x";
    s += std::to_string(k);
  }
  if (g.output.gathered) s += ", long long& store_at, bool& in_bounds";
  for (std::size_t k = 0; k < g.more_outputs.size(); ++k)
    s += std::string(", ") + value_type(g.code[g.more_results[k]].type) + "& y" +
         std::to_string(k + 1);
  s += ") {\n";
  // Positions are checked (checked_index) into a scatter's flag, or a gather's own.
  if (!g.output.gathered && g.reports_errors()) s += "  bool in_bounds = true;\n";
  for (std::size_t i = 0; i < g.code.size(); ++i)
    s += std::string("  const ") + value_type(g.code[i].type) + " " + temp(static_cast<int>(i)) +
         " = " + render_instr(g, g.code[i]) + ";\n";
  if (g.output.gathered) s += "  store_at = " + temp(g.store_offset) + ";\n";
  for (std::size_t k = 0; k < g.more_outputs.size(); ++k)
    s += "  y" + std::to_string(k + 1) + " = " + temp(g.more_results[k]) + ";\n";
  s += std::string("  return ") + temp(static_cast<int>(g.code.size() - 1)) + ";\n}\n\n";
}

}  // namespace jet::codegen
