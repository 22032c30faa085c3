// The list of elementwise operations: one row per ufunc.
// X(id, numpy_name, arity, loops, result)
//   loops:  the dtype kinds the ufunc has loops for (B bool, I integers, F floats, C complex);
//           inputs are cast to the first loop dtype they safely cast to, as NumPy does.
//   result: same (the loop dtype), boolean, or real (the real dtype of a complex loop).
// How each op is spelled in CUDA C lives in codegen/render/op_spelling.cpp, in the same order.
#pragma once

#define JET_ELEMENTWISE_OPS(X)                                 \
  X(negative, "negative", 1, I | F | C, same)                  \
  X(positive, "positive", 1, I | F | C, same)                  \
  X(invert, "invert", 1, B | I, same)                          \
  X(absolute, "absolute", 1, B | I | F | C, real)              \
  X(sign, "sign", 1, I | F | C, same)                          \
  X(sqrt, "sqrt", 1, F | C, same)                              \
  X(cbrt, "cbrt", 1, F, same)                                  \
  X(square, "square", 1, I | F | C, same)                      \
  X(reciprocal, "reciprocal", 1, I | F | C, same)              \
  X(exp, "exp", 1, F | C, same)                                \
  X(exp2, "exp2", 1, F | C, same)                              \
  X(expm1, "expm1", 1, F | C, same)                            \
  X(log, "log", 1, F | C, same)                                \
  X(log2, "log2", 1, F | C, same)                              \
  X(log10, "log10", 1, F | C, same)                            \
  X(log1p, "log1p", 1, F | C, same)                            \
  X(sin, "sin", 1, F | C, same)                                \
  X(cos, "cos", 1, F | C, same)                                \
  X(tan, "tan", 1, F | C, same)                                \
  X(arcsin, "arcsin", 1, F | C, same)                          \
  X(arccos, "arccos", 1, F | C, same)                          \
  X(arctan, "arctan", 1, F | C, same)                          \
  X(sinh, "sinh", 1, F | C, same)                              \
  X(cosh, "cosh", 1, F | C, same)                              \
  X(tanh, "tanh", 1, F | C, same)                              \
  X(arcsinh, "arcsinh", 1, F | C, same)                        \
  X(arccosh, "arccosh", 1, F | C, same)                        \
  X(arctanh, "arctanh", 1, F | C, same)                        \
  X(floor, "floor", 1, B | I | F, same)                        \
  X(ceil, "ceil", 1, B | I | F, same)                          \
  X(trunc, "trunc", 1, B | I | F, same)                        \
  X(rint, "rint", 1, F | C, same)                              \
  X(degrees, "degrees", 1, F, same)                            \
  X(radians, "radians", 1, F, same)                            \
  X(isnan, "isnan", 1, B | I | F | C, boolean)                 \
  X(isinf, "isinf", 1, B | I | F | C, boolean)                 \
  X(isfinite, "isfinite", 1, B | I | F | C, boolean)           \
  X(logical_not, "logical_not", 1, B | I | F | C, boolean)     \
  X(real, "real", 1, B | I | F | C, real)                      \
  X(imag, "imag", 1, B | I | F | C, real)                      \
  X(conj, "conjugate", 1, I | F | C, same)                     \
  X(angle, "angle", 1, F | C, real)                            \
  X(add, "add", 2, B | I | F | C, same)                        \
  X(subtract, "subtract", 2, I | F | C, same)                  \
  X(multiply, "multiply", 2, B | I | F | C, same)              \
  X(true_divide, "divide", 2, F | C, same)                     \
  X(floor_divide, "floor_divide", 2, I | F, same)              \
  X(remainder, "remainder", 2, I | F, same)                    \
  X(fmod, "fmod", 2, I | F, same)                              \
  X(power, "power", 2, I | F | C, same)                        \
  X(bitwise_and, "bitwise_and", 2, B | I, same)                \
  X(bitwise_or, "bitwise_or", 2, B | I, same)                  \
  X(bitwise_xor, "bitwise_xor", 2, B | I, same)                \
  X(left_shift, "left_shift", 2, I, same)                      \
  X(right_shift, "right_shift", 2, I, same)                    \
  X(equal, "equal", 2, B | I | F | C, boolean)                 \
  X(not_equal, "not_equal", 2, B | I | F | C, boolean)         \
  X(less, "less", 2, B | I | F | C, boolean)                   \
  X(less_equal, "less_equal", 2, B | I | F | C, boolean)       \
  X(greater, "greater", 2, B | I | F | C, boolean)             \
  X(greater_equal, "greater_equal", 2, B | I | F | C, boolean) \
  X(logical_and, "logical_and", 2, B | I | F | C, boolean)     \
  X(logical_or, "logical_or", 2, B | I | F | C, boolean)       \
  X(logical_xor, "logical_xor", 2, B | I | F | C, boolean)     \
  X(maximum, "maximum", 2, B | I | F | C, same)                \
  X(minimum, "minimum", 2, B | I | F | C, same)                \
  X(fmax, "fmax", 2, B | I | F | C, same)                      \
  X(fmin, "fmin", 2, B | I | F | C, same)                      \
  X(arctan2, "arctan2", 2, F, same)                            \
  X(hypot, "hypot", 2, F, same)                                \
  X(copysign, "copysign", 2, F, same)                          \
  X(where, "where", 3, B | I | F | C, same)
