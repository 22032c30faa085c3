// Parameter blocks: the table, its packing, and the layout of Jet's own kernels.
#include "codegen/ir/params.hpp"

#include <complex>
#include <cstring>
#include <string>

#include "codegen/ir/ir.hpp"
#include "jet/error.hpp"

namespace jet::codegen {

thread_local device_error_channel device_errors;

void param_layout::clear() {
  fields_.clear();
  bytes_ = 0;
}

std::byte* param_layout::spill_value(std::size_t size) {
  if (size > sizeof spill_)
    throw internal_error("a parameter value of " + std::to_string(size) + " bytes");
  return spill_;
}

const param_field& param_layout::at(param_role role, int index) const {
  for (const param_field& f : fields_)
    if (f.role == role && f.index == index) return f;
  throw internal_error("no parameter of role " + std::to_string(static_cast<int>(role)) + " for " +
                       std::to_string(index));
}

void param_layout::pack(std::byte* block) const {
  if (bytes_ > max_param_bytes)
    throw internal_error("packing " + std::to_string(bytes_) + " parameter bytes");
  std::memcpy(block, values_, bytes_);
  for (const param_field& f : fields_) {
    if (!f.from) continue;
    if (f.size == 8)
      std::memcpy(block + f.offset, f.from, 8);  // most fields: one move
    else
      std::memcpy(block + f.offset, f.from, f.size);
  }
}

const void* reduction_field(const ir::reduction_geometry& r, param_role role) {
  switch (role) {
    case param_role::reduce_outputs: return &r.outputs;
    case param_role::reduce_length: return &r.length;
    case param_role::reduce_chunk: return &r.chunk;
    case param_role::reduce_splits: return &r.splits;
    case param_role::reduce_work: return &r.work;
    case param_role::reduce_counters: return &r.counters;
    default:
      throw internal_error("no reduction field of role " + std::to_string(static_cast<int>(role)));
  }
}

void add_reduction_fields(const ir::reduction_geometry& r, std::initializer_list<param_role> roles,
                          param_layout& out) {
  for (const param_role role : roles) out.add(role, 0, 8, 8, reduction_field(r, role));
}

namespace {

// A scalar as the value type the kernel computes in (half types widen to float).
void write_scalar(const ir::param& p, std::byte* at) {
  const detail::scalar_value& v = p.value;
  auto as = [&](auto x) { std::memcpy(at, &x, sizeof x); };
  const double re =
      v.kind == weak_kind::integer || v.kind == weak_kind::boolean
          ? (v.is_unsigned ? static_cast<double>(static_cast<std::uint64_t>(v.integer))
                           : static_cast<double>(v.integer))
          : v.number.real();
  switch (p.type) {
    case dtype::bool_: as(static_cast<bool>(v.integer != 0 || v.number != 0.0)); break;
    case dtype::int8: as(static_cast<std::int8_t>(v.integer)); break;
    case dtype::int16: as(static_cast<std::int16_t>(v.integer)); break;
    case dtype::int32: as(static_cast<std::int32_t>(v.integer)); break;
    case dtype::int64: as(static_cast<std::int64_t>(v.integer)); break;
    case dtype::uint8: as(static_cast<std::uint8_t>(v.integer)); break;
    case dtype::uint16: as(static_cast<std::uint16_t>(v.integer)); break;
    case dtype::uint32: as(static_cast<std::uint32_t>(v.integer)); break;
    case dtype::uint64: as(static_cast<std::uint64_t>(v.integer)); break;
    case dtype::float16: as(static_cast<float>(float16_t(static_cast<float>(re)))); break;
    case dtype::bfloat16: as(static_cast<float>(bfloat16_t(static_cast<float>(re)))); break;
    case dtype::float32: as(static_cast<float>(re)); break;
    case dtype::float64: as(re); break;
    case dtype::complex64:
      as(std::complex<float>(static_cast<float>(re), static_cast<float>(v.number.imag())));
      break;
    case dtype::complex128: as(std::complex<double>(re, v.number.imag())); break;
  }
}

// Input k's field: its address, or a random draw's jet_draw (Philox's key as two words, then
// the counter of its first block).
void add_input(const ir::operand& op, int k, param_layout& out) {
  if (!op.drawn) {
    out.add(param_role::input, k, 8, 8, &op.data);
    return;
  }
  std::byte* at = out.add_value(param_role::input, k, 16, 8);
  const std::uint32_t key[2] = {static_cast<std::uint32_t>(op.key),
                                static_cast<std::uint32_t>(op.key >> 32)};
  std::memcpy(at, key, 8);
  std::memcpy(at + 8, &op.base, 8);
}

}  // namespace

void layout_params(const ir::graph& g, param_layout& out) {
  out.clear();
  out.add(param_role::output, 0, 8, 8, &g.output.data);
  for (std::size_t k = 0; k < g.more_outputs.size(); ++k)
    out.add(param_role::output, static_cast<int>(k + 1), 8, 8, &g.more_outputs[k].data);
  for (std::size_t k = 0; k < g.inputs.size(); ++k)
    add_input(g.inputs[k], static_cast<int>(k), out);
  for (std::size_t k = 0; k < g.params.size(); ++k) {
    std::byte bytes[16] = {};
    write_scalar(g.params[k], bytes);
    out.add_value(param_role::scalar, static_cast<int>(k),
                  g.params[k].type == dtype::complex128 ? 16 : 8, 8, bytes);
  }
  const std::int64_t n = g.size();
  out.add_value(param_role::count, 0, 8, 8, &n);
  const std::size_t axes = 8 * static_cast<std::size_t>(g.extents.size());
  if (g.has_extents()) out.add(param_role::extents, 0, axes, 8, g.extents.begin());
  if (g.output.has_strides()) out.add(param_role::strides, -1, axes, 8, g.output.strides.begin());
  for (std::size_t k = 0; k < g.more_outputs.size(); ++k)
    if (g.more_outputs[k].has_strides())
      out.add(param_role::strides, -2 - static_cast<int>(k), axes, 8,
              g.more_outputs[k].strides.begin());
  for (std::size_t k = 0; k < g.inputs.size(); ++k)
    if (g.inputs[k].has_strides())
      out.add(param_role::strides, static_cast<int>(k), axes, 8, g.inputs[k].strides.begin());
  if (g.reports_errors())
    out.add(param_role::device_errors, 0, sizeof device_errors, 8, &device_errors);
  if (!g.reduce.active) return;
  add_reduction_fields(
      g.reduce.geometry,
      {param_role::reduce_outputs, param_role::reduce_length, param_role::reduce_chunk,
       param_role::reduce_splits, param_role::reduce_work, param_role::reduce_counters},
      out);
  out.add(param_role::post_arg, 0, 8, 8, &g.reduce.post_arg);
  for (std::size_t k = 0; k < g.reduce.more.size(); ++k)
    out.add(param_role::post_arg, static_cast<int>(k + 1), 8, 8, &g.reduce.more[k].post_arg);
}

}  // namespace jet::codegen
