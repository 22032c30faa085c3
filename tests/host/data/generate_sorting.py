#!/usr/bin/env python3
"""Writes sorting.tsv: NumPy's answers for sorting and searching, which
tests/host/test_sorting_table.cpp checks through Jet on placeholders (the rows that need no
device) and tests/gpu/test_sorting_table.cpp on arrays of zeros (every row).

Rows, tab-separated, the last field the RESULT; operands are arrays of zeros:

    sort, argsort     A  AXIS  RESULT
    lexsort           KEYS  AXIS  RESULT
    sort_complex      A  RESULT
    searchsorted      A  V  SIDE  RESULT
    digitize          X  BINS  RIGHT  RESULT      RIGHT 0 or 1
    cumsum, cumprod, nancumsum, nancumprod
                      A  AXIS  DTYPE  RESULT      DTYPE a dtype's name or none
    partition, argpartition
                      A  KTH  AXIS  RESULT

Operands, AXIS and RESULT are spelled as in indexing.tsv (generate_indexing.py); KEYS are
';'-separated operands.

Run from anywhere: python3 tests/host/data/generate_sorting.py
"""
import pathlib
import sys

import numpy as np

sys.dont_write_bytecode = True  # importing generate_editing leaves no __pycache__ here
from generate_editing import operand, operands, outcome, spell  # noqa: E402

SHAPES = ["()", "(0,)", "(5,)", "(3,4)", "(2,0,3)", "(2,3,4)"]
DTYPES = ["bool", "int8", "uint16", "int32", "int64", "float16", "float32", "float64",
          "complex64", "complex128"]
AXES = ["-4", "-3", "-2", "-1", "0", "1", "2", "3", "none"]


def axis_of(text):
    return None if text == "none" else int(text)


SCANS = {"cumsum": np.cumsum, "cumprod": np.cumprod, "nancumsum": np.nancumsum,
         "nancumprod": np.nancumprod}


def scan_rows():
    for shape in SHAPES + ["(1,)", "(4,1)"]:
        for dtype in DTYPES + ["uint8", "uint64"]:
            a = f"{shape}:{dtype}"
            for axis in ["-3", "-1", "0", "1", "2", "none"]:
                for name, f in SCANS.items():
                    yield [name, a, axis, "none",
                           outcome(lambda: f(operand(a), axis=axis_of(axis)))]
    for a in ["(3,4):int8", "(5,):float16", "(2,3):bool", "(2,3):complex64"]:
        for dtype in ["int8", "uint32", "float32", "float64", "complex128", "bool"]:
            for name, f in SCANS.items():
                yield [name, a, "-1", dtype,
                       outcome(lambda: f(operand(a), axis=-1, dtype=dtype))]


def partition_rows():
    for shape in ["()", "(0,)", "(5,)", "(3,4)", "(2,0,3)"]:
        for dtype in ["int32", "float32", "complex128", "bool"]:
            a = f"{shape}:{dtype}"
            for kth in ["0", "2", "-1", "5", "-6"]:
                for axis in ["-1", "0", "3", "none"]:
                    for name, f in (("partition", np.partition), ("argpartition", np.argpartition)):
                        yield [name, a, kth, axis,
                               outcome(lambda: f(operand(a), int(kth), axis=axis_of(axis)))]


def rows():
    yield from scan_rows()
    yield from partition_rows()
    for shape in SHAPES:
        for dtype in DTYPES:
            a = f"{shape}:{dtype}"
            for axis in AXES:
                for name, f in (("sort", np.sort), ("argsort", np.argsort)):
                    yield [name, a, axis,
                           outcome(lambda: f(operand(a), axis=axis_of(axis)))]
            yield ["sort_complex", a, outcome(lambda: np.sort_complex(operand(a)))]
    for keys in ["(5,):int32", "(5,):int32;(5,):float64", "(3,4):int8;(3,4):float32",
                 "(3,4):int8;(4,):float32", "(2,3,4):int64;(2,3,4):bool;(2,3,4):uint16",
                 "(0,):int32;(0,):int32"]:
        for axis in ["-1", "0", "1", "2"]:
            yield ["lexsort", keys, axis,
                   outcome(lambda: np.lexsort(operands(keys), axis=int(axis)))]
    for a in ["(6,):int8", "(6,):float32", "(0,):float64", "(6,):complex64", "(6,):bool",
              "(2,3):float32", "():int64"]:
        for v in ["(4,):int8", "(2,3):float64", "():float32", "2", "2.5", "(0,):int32",
                  "(3,):complex128", "(3,):bool"]:
            for side in ["left", "right", "middle"]:
                yield ["searchsorted", a, v, side,
                       outcome(lambda: np.searchsorted(operand(a), operand(v), side=side))]
    for x in ["(4,):float32", "(2,3):int16", "():float64", "2.5", "(3,):complex64"]:
        for bins in ["(1,):float64", "(0,):float32", "(3,):int32", "(2,2):float64",
                     "():float64"]:
            for right in ["0", "1"]:
                yield ["digitize", x, bins, right,
                       outcome(lambda: np.digitize(operand(x), operand(bins),
                                                   right=right == "1"))]


def main():
    path = pathlib.Path(__file__).with_name("sorting.tsv")
    path.write_text("".join("\t".join(r) + "\n" for r in rows()))


if __name__ == "__main__":
    main()
