// The renderer's table: one row per op, in the order of JET_ELEMENTWISE_OPS.
#include "codegen/render/op_spelling.hpp"

#include <iterator>

namespace jet::codegen {
namespace {

constexpr const char* none = nullptr;

constexpr op_spelling table[] = {
    // input, scalar, cast, index, gather, checked_index, the sort keys, the searches and random
    // draws are rendered by spelling.cpp itself; reduce never reaches it.
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    {none, none, none, none},
    // negative positive invert absolute sign
    {none, "jet_negate($0)", "(-$0)", "(-$0)"},
    {"$0", "$0", "$0", "$0"},
    {"(!$0)", "(~$0)", none, none},
    {"$0", "jet_abs($0)", "fabs$f($0)", "jet_cabs($0)"},
    {none, "jet_sign($0)", "jet_sign($0)", "jet_csign($0)"},
    // sqrt cbrt square reciprocal
    {none, none, "sqrt$f($0)", "jet_csqrt($0)"},
    {none, none, "cbrt$f($0)", none},
    {none, "jet_imul($0, $0)", "($0 * $0)", "jet_cmul($0, $0)"},
    {none, "jet_ireciprocal($0)", "(($T)1 / $0)", "jet_creciprocal($0)"},
    // exp exp2 expm1 log log2 log10 log1p
    {none, none, "exp$f($0)", "jet_cexp($0)"},
    {none, none, "exp2$f($0)", "jet_cexp($0 * ($R)0.69314718055994530942)"},
    {none, none, "expm1$f($0)", "jet_cexpm1($0)"},
    {none, none, "log$f($0)", "jet_clog($0)"},
    {none, none, "log2$f($0)", "(jet_clog($0) * ($R)1.44269504088896340736)"},
    {none, none, "log10$f($0)", "(jet_clog($0) * ($R)0.43429448190325182765)"},
    {none, none, "log1p$f($0)", "jet_clog1p($0)"},
    // sin cos tan arcsin arccos arctan
    {none, none, "sin$f($0)", "jet_csin($0)"},
    {none, none, "cos$f($0)", "jet_ccos($0)"},
    {none, none, "tan$f($0)", "jet_ctan($0)"},
    {none, none, "asin$f($0)", "jet_casin($0)"},
    {none, none, "acos$f($0)", "jet_cacos($0)"},
    {none, none, "atan$f($0)", "jet_catan($0)"},
    // sinh cosh tanh arcsinh arccosh arctanh
    {none, none, "sinh$f($0)", "jet_csinh($0)"},
    {none, none, "cosh$f($0)", "jet_ccosh($0)"},
    {none, none, "tanh$f($0)", "jet_ctanh($0)"},
    {none, none, "asinh$f($0)", "jet_casinh($0)"},
    {none, none, "acosh$f($0)", "jet_cacosh($0)"},
    {none, none, "atanh$f($0)", "jet_catanh($0)"},
    // floor ceil trunc rint degrees radians
    {"$0", "$0", "floor$f($0)", none},
    {"$0", "$0", "ceil$f($0)", none},
    {"$0", "$0", "trunc$f($0)", none},
    {none, none, "rint$f($0)", "$T{rint$f($0.re), rint$f($0.im)}"},
    // NumPy's constants: 180 / pi and pi / 180 in the loop's own precision.
    {none, none, "($0 * (($T)180 / ($T)3.14159265358979323846))", none},
    {none, none, "($0 * (($T)3.14159265358979323846 / ($T)180))", none},
    // isnan isinf isfinite logical_not
    {"false", "false", "($0 != $0)", "($0.re != $0.re || $0.im != $0.im)"},
    {"false", "false", "jet_isinf($0)", "(jet_isinf($0.re) || jet_isinf($0.im))"},
    {"true", "true", "($0 - $0 == 0)", "($0.re - $0.re == 0 && $0.im - $0.im == 0)"},
    {"(!$0)", "($0 == 0)", "($0 == 0)", "($0.re == 0 && $0.im == 0)"},
    // real imag conj angle
    {"$0", "$0", "$0", "$0.re"},
    {"false", "($T)0", "($T)0", "$0.im"},
    {"$0", "$0", "$0", "$T{$0.re, -$0.im}"},
    {none, none, "atan2$f(($T)0, $0)", "atan2$f($0.im, $0.re)"},
    // add subtract multiply true_divide floor_divide remainder fmod power
    {"($0 || $1)", "jet_iadd($0, $1)", "($0 + $1)", "($0 + $1)"},
    {none, "jet_isub($0, $1)", "($0 - $1)", "($0 - $1)"},
    {"($0 && $1)", "jet_imul($0, $1)", "($0 * $1)", "jet_cmul($0, $1)"},
    {none, none, "($0 / $1)", "($0 / $1)"},
    {none, "jet_floordiv($0, $1)", "jet_floordiv($0, $1)", none},
    {none, "jet_remainder($0, $1)", "jet_remainder($0, $1)", none},
    {none, "jet_ifmod($0, $1)", "fmod$f($0, $1)", none},
    {none, "jet_ipow($0, $1, p.errors)", "pow$f($0, $1)", "jet_cpow($0, $1)"},
    // bitwise_and bitwise_or bitwise_xor left_shift right_shift
    {"($0 && $1)", "($0 & $1)", none, none},
    {"($0 || $1)", "($0 | $1)", none, none},
    {"($0 != $1)", "($0 ^ $1)", none, none},
    {none, "jet_lshift($0, $1)", none, none},
    {none, "jet_rshift($0, $1)", none, none},
    // equal not_equal less less_equal greater greater_equal
    {"($0 == $1)", "($0 == $1)", "($0 == $1)", "($0.re == $1.re && $0.im == $1.im)"},
    {"($0 != $1)", "($0 != $1)", "($0 != $1)", "($0.re != $1.re || $0.im != $1.im)"},
    {"($0 < $1)", "($0 < $1)", "($0 < $1)", "jet_clt($0, $1)"},
    {"($0 <= $1)", "($0 <= $1)", "($0 <= $1)", "jet_cle($0, $1)"},
    {"($0 > $1)", "($0 > $1)", "($0 > $1)", "jet_clt($1, $0)"},
    {"($0 >= $1)", "($0 >= $1)", "($0 >= $1)", "jet_cle($1, $0)"},
    // logical_and logical_or logical_xor
    {"($0 && $1)", "($0 != 0 && $1 != 0)", "($0 != 0 && $1 != 0)",
     "(jet_ctruth($0) && jet_ctruth($1))"},
    {"($0 || $1)", "($0 != 0 || $1 != 0)", "($0 != 0 || $1 != 0)",
     "(jet_ctruth($0) || jet_ctruth($1))"},
    {"($0 != $1)", "(($0 != 0) != ($1 != 0))", "(($0 != 0) != ($1 != 0))",
     "(jet_ctruth($0) != jet_ctruth($1))"},
    // maximum minimum fmax fmin
    {"($0 || $1)", "($0 > $1 ? $0 : $1)", "jet_maximum($0, $1)", "jet_cmaximum($0, $1)"},
    {"($0 && $1)", "($0 < $1 ? $0 : $1)", "jet_minimum($0, $1)", "jet_cminimum($0, $1)"},
    {"($0 || $1)", "($0 > $1 ? $0 : $1)", "fmax$f($0, $1)", "jet_cfmax($0, $1)"},
    {"($0 && $1)", "($0 < $1 ? $0 : $1)", "fmin$f($0, $1)", "jet_cfmin($0, $1)"},
    // arctan2 hypot copysign
    {none, none, "atan2$f($0, $1)", none},
    {none, none, "hypot$f($0, $1)", none},
    {none, none, "copysign$f($0, $1)", none},
    // where
    {"($0 ? $1 : $2)", "($0 ? $1 : $2)", "($0 ? $1 : $2)", "($0 ? $1 : $2)"},
};

static_assert(std::size(table) == static_cast<std::size_t>(detail::op_code::where) + 1,
              "op_spelling: one row per op, in JET_ELEMENTWISE_OPS order");

}  // namespace

const op_spelling& spelling(detail::op_code op) { return table[static_cast<int>(op)]; }

}  // namespace jet::codegen
