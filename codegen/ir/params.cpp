// The kernel's parameter block. Its layout is the one render.cpp declares: every field
// 8-byte aligned, in this order: output pointer, input pointers, scalars, element count,
// extents (rank > 1), then the strides of each operand that is not contiguous or scalar;
// reductions add outputs, length, chunk, splits, the work buffer, the chunk counters and the
// post-step argument.
#include <complex>
#include <cstring>

#include "codegen/ir/passes.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

std::size_t slot_size(dtype t) { return t == dtype::complex128 ? 16 : 8; }

// Writes a scalar as the value type the kernel computes in.
void write_scalar(const ir::param& p, std::byte* at) {
  const detail::scalar_value& v = p.value;
  auto as = [&](auto x) { std::memcpy(at, &x, sizeof x); };
  const double re = v.kind == weak_kind::integer || v.kind == weak_kind::boolean
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
    case dtype::complex64: as(std::complex<float>(static_cast<float>(re), static_cast<float>(v.number.imag()))); break;
    case dtype::complex128: as(std::complex<double>(re, v.number.imag())); break;
  }
}

template <class Writer>
std::size_t layout(const ir::graph& g, Writer&& write) {
  std::size_t at = 0;
  auto put = [&](const void* src, std::size_t n, std::size_t size) {
    write(at, src, n);
    at += size;
  };
  put(&g.output.data, 8, 8);
  for (const ir::operand& op : g.inputs) put(&op.data, 8, 8);
  for (const ir::param& p : g.params) {
    std::byte bytes[16] = {};
    write_scalar(p, bytes);
    put(bytes, slot_size(p.type), slot_size(p.type));
  }
  const std::int64_t n = g.size();
  put(&n, 8, 8);
  if (g.has_extents()) put(g.extents.begin(), 8 * g.extents.size(), 8 * g.extents.size());
  auto put_strides = [&](const ir::operand& op) {
    if (op.has_strides()) put(op.strides.begin(), 8 * op.strides.size(), 8 * op.strides.size());
  };
  put_strides(g.output);
  for (const ir::operand& op : g.inputs) put_strides(op);
  if (g.reduce.active) {
    const ir::reduction_geometry& r = g.reduce.geometry;
    for (const std::int64_t v : {r.outputs, r.length, r.chunk, r.splits}) put(&v, 8, 8);
    put(&r.work, 8, 8);
    put(&r.counters, 8, 8);
    put(&g.reduce.post_arg, 8, 8);
  }
  return at;
}

}  // namespace

std::size_t params_size(const ir::graph& g) {
  return layout(g, [](std::size_t, const void*, std::size_t) {});
}

std::size_t pack_params(const ir::graph& g, std::byte* buffer, std::size_t capacity) {
  if (params_size(g) > capacity) return 0;
  return layout(g, [&](std::size_t at, const void* src, std::size_t n) {
    std::memcpy(buffer + at, src, n);
  });
}

}  // namespace jet::codegen
