// User kernels' arguments as bound to parameters and as passed to a launch; the kernel
// objects' ids and compile options.
#include "src/user/arguments.hpp"

#include <bit>
#include <cmath>
#include <complex>
#include <cstring>

#include "codegen/core/limits.hpp"
#include "jet/error.hpp"
#include "src/cache/sha256.hpp"

namespace jet {
namespace {

template <class T>
void put(std::byte* at, T value) {
  std::memcpy(at, &value, sizeof value);
}

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
    put(out, bits_);
    return;
  }
  const bool integral = weak == weak_kind::integer || weak == weak_kind::boolean;
  const std::int64_t integer = scalar_.integer;
  const double real =
      weak == weak_kind::none ? widened(type_, bits_)
      : integral ? (scalar_.is_unsigned ? static_cast<double>(static_cast<std::uint64_t>(integer))
                                        : static_cast<double>(integer))
                 : scalar_.number.real();
  const double imag = weak == weak_kind::complex ? scalar_.number.imag() : 0.0;
  const std::int64_t whole = integral ? integer : static_cast<std::int64_t>(real);
  switch (t) {
    case dtype::bool_:
      put(out, static_cast<bool>(integral ? integer != 0 : real != 0 || imag != 0));
      return;
    case dtype::int8: put(out, static_cast<std::int8_t>(whole)); return;
    case dtype::int16: put(out, static_cast<std::int16_t>(whole)); return;
    case dtype::int32: put(out, static_cast<std::int32_t>(whole)); return;
    case dtype::int64: put(out, whole); return;
    case dtype::uint8: put(out, static_cast<std::uint8_t>(whole)); return;
    case dtype::uint16: put(out, static_cast<std::uint16_t>(whole)); return;
    case dtype::uint32: put(out, static_cast<std::uint32_t>(whole)); return;
    case dtype::uint64:
      put(out, integral ? static_cast<std::uint64_t>(integer) : static_cast<std::uint64_t>(real));
      return;
    case dtype::float16: put(out, float16_t(rounded_to_odd(real)).bits); return;
    case dtype::bfloat16: put(out, bfloat16_t(rounded_to_odd(real)).bits); return;
    case dtype::float32: put(out, static_cast<float>(real)); return;
    case dtype::float64: put(out, real); return;
    case dtype::complex64:
      put(out, std::complex<float>(static_cast<float>(real), static_cast<float>(imag)));
      return;
    case dtype::complex128: put(out, std::complex<double>(real, imag)); return;
  }
  throw internal_error("kernel_arg::scalar_bytes: a dtype without a case");
}

kernel_outputs::operator array() const {
  if (size() != 1)
    throw value_error("the kernel has " + std::to_string(size()) +
                      " outputs; index them instead of converting to one array");
  return front();
}

namespace detail {

compile_extras user_extras(const std::vector<std::string>& options,
                           std::vector<std::string> name_expressions) {
  compile_extras extras;
  extras.options = options;
  extras.name_expressions = std::move(name_expressions);
  return extras;
}

std::string user_kernel_id(std::initializer_list<std::string_view> fields) {
  sha256 h;
  for (std::string_view f : fields) h.update_field(f);
  return to_hex(h.finish());
}

std::vector<codegen::user_arg_info> describe_args(const std::vector<kernel_arg>& args) {
  std::vector<codegen::user_arg_info> info(args.size());
  for (std::size_t k = 0; k < args.size(); ++k) {
    info[k].is_array = args[k].is_array();
    info[k].type = args[k].is_array() ? args[k].value().dtype() : args[k].scalar_type();
    info[k].weak = args[k].scalar_kind();
  }
  return info;
}

std::vector<array> bound_arrays(const std::vector<codegen::user_param>& params,
                                const codegen::user_binding& b,
                                const std::vector<kernel_arg>& args) {
  std::vector<array> arrays(params.size());
  for (std::size_t k = 0; k < args.size(); ++k) {
    if (!args[k].is_array()) continue;
    arrays[k] = args[k].value();
    for (std::size_t c : b.casts)
      if (c == k) arrays[k] = arrays[k].astype(b.types[k]);
    if (params[k].raw && !arrays[k].is_c_contiguous()) {
      if (params[k].output)
        throw value_error("raw output '" + params[k].name +
                          "' must be C-contiguous: the kernel indexes it as one");
      arrays[k] = arrays[k].copy();
    }
  }
  return arrays;
}

std::vector<codegen::user_value> user_values(const std::vector<codegen::user_param>& params,
                                             const codegen::user_binding& b,
                                             const std::vector<kernel_arg>& args,
                                             const std::vector<array>& arrays) {
  std::vector<codegen::user_value> values(params.size());
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (k < args.size() && !args[k].is_array()) {
      args[k].scalar_bytes(b.types[k], values[k].bytes);
      continue;
    }
    put(values[k].bytes, arrays[k].data());
    values[k].size = arrays[k].size();
  }
  return values;
}

void check_block_size(std::size_t bytes, const std::string& kernel) {
  if (bytes > codegen::max_param_bytes)
    throw value_error("kernel " + kernel + " needs " + std::to_string(bytes) +
                      " bytes of parameters, more than the " +
                      std::to_string(codegen::max_param_bytes) +
                      " a launch takes: use fewer parameters or axes");
}

}  // namespace detail
}  // namespace jet
