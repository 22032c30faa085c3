// Reduction nodes: checked when made, in NumPy's words.
#include <string>

#include "codegen/expr/node.hpp"
#include "codegen/expr/node_pool.hpp"
#include "jet/error.hpp"

namespace jet::detail {
namespace {

bool needs_elements(reduce_op op) {
  switch (op) {
    case reduce_op::min:
    case reduce_op::max:
    case reduce_op::nanmin:
    case reduce_op::nanmax:
    case reduce_op::ptp:
    case reduce_op::argmin:
    case reduce_op::argmax: return true;
    default: return false;
  }
}

// NumPy's ValueError for an extreme of nothing.
std::string empty_message(reduce_op op) {
  switch (op) {
    case reduce_op::argmin: return "attempt to get argmin of an empty sequence";
    case reduce_op::argmax: return "attempt to get argmax of an empty sequence";
    case reduce_op::min:
      return "zero-size array to reduction operation minimum which has no identity";
    case reduce_op::nanmin:
      return "zero-size array to reduction operation fmin which has no identity";
    case reduce_op::nanmax:
      return "zero-size array to reduction operation fmax which has no identity";
    default: return "zero-size array to reduction operation maximum which has no identity";
  }
}

}  // namespace

const char* reduce_name(reduce_op op) {
  constexpr const char* names[] = {"sum",    "prod", "nansum", "mean",         "nanmean", "var",
                                   "min",    "max",  "nanmin", "nanmax",       "ptp",     "argmin",
                                   "argmax", "all",  "any",    "count_nonzero"};
  return names[static_cast<int>(op)];
}

node_ptr make_reduce(node_ptr arg, const reduce_spec& spec, dtype result) {
  if (!arg) throw internal_error("reduction of an undefined operand");
  const shape& in = arg->extents();
  if ((spec.axes >> in.size()) != 0)
    throw internal_error("reduction axes beyond the operand's " + std::to_string(in.size()));
  auto out = new_node<reduce_node>();
  out->op = op_code::reduce;
  out->type = result;
  out->operand_type = arg->type;
  out->arity = 1;
  out->spec = spec;
  out->contains_reduction = true;
  out->set_extents(out->own, -1);
  if (spec.scan) {
    if (spec.op != reduce_op::sum && spec.op != reduce_op::prod)
      throw internal_error("a scan of a reduction other than sum or prod");
    const bool flattened = spec.axes == (1u << in.size()) - 1 && in.size() != 1;
    if (flattened)
      out->own.push_back(in.product());
    else
      out->own = in;
    out->args[0] = std::move(arg);
    return out;
  }
  std::int64_t outputs = 1, length = 1;
  for (int d = 0; d < in.size(); ++d) {
    if ((spec.axes >> d) & 1u) {
      length *= in[d];
      if (spec.keepdims) out->own.push_back(1);
    } else {
      outputs *= in[d];
      out->own.push_back(in[d]);
    }
  }
  if (needs_elements(spec.op) && length == 0 && outputs > 0)
    throw value_error(empty_message(spec.op));
  out->args[0] = std::move(arg);
  return out;
}

}  // namespace jet::detail
