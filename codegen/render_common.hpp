// Spellings shared by the elementwise and the reduction renderers (render.cpp holds them).
#pragma once

#include <string>

#include "codegen/passes.hpp"

namespace jet::codegen {

// The type the kernel computes in (half types widen to float), and the type in memory.
const char* value_type(dtype t);
const char* storage_type(dtype t);
// A dtype's short spelling in kernel names: "f32", "c64", ...
const char* short_name(dtype t);
// Converts a raw element of `t` to its value type, and a value back for storing.
std::string load(dtype t, const std::string& raw);
std::string store(dtype t, const std::string& value);
// The expression converting `x` from one value type to another, as NumPy casts.
std::string render_cast(dtype from, dtype to, const std::string& x);
bool uses_complex(const ir::graph& g);
// "jet_<ops>_<out dtype>_<n>in": the ops are the first few of the graph's code.
std::string kernel_name(const ir::graph& g);
// `struct jet_params`, the one parameter block every kernel takes (layout: params.cpp).
void render_params(const ir::graph& g, std::string& s);
// Preambles, index types, jet_params and jet_element: what every kernel starts with.
void render_prologue(const ir::graph& g, std::string& s);
// `jet_element(p, i, x0, ...)`: the graph's code for one element, given its inputs' values.
void render_element(const ir::graph& g, std::string& s);

// The reduction kernels for a graph with reduce.active (render_reduce.cpp).
kernel_source render_reduction(const ir::graph& g);

}  // namespace jet::codegen
