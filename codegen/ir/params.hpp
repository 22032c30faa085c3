// A kernel's parameter block as one table: each field's place, size and role, with the bytes a
// launch writes there. Lowering makes the table; the renderers declare the block from it and
// the launcher packs it from it, so the two cannot disagree.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <vector>

#include "codegen/core/limits.hpp"

namespace jet::ir {
struct graph;
struct reduction_geometry;
}  // namespace jet::ir

namespace jet::codegen {

// What a field holds; its `index` says whose (an operand or a user kernel's parameter).
enum class param_role : std::uint8_t {
  output,          // an output's device address
  input,           // an input's device address
  scalar,          // a scalar, as the type the kernel reads it as
  raw_size,        // a raw array's element count (user kernels)
  count,           // the element count
  extents,         // extents of the iteration space (user reductions: 0 kept axes, 1 reduced)
  strides,         // an operand's strides (Jet's kernels: index -1 is the output)
  reduce_outputs,  // a reduction's outputs, elements per output, chunk and chunks
  reduce_length,
  reduce_chunk,
  reduce_splits,
  reduce_work,      // the chunks' partial states
  reduce_counters,  // the chunks done, per grid column
  post_arg,         // a reduction's post-step argument (var's ddof, a norm's exponent)
  device_errors,    // where the kernel reports an error in the data (device_error_channel)
  block,            // a whole parameter block made by its owner (the random kernels)
};

// The addresses of the runtime's device error channel, which kernels that can find an error in
// their data take (ir::graph::reports_errors): the first report claims `claim` (device memory)
// and writes the error to `record` (mapped host memory). The runtime sets them before it packs
// such a kernel's block (src/device/device_errors.cpp), per thread; null where nothing launches.
struct device_error_channel {
  void* claim = nullptr;
  void* record = nullptr;
};
extern thread_local device_error_channel device_errors;

struct param_field {
  param_role role = param_role::block;
  int index = 0;
  std::uint32_t offset = 0, size = 0;
  // Where the launch copies the field's bytes from, read when it packs (so that values planned
  // after the table is made, such as a reduction's chunks, are current); null for a field whose
  // bytes the table holds.
  const void* from = nullptr;
};

class param_layout {
 public:
  void clear();
  // Appends a field of `size` bytes, aligned to `align` (a power of two), packed from `from`.
  void add(param_role role, int index, std::size_t size, std::size_t align, const void* from) {
    append(role, index, size, align).from = from;
  }
  // Appends a field of `size` bytes (at most 16), aligned to `align`, whose bytes the table
  // holds: the caller writes them at the address returned, zeroed (valid until the next add).
  std::byte* add_value(param_role role, int index, std::size_t size, std::size_t align) {
    const std::size_t offset = append(role, index, size, align).offset;
    if (bytes_ > max_param_bytes || size > 16) return spill_value(size);
    std::memset(values_ + offset, 0, 16);  // a whole 16 bytes: a store or two, not a call
    return values_ + offset;
  }
  // The same, holding a copy of `size` bytes of `value`.
  void add_value(param_role role, int index, std::size_t size, std::size_t align,
                 const void* value) {
    std::memcpy(add_value(role, index, size, align), value, size);
  }

  const std::vector<param_field>& fields() const { return fields_; }
  std::size_t bytes() const { return bytes_; }
  // The field of `role` for `index`; throws jet::internal_error when there is none.
  const param_field& at(param_role role, int index = 0) const;
  // Writes every field into `block`, which holds bytes() (the gaps between fields are zeroed).
  void pack(std::byte* block) const;

 private:
  param_field& append(param_role role, int index, std::size_t size, std::size_t align) {
    const std::size_t offset = (bytes_ + align - 1) & ~(align - 1);
    if (offset > bytes_ && offset <= max_param_bytes)
      std::memset(values_ + bytes_, 0, offset - bytes_);
    bytes_ = offset + size;
    return fields_.emplace_back(param_field{role, index, static_cast<std::uint32_t>(offset),
                                            static_cast<std::uint32_t>(size), nullptr});
  }
  // Where a value past the block's limit goes (a table no launch takes); throws for one of
  // more than 16 bytes.
  std::byte* spill_value(std::size_t size);
  std::vector<param_field> fields_;
  std::size_t bytes_ = 0;
  // The block as the table holds it: the values of add_value's fields, zeros in the padding
  // between fields, and whatever was there under the fields packed from elsewhere (packing
  // overwrites them); 16 bytes of room past the limit for add_value's whole-slot zeroing.
  alignas(16) std::byte values_[max_param_bytes + 16];
  alignas(16) std::byte spill_[16];
};

// The member of `r` a reduction field of `role` (reduce_outputs ... reduce_counters) holds.
const void* reduction_field(const ir::reduction_geometry& r, param_role role);
// Those roles, as a launch planned later re-packs them.
inline constexpr param_role reduction_roles[] = {
    param_role::reduce_outputs, param_role::reduce_length, param_role::reduce_chunk,
    param_role::reduce_splits,  param_role::reduce_work,   param_role::reduce_counters};

// Appends a reduction's fields of `roles` (reduce_outputs ... reduce_counters), in that order,
// each packed from its member of `r`.
void add_reduction_fields(const ir::reduction_geometry& r, std::initializer_list<param_role> roles,
                          param_layout& out);

// The parameter block of Jet's own kernels over `g`, every field 8-byte aligned: the output's
// and inputs' addresses, the scalars, the element count, the extents (where the kernel takes
// them), each non-contiguous operand's strides; reductions add their sizes, scratch and
// post-step argument.
void layout_params(const ir::graph& g, param_layout& out);

}  // namespace jet::codegen
