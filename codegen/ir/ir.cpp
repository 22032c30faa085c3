// The IR's own facts: access names, a graph's work and index width.
#include "codegen/ir/ir.hpp"

#include <algorithm>

#include "codegen/core/limits.hpp"

namespace jet::ir {

const char* access_name(access a) {
  switch (a) {
    case access::contiguous: return "contiguous";
    case access::scalar: return "broadcast scalar";
    case access::strided: return "strided";
    case access::strided_unit_inner: return "strided, unit inner stride";
    case access::strided_zero_inner: return "strided, broadcast inner axis";
    case access::transposed: return "transposed (shared-memory tiles)";
  }
  return "?";
}

std::int64_t graph::work_items() const {
  using codegen::tile_size;
  if (tiled)
    return ((extents[0] + tile_size - 1) / tile_size) * ((extents[1] + tile_size - 1) / tile_size);
  return (size() + vector_width - 1) / vector_width;
}

bool graph::needs_index64() const {
  std::int64_t largest = size();
  auto reach = [&](const operand& op) { largest = std::max(largest, op.span(extents) + 1); };
  reach(output);
  for (const operand& op : more_outputs) reach(op);
  for (const operand& op : inputs) reach(op);
  return largest >= codegen::index32_limit;
}

bool graph::reports_errors() const {
  for (const instr& in : code)
    if ((in.op == detail::op_code::power && is_integer(code[in.args[0]].type)) ||
        in.op == detail::op_code::checked_index)
      return true;
  return false;
}

bool graph::gathers_in_order() const {
  if (output.gathered) return false;
  return std::all_of(code.begin(), code.end(), [&](const instr& in) {
    if (in.op == detail::op_code::search_left || in.op == detail::op_code::search_right)
      return false;  // a binary search each: one a thread keeps more searches in flight
    return in.op != detail::op_code::gather ||
           (in.args[1] >= 0 && code[in.args[0]].op == detail::op_code::scalar);
  });
}

void graph::clear() {
  code.clear();
  inputs.clear();
  params.clear();
  output = {};
  more_outputs.clear();
  more_results.clear();
  store_offset = -1;
  combine = detail::scatter_op::store;
  shared_bins = 0;
  extents = {};
  index64 = false;
  vector_width = 1;
  tiled = false;
  reduce = {};
}

}  // namespace jet::ir
