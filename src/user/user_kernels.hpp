// What the user-kernel runtime files share: their compile options, their ids, and the path
// from a generated source to a loaded kernel (Jet's memory cache, disk cache, NVRTC).
#pragma once

#include <cstring>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/ir/passes.hpp"
#include "codegen/user/user_kernels.hpp"
#include "jet/kernel.hpp"
#include "src/nvrtc/compile.hpp"
#include "src/device/loaded_kernel.hpp"

namespace jet::detail {

// User kernels compile with their own options after the toolkit's include folders, so that
// `#include <curand_kernel.h>` works (the folders cost nothing unless a header is included).
compile_extras user_extras(const std::vector<std::string>& options, std::vector<std::string> name_expressions = {});

// 64 hex digits naming a user kernel object by everything its sources are made from.
std::string user_kernel_id(std::initializer_list<std::string_view> fields);

// The arguments' dtypes and kinds, for codegen::bind_user_params.
std::vector<codegen::user_arg_info> describe_args(const std::vector<kernel_arg>& args);

// Writes `value` into a parameter block at `at`.
template <class T>
void put_param(std::byte* at, T value) {
  std::memcpy(at, &value, sizeof value);
}

// One array per parameter (none for scalars): inputs cast where `b` says, raw inputs made
// C-contiguous; outputs as given, or left empty for the caller to allocate.
std::vector<array> bound_arrays(const std::vector<codegen::user_param>& params, const codegen::user_binding& b,
                                const std::vector<kernel_arg>& args);
// Writes scalars, device pointers and raw element counts into a parameter block.
void pack_slots(const codegen::user_slots& slots, const std::vector<codegen::user_access>& access,
                const codegen::user_binding& b, const std::vector<kernel_arg>& args, const std::vector<array>& arrays,
                std::byte* block);
// Throws jet::value_error unless `name` is a C identifier.
void check_kernel_name(const std::string& name);
// Checks a kernel's parameter block fits the 4 KiB every driver accepts.
void check_block_size(std::size_t bytes, const std::string& kernel);
// Appends the dtype and access of every parameter to a memory-cache signature.
void append_bound_signature(const codegen::user_binding& b, const std::vector<codegen::user_access>& access,
                            std::string& signature);

}  // namespace jet::detail
