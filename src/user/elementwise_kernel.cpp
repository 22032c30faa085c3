// elementwise_kernel: binding the arguments, broadcasting and collapsing the operands as Jet's
// own kernels do, then the cached kernel for that specialization, packed and launched.
#include <algorithm>
#include <bit>
#include <cmath>
#include <complex>
#include <cstring>

#include "codegen/ir/ir.hpp"
#include "jet/error.hpp"
#include "src/user/user_kernels.hpp"

namespace jet {
namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

using detail::put_param;

// `x` rounded to float with round-to-odd: rounding that to a 16-bit float gives `x` rounded
// once, where rounding to nearest twice could land on the wrong neighbour.
float rounded_to_odd(double x) {
  const float f = static_cast<float>(x);
  if (!std::isfinite(f) || static_cast<double>(f) == x) return f;
  std::uint32_t bits = std::bit_cast<std::uint32_t>(f);
  if (std::abs(static_cast<double>(f)) > std::abs(x)) --bits;  // the neighbour toward zero
  return std::bit_cast<float>(bits | 1u);
}

// A 16-bit float's value, exact in double.
double widened(dtype t, std::uint16_t bits) {
  float16_t h;
  bfloat16_t b;
  h.bits = b.bits = bits;
  return t == dtype::float16 ? static_cast<float>(h) : static_cast<float>(b);
}

}  // namespace

void kernel_arg::scalar_bytes(dtype t, std::byte* out) const {
  const weak_kind weak = scalar_.kind;
  if (weak == weak_kind::none && t == type_) {
    put_param(out, bits_);
    return;
  }
  const bool integral = weak == weak_kind::integer || weak == weak_kind::boolean;
  const std::int64_t integer = scalar_.integer;
  const double real = weak == weak_kind::none ? widened(type_, bits_)
                      : integral ? (scalar_.is_unsigned ? static_cast<double>(static_cast<std::uint64_t>(integer))
                                                        : static_cast<double>(integer))
                                 : scalar_.number.real();
  const double imag = weak == weak_kind::complex ? scalar_.number.imag() : 0.0;
  const std::int64_t whole = integral ? integer : static_cast<std::int64_t>(real);
  switch (t) {
    case dtype::bool_: put_param(out, static_cast<bool>(integral ? integer != 0 : real != 0 || imag != 0)); return;
    case dtype::int8: put_param(out, static_cast<std::int8_t>(whole)); return;
    case dtype::int16: put_param(out, static_cast<std::int16_t>(whole)); return;
    case dtype::int32: put_param(out, static_cast<std::int32_t>(whole)); return;
    case dtype::int64: put_param(out, whole); return;
    case dtype::uint8: put_param(out, static_cast<std::uint8_t>(whole)); return;
    case dtype::uint16: put_param(out, static_cast<std::uint16_t>(whole)); return;
    case dtype::uint32: put_param(out, static_cast<std::uint32_t>(whole)); return;
    case dtype::uint64:
      put_param(out, integral ? static_cast<std::uint64_t>(integer) : static_cast<std::uint64_t>(real));
      return;
    case dtype::float16: put_param(out, float16_t(rounded_to_odd(real)).bits); return;
    case dtype::bfloat16: put_param(out, bfloat16_t(rounded_to_odd(real)).bits); return;
    case dtype::float32: put_param(out, static_cast<float>(real)); return;
    case dtype::float64: put_param(out, real); return;
    case dtype::complex64:
      put_param(out, std::complex<float>(static_cast<float>(real), static_cast<float>(imag)));
      return;
    case dtype::complex128: put_param(out, std::complex<double>(real, imag)); return;
  }
  throw internal_error("kernel_arg::scalar_bytes: a dtype without a case");
}

kernel_outputs::operator array() const {
  if (size() != 1)
    throw value_error("the kernel has " + std::to_string(size()) + " outputs; index them instead of converting to one array");
  return front();
}

namespace detail {

std::vector<array> bound_arrays(const std::vector<codegen::user_param>& params, const codegen::user_binding& b,
                                const std::vector<kernel_arg>& args) {
  std::vector<array> arrays(params.size());
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (!args[k].is_array()) continue;
    arrays[k] = args[k].value();
    for (std::size_t c : b.casts)
      if (c == k) arrays[k] = arrays[k].astype(b.types[k]);
    if (params[k].raw && !arrays[k].is_c_contiguous()) {
      if (params[k].output)
        throw value_error("raw output '" + params[k].name + "' must be C-contiguous: the kernel indexes it as one");
      arrays[k] = arrays[k].copy();
    }
  }
  return arrays;
}

void pack_slots(const codegen::user_slots& slots, const std::vector<codegen::user_access>& access,
                const codegen::user_binding& b, const std::vector<kernel_arg>& args, const std::vector<array>& arrays,
                std::byte* block) {
  for (std::size_t k = 0; k < access.size(); ++k) {
    if (access[k] == codegen::user_access::scalar) {
      args[k].scalar_bytes(b.types[k], block + slots.value[k]);
      continue;
    }
    put_param(block + slots.value[k], arrays[k].data());
    if (access[k] == codegen::user_access::raw) put_param(block + slots.raw_size[k], arrays[k].size());
  }
}

void check_kernel_name(const std::string& name) {
  if (!is_identifier(name)) throw value_error("kernel name '" + name + "' is no C identifier");
}

void check_block_size(std::size_t bytes, const std::string& kernel) {
  if (bytes > 4096)
    throw value_error("kernel " + kernel + " needs " + std::to_string(bytes) +
                      " bytes of parameters, more than the 4096 a launch takes: use fewer parameters or axes");
}

void append_bound_signature(const codegen::user_binding& b, const std::vector<codegen::user_access>& access,
                            std::string& signature) {
  for (std::size_t k = 0; k < access.size(); ++k) {
    signature += static_cast<char>('a' + static_cast<int>(b.types[k]));
    signature += static_cast<char>('0' + static_cast<int>(access[k]));
  }
}

}  // namespace detail

struct elementwise_kernel::state {
  std::vector<codegen::user_param> params;
  std::string name, operation, preamble, id;
  detail::compile_extras extras;
};

elementwise_kernel::elementwise_kernel(std::string in_params, std::string out_params, std::string operation,
                                       std::string name, std::string preamble, std::vector<std::string> options)
    : state_(std::make_unique<state>()) {
  detail::check_kernel_name(name);
  state_->params = codegen::parse_user_params(in_params, out_params);
  if (std::none_of(state_->params.begin(), state_->params.end(), [](const codegen::user_param& p) { return p.output; }))
    throw value_error("kernel " + name + " has no output parameter");
  state_->id = detail::user_kernel_id({"elementwise", in_params, out_params, operation, name, preamble});
  for (const std::string& o : options) state_->id = detail::user_kernel_id({state_->id, o});
  state_->name = std::move(name);
  state_->operation = std::move(operation);
  state_->preamble = std::move(preamble);
  state_->extras = detail::user_extras(options);
}

elementwise_kernel::~elementwise_kernel() = default;
elementwise_kernel::elementwise_kernel(elementwise_kernel&&) noexcept = default;
elementwise_kernel& elementwise_kernel::operator=(elementwise_kernel&&) noexcept = default;

kernel_outputs elementwise_kernel::call(const std::vector<kernel_arg>& args) const {
  const state& st = *state_;
  const std::vector<codegen::user_param>& params = st.params;
  codegen::user_elementwise_spec spec;
  spec.binding = codegen::bind_user_params(params, detail::describe_args(args), st.name);
  std::vector<array> arrays = detail::bound_arrays(params, spec.binding, args);
  // The broadcast shape of every non-raw array; outputs given must have it.
  shape extents;
  bool any = false;
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (params[k].raw || k >= args.size() || !args[k].is_array()) continue;
    extents = any ? broadcast_shapes(extents, arrays[k].shape()) : arrays[k].shape();
    any = true;
  }
  if (!any) throw value_error("kernel " + st.name + " has no non-raw array argument to take its shape from");
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (!params[k].output) continue;
    if (k >= args.size()) {
      if (params[k].raw) throw value_error("kernel " + st.name + ": raw output '" + params[k].name + "' must be passed");
      arrays[k] = empty(extents, spec.binding.types[k]);
    } else if (!params[k].raw && !(arrays[k].shape() == extents)) {
      throw shape_error("kernel " + st.name + ": output '" + params[k].name + "' has shape " +
                        to_string(arrays[k].shape()) + ", the arguments broadcast to " + to_string(extents));
    }
  }
  // Collapse the iteration space over every non-raw array's strides, as Jet's kernels do.
  ir::graph g;
  g.extents = extents;
  std::vector<std::size_t> operand_of(params.size(), 0);
  for (std::size_t k = 0; k < params.size(); ++k) {
    const bool scalar = k < args.size() && !args[k].is_array();
    if (params[k].raw || scalar) continue;
    operand_of[k] = g.inputs.size();
    ir::operand op;
    op.strides = arrays[k].broadcast_to(extents).strides();
    g.inputs.push_back(op);
  }
  g.output = g.inputs.front();
  codegen::collapse_axes(g);
  const shape contiguous = contiguous_strides(g.extents);
  spec.access.resize(params.size());
  std::int64_t reach = g.size();
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (params[k].raw) {
      spec.access[k] = codegen::user_access::raw;
    } else if (k < args.size() && !args[k].is_array()) {
      spec.access[k] = codegen::user_access::scalar;
    } else {
      const shape& strides = g.inputs[operand_of[k]].strides;
      spec.access[k] = strides == contiguous ? codegen::user_access::contiguous : codegen::user_access::strided;
      std::int64_t span = 1;
      for (int d = 0; d < g.extents.size(); ++d) span += (strides[d] < 0 ? -strides[d] : strides[d]) * (g.extents[d] - 1);
      reach = std::max(reach, span);
    }
  }
  spec.ndim = g.extents.size();
  spec.index64 = reach >= (std::int64_t{1} << 31);
  spec.params = params;
  spec.name = st.name;
  spec.operation = st.operation;
  spec.preamble = st.preamble;
  kernel_outputs outputs;
  for (std::size_t k = 0; k < params.size(); ++k)
    if (params[k].output) outputs.push_back(arrays[k]);
  if (g.size() == 0) return outputs;

  const codegen::user_elementwise_layout l = codegen::layout_user_elementwise(spec);
  detail::check_block_size(l.bytes, st.name);
  std::string signature = "jet.user.elementwise/" + st.id + "/";
  detail::append_bound_signature(spec.binding, spec.access, signature);
  signature += "/" + std::to_string(spec.ndim) + (spec.index64 ? "L" : "I");
  const detail::loaded_kernel& kernel =
      detail::obtain_kernel(signature, [&] { return codegen::render_user_elementwise(spec); }, st.extras);
  alignas(16) std::byte block[4096] = {};
  detail::pack_slots(l.slots, spec.access, spec.binding, args, arrays, block);
  put_param(block + l.count, g.size());
  for (int d = 0; d < spec.ndim; ++d) {
    put_param(block + l.extents + 8 * d, g.extents[d]);
    for (std::size_t k = 0; k < params.size(); ++k)
      if (spec.access[k] == codegen::user_access::strided)
        put_param(block + l.strides[k] + 8 * d, g.inputs[operand_of[k]].strides[d]);
  }
  detail::launch(kernel, g.size(), false, block);
  return outputs;
}

}  // namespace jet
