// The iteration space of user kernels: their arrays' strides collapsed as Jet's own kernels
// collapse theirs.
#include "codegen/ir/passes.hpp"
#include "codegen/user/user_kernels.hpp"
#include "jet/error.hpp"

namespace jet::codegen {
namespace {

// An operand per array in `strides`, the others marked raw or scalar, then the axes collapsed
// (never across `kept`).
user_axes collapsed(const std::vector<user_param>& params, std::span<const shape* const> strides,
                    const shape& extents, int kept) {
  user_axes a;
  a.space.extents = extents;
  a.operand.assign(params.size(), -1);
  a.access.assign(params.size(), user_access::scalar);
  for (std::size_t k = 0; k < params.size(); ++k) {
    if (params[k].raw) {
      a.access[k] = user_access::raw;
    } else if (strides[k]) {
      a.operand[k] = static_cast<int>(a.space.inputs.size());
      a.access[k] = user_access::strided;
      a.space.inputs.emplace_back().strides = *strides[k];
    }
  }
  if (a.space.inputs.empty()) throw internal_error("a user kernel's axes without an array");
  a.space.output = a.space.inputs.front();
  a.kept = collapse_axes(a.space, kept);
  return a;
}

}  // namespace

user_axes elementwise_axes(const std::vector<user_param>& params,
                           std::span<const shape* const> strides, const shape& extents) {
  user_axes a = collapsed(params, strides, extents, 0);
  const shape contiguous = contiguous_strides(a.space.extents);
  for (std::size_t k = 0; k < params.size(); ++k)
    if (a.operand[k] >= 0 && a.space.inputs[a.operand[k]].strides == contiguous)
      a.access[k] = user_access::contiguous;
  return a;
}

user_axes reduction_axes(const std::vector<user_param>& params,
                         std::span<const shape* const> strides, const shape& extents, int kept) {
  return collapsed(params, strides, extents, kept);
}

}  // namespace jet::codegen
