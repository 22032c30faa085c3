#!/usr/bin/env python3
"""Writes promotion.csv, NumPy 2's type promotion table that tests/host/test_dtype.cpp checks.

Rows:
  promote,A,B,RESULT        numpy.promote_types(A, B)
  weak,A,KIND,RESULT        an A array meeting a Python scalar of KIND (NEP 50)
  ufunc,NAME,A,B,RESULT     the output dtype of a binary ufunc, or "error" for a TypeError
  ufunc,NAME,A,,RESULT      the same for a unary ufunc

Run from anywhere: python3 tests/host/data/generate_promotion.py
"""
import csv
import itertools
import pathlib
import warnings

import numpy as np

DTYPES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
]
WEAK_SCALARS = {"bool": True, "int": 1, "float": 1.0, "complex": 1j}
BINARY_UFUNCS = [
    "add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod", "power",
    "bitwise_and", "left_shift", "equal", "less", "logical_and", "maximum", "fmax", "arctan2",
    "hypot", "copysign",
]
UNARY_UFUNCS = [
    "negative", "positive", "invert", "absolute", "sign", "sqrt", "cbrt", "square",
    "reciprocal", "exp", "log", "sin", "floor", "rint", "isnan", "logical_not", "conjugate",
    "degrees",
]


def ufunc_result(name, *dtypes):
    """The output dtype name of numpy.<name> on small arrays of ones, or "error"."""
    operands = [np.ones(2, dtype=t) for t in dtypes]
    try:
        return getattr(np, name)(*operands).dtype.name
    except TypeError:  # UFuncTypeError derives from it
        return "error"


def rows():
    for a, b in itertools.product(DTYPES, repeat=2):
        yield ["promote", a, b, np.promote_types(a, b).name]
    for a in DTYPES:
        for kind, scalar in WEAK_SCALARS.items():
            yield ["weak", a, kind, np.result_type(np.dtype(a), scalar).name]
    for name in BINARY_UFUNCS:
        for a, b in itertools.product(DTYPES, repeat=2):
            yield ["ufunc", name, a, b, ufunc_result(name, a, b)]
    for name in UNARY_UFUNCS:
        for a in DTYPES:
            yield ["ufunc", name, a, "", ufunc_result(name, a)]


def main():
    if int(np.__version__.split(".")[0]) < 2:
        raise SystemExit("needs NumPy 2 (Python scalars are weak only under NEP 50)")
    path = pathlib.Path(__file__).with_name("promotion.csv")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        table = list(rows())
    with path.open("w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        f.write(f"# kind,operands...,result; written by {pathlib.Path(__file__).name} "
                f"with NumPy {np.__version__}\n")
        writer.writerows(table)


if __name__ == "__main__":
    main()
