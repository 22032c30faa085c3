#!/usr/bin/env python3
"""Writes linalg.tsv: NumPy's result shapes, dtypes and errors for the linear-algebra functions
that tests/host/test_linalg_shapes.cpp checks through Jet's API on placeholder arrays.

Rows, tab-separated: FUNCTION  A  B  ARGS  RESULT, where A and B are SHAPE:DTYPE ("-" for no
operand), ARGS are the function's integer arguments (tensordot's axis lists as a;b with
comma-separated axes), and RESULT is SHAPE:DTYPE or "error: KIND: MESSAGE" with KIND one of
value (ValueError, LinAlgError) and index (IndexError, AxisError).

Run from anywhere: python3 tests/host/data/generate_linalg.py
"""
import itertools
import pathlib

import numpy as np

SHAPES = [(), (3,), (4,), (0,), (3, 4), (4, 3), (4, 5), (2, 3, 4), (2, 4, 5), (5, 4, 3), (3, 4, 2, 5), (4, 0)]
DTYPES = ["bool", "int8", "uint8", "int16", "int32", "int64", "uint64", "float16", "float32", "float64",
          "complex64", "complex128"]
DIAGONAL_ARGS = [(0, 0, 1), (1, 0, 1), (-1, 0, 1), (2, 1, 0), (0, -1, -2), (5, 0, 1), (0, 1, 1), (0, 0, 3),
                 (0, -4, 1), (-1, 2, 0)]
AXIS_LISTS = [([1], [0]), ([0], [1]), ([1, 0], [0, 1]), ([-1], [0]), ([2], [0]), ([1, 2], [1, 0]),
              ([0, 0], [1, 1]), ([0], [0, 1]), ([], [])]


def show(shape):
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def operand(shape, dtype):
    return f"{show(shape)}:{dtype}"


def outcome(f):
    try:
        r = np.asarray(f())
        return f"{show(r.shape)}:{r.dtype}"
    except (IndexError, np.exceptions.AxisError) as e:
        return f"error: index: {e}"
    except (ValueError, np.linalg.LinAlgError) as e:
        return f"error: value: {e}"


def rows():
    ones = np.ones
    for name, f in [("dot", np.dot), ("inner", np.inner), ("vdot", np.vdot), ("outer", np.outer),
                    ("matmul", np.matmul)]:
        if name != "matmul":  # matmul.tsv has matmul's shapes
            for a, b in itertools.product(SHAPES, repeat=2):
                if name == "vdot" and (a == () or b == ()):
                    continue  # numpy.vdot of 0-d operands is a scalar product Jet leaves to `*`
                yield name, operand(a, "float64"), operand(b, "float64"), "-", outcome(lambda: f(ones(a), ones(b)))
        for da, db in itertools.product(DTYPES, repeat=2):
            a, b = {"vdot": ((3,), (3,)), "outer": ((3,), (2,)), "inner": ((2, 3), (4, 3))}.get(name, ((2, 3), (3, 4)))
            yield name, operand(a, da), operand(b, db), "-", outcome(lambda: f(ones(a, dtype=da), ones(b, dtype=db)))
    for a, b in itertools.product(SHAPES, repeat=2):
        for n in range(3):
            yield "tensordot", operand(a, "float32"), operand(b, "float32"), str(n), outcome(
                lambda: np.tensordot(ones(a, np.float32), ones(b, np.float32), n))
    for a, b in [((3, 4), (4, 3)), ((2, 3, 4), (4, 3, 5)), ((4, 3), (3, 4)), ((3, 4, 2, 5), (4, 5, 3))]:
        for axes in AXIS_LISTS:
            args = ",".join(map(str, axes[0])) + ";" + ",".join(map(str, axes[1]))
            yield "tensordot", operand(a, "complex64"), operand(b, "int8"), args, outcome(
                lambda: np.tensordot(ones(a, np.complex64), ones(b, np.int8), axes))
    for s in SHAPES:
        for offset, axis1, axis2 in DIAGONAL_ARGS:
            args = f"{offset},{axis1},{axis2}"
            yield "diagonal", operand(s, "int16"), "-", args, outcome(
                lambda: np.diagonal(ones(s, np.int16), offset, axis1, axis2))
            yield "trace", operand(s, "float32"), "-", args, outcome(
                lambda: np.trace(ones(s, np.float32), offset, axis1, axis2))
    for t in DTYPES:
        yield "trace", operand((3, 3), t), "-", "0,0,1", outcome(lambda: np.trace(ones((3, 3), t)))
    for s in SHAPES + [(3, 3), (2, 4, 4), (0, 0)]:
        for n in range(4):
            yield "matrix_power", operand(s, "float64"), "-", str(n), outcome(
                lambda: np.linalg.matrix_power(ones(s), n))
    for t in DTYPES:
        yield "matrix_power", operand((3, 3), t), "-", "2", outcome(lambda: np.linalg.matrix_power(ones((3, 3), t), 2))


def main():
    out = pathlib.Path(__file__).with_name("linalg.tsv")
    with out.open("w") as f:
        for row in rows():
            f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
