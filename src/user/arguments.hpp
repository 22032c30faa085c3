// User kernels' arguments, bound to parameters and made into launch values, and what the
// kernel objects share: their ids, compile options and checks.
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/user/user_kernels.hpp"
#include "jet/kernel.hpp"
#include "src/nvrtc/compile.hpp"

namespace jet::detail {

// User kernels compile with their own options; a source that includes a header, such as
// `#include <curand_kernel.h>`, also gets the toolkit's include folders (compile_options).
compile_extras user_extras(const std::vector<std::string>& options,
                           std::vector<std::string> name_expressions = {});

// 64 hex digits naming a user kernel object by everything its sources are made from.
std::string user_kernel_id(std::initializer_list<std::string_view> fields);

// The arguments' dtypes and kinds, for codegen::bind_user_params.
std::vector<codegen::user_arg_info> describe_args(const std::vector<kernel_arg>& args);

// One array per parameter (none for scalars): inputs cast where `b` says, raw inputs made
// C-contiguous; outputs as given, or left empty for the caller to allocate.
std::vector<array> bound_arrays(const std::vector<codegen::user_param>& params,
                                const codegen::user_binding& b,
                                const std::vector<kernel_arg>& args);
// What the launch passes for each parameter: a scalar's bytes as its parameter's C type, an
// array's address and element count.
std::vector<codegen::user_value> user_values(const std::vector<codegen::user_param>& params,
                                             const codegen::user_binding& b,
                                             const std::vector<kernel_arg>& args,
                                             const std::vector<array>& arrays);
// Throws jet::value_error unless a kernel's parameters fit the 4 KiB a launch takes.
void check_block_size(std::size_t bytes, const std::string& kernel);

}  // namespace jet::detail
