#!/usr/bin/env python3
"""Writes unary_integers.tsv: every unary ufunc of NumPy on bool and on every integer dtype
(the inputs that go through NumPy's float16, float32 or float64 loops), which
tests/gpu/test_numpy_fidelity.cpp checks Jet against.

Rows (tab-separated): ufunc, input dtype, input values (comma-separated), then NumPy's result
dtype and its values (repr of each, comma-separated), or "error" and the exception's class.

Run from anywhere: python3 tests/host/data/generate_unary_integers.py
"""
import pathlib
import warnings

import numpy as np

UNARY = ["negative", "positive", "invert", "absolute", "sign", "sqrt", "cbrt", "square",
         "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
         "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
         "arctanh", "floor", "ceil", "trunc", "rint", "degrees", "radians", "isnan", "isinf",
         "isfinite", "logical_not", "real", "imag", "conjugate", "angle"]
INPUTS = {
    "bool": [False, True],
    "int8": [-128, -12, -7, -2, -1, 0, 1, 2, 3, 10, 11, 12, 100, 127],
    "uint8": [0, 1, 2, 3, 10, 11, 12, 100, 200, 255],
    "int16": [-32768, -1000, -3, -1, 0, 1, 2, 7, 88, 89, 710, 32767],
    "uint16": [0, 1, 2, 5, 88, 89, 1000, 65535],
    "int32": [-2147483648, -100000, -5, -1, 0, 1, 3, 709, 710, 2147483647],
    "uint32": [0, 1, 4, 709, 710, 123456, 4294967295],
    "int64": [-9223372036854775808, -3, -1, 0, 1, 5, 710, 9007199254740993,
              9223372036854775807],
    "uint64": [0, 1, 6, 710, 18446744073709551615],
}


def cell(v):
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (np.integer, int)):
        return str(int(v))
    return repr(float(v))


def main():
    if int(np.__version__.split(".")[0]) < 2:
        raise SystemExit("NumPy 2 is needed: its promotion rules are the reference")
    rows = []
    for name in UNARY:
        for dtype, values in INPUTS.items():
            x = np.array(values, dtype=dtype)
            try:
                with warnings.catch_warnings(), np.errstate(all="ignore"):
                    warnings.simplefilter("ignore")
                    y = getattr(np, name)(x)
                out = [y.dtype.name, ",".join(cell(v) for v in y.tolist())]
            except TypeError as e:
                out = ["error", type(e).__name__]
            rows.append([name, dtype, ",".join(cell(v) for v in x.tolist())] + out)
    path = pathlib.Path(__file__).with_name("unary_integers.tsv")
    path.write_text("".join("\t".join(r) + "\n" for r in rows))
    print(f"{path}: {len(rows)} rows from NumPy {np.__version__}")


if __name__ == "__main__":
    main()
