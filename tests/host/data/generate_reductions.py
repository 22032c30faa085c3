#!/usr/bin/env python3
"""Writes reductions.csv, NumPy 2's result dtypes, shapes and refusals for reductions, which
tests/host/test_reduce.cpp checks.

Rows (one layout for both kinds):
  reduce,NAME,SHAPE,DTYPE,DTYPE_ARG,AXIS,KEEPDIMS,RESULT,OUT
  norm,ORD,SHAPE,DTYPE,,AXIS,KEEPDIMS,RESULT,OUT

  NAME       numpy.<NAME> (sum, nanmean, argmin, count_nonzero, ...)
  ORD        numpy.linalg.norm's ord: none, 1, -1, 2, 0, 3, inf, -inf or fro
  SHAPE      the input's shape, extents separated by spaces
  DTYPE_ARG  the dtype= argument, or empty
  AXIS       none (axis=None), an integer, or a tuple in parentheses: (0 2), ()
  KEEPDIMS   true or false
  RESULT     the result's dtype name, or "error"
  OUT        the result's shape in parentheses, (2 4) or (); for an error, the jet::error
             kind Jet raises: index_error (NumPy's AxisError), value_error (ValueError),
             dtype_error (TypeError), or error (any jet::error; see jet_error_kind)

Matrix norms of ord 2, -2 and "nuc" need singular values; Jet refuses them (not a reduction),
so they are left out here and test_reduce.cpp checks the refusal by hand. Complex inputs with
a real dtype= argument are left out too: NumPy drops the imaginary part with a warning. So are
calls with two faults at once (ptp of bool over bad or empty axes, ord 'fro' with a bad axis),
where which error comes first is NumPy's accident.

Run from anywhere: python3 tests/host/data/generate_reductions.py
"""
import csv
import pathlib
import warnings

import numpy as np

DTYPES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "float32", "float64", "complex64", "complex128",
]
REDUCTIONS = [
    "sum", "prod", "mean", "var", "std", "min", "max", "argmin", "argmax", "all", "any",
    "count_nonzero", "ptp", "nansum", "nanmean", "nanmin", "nanmax",
]
WITH_DTYPE_ARG = ["sum", "prod", "nansum", "mean", "nanmean"]
DTYPE_ARGS = ["int32", "int64", "float32", "float64", "complex128"]
SHAPE = (2, 3, 4)
EMPTY_SHAPE = (2, 0, 4)  # reducing axis 1 leaves outputs with nothing to reduce
GOOD_AXES = [None, 0, 1, -1, (0, 2), (-1, 0), ()]
BAD_AXES = [3, -4, (0, 0), (0, -3), (1, 5)]
EMPTY_AXES = [None, 0, 1, -1, (0, 2)]
NORM_ORDS = {"none": None, "1": 1, "-1": -1, "2": 2, "0": 0, "3": 3, "inf": np.inf,
             "-inf": -np.inf, "fro": "fro"}
NORM_CASES = [  # input shape, axis specs
    (SHAPE, [None, 0, -1, (0, 2), (2, 0), (0, 1, 2), (0, 0), 3, ()]),
    ((3, 4), [None, 1, (0, 1)]),
    ((5,), [None, 0]),
]


def spell_shape(shape):
    return "(" + " ".join(str(n) for n in shape) + ")"


def spell_axis(axis):
    if axis is None:
        return "none"
    if isinstance(axis, tuple):
        return spell_shape(axis)
    return str(axis)


def jet_error_kind(name, axis, error):
    """The jet::error kind that stands for a NumPy exception."""
    if isinstance(error, np.exceptions.AxisError):
        return "index_error"
    if isinstance(error, TypeError):
        # argmin/argmax take one axis: NumPy's TypeError there is about the axis argument,
        # not a dtype, so any jet::error will do.
        if name in ("argmin", "argmax") and isinstance(axis, tuple):
            return "error"
        return "dtype_error"
    if isinstance(error, ValueError):
        return "value_error"
    raise error


def outcome(name, call, axis):
    """RESULT and OUT for one call."""
    try:
        result = call()
    except Exception as error:  # noqa: BLE001: mapped to Jet's kinds or re-raised
        return ["error", jet_error_kind(name, axis, error)]
    return [np.asarray(result).dtype.name, spell_shape(np.shape(result))]


def reduce_call(name, a, axis, keepdims, dtype_arg):
    kwargs = {"axis": axis, "keepdims": keepdims}
    if dtype_arg:
        kwargs["dtype"] = dtype_arg
    return lambda: getattr(np, name)(a, **kwargs)


def is_svd_norm(ord_value, shape, axis):
    matrix = (axis is None and len(shape) == 2) or (isinstance(axis, tuple) and len(axis) == 2)
    return matrix and ord_value in (2, -2, "nuc")


def reduce_rows():
    for name in REDUCTIONS:
        for t in DTYPES:
            cases = [(SHAPE, axis, keepdims) for axis in GOOD_AXES for keepdims in (False, True)]
            cases += [(SHAPE, axis, False) for axis in BAD_AXES]
            cases += [(EMPTY_SHAPE, axis, False) for axis in EMPTY_AXES]
            for shape, axis, keepdims in cases:
                if name == "ptp" and t == "bool" and (shape == EMPTY_SHAPE or axis in BAD_AXES):
                    continue  # two errors at once (bool subtract and the axes): either may win
                a = np.ones(shape, dtype=t)
                yield (["reduce", name, spell_shape(shape)[1:-1], t, "", spell_axis(axis),
                        str(keepdims).lower()]
                       + outcome(name, reduce_call(name, a, axis, keepdims, None), axis))


def dtype_arg_rows():
    for name in WITH_DTYPE_ARG:
        for t in DTYPES:
            for dtype_arg in DTYPE_ARGS:
                if t.startswith("complex") and not dtype_arg.startswith("complex"):
                    continue
                a = np.ones(SHAPE, dtype=t)
                for axis in (None, 1):
                    yield (["reduce", name, spell_shape(SHAPE)[1:-1], t, dtype_arg,
                            spell_axis(axis), "false"]
                           + outcome(name, reduce_call(name, a, axis, False, dtype_arg), axis))


def norm_rows():
    for ord_name, ord_value in NORM_ORDS.items():
        for t in DTYPES:
            for shape, axes in NORM_CASES:
                a = np.ones(shape, dtype=t)
                for axis in axes:
                    if is_svd_norm(ord_value, shape, axis):
                        continue
                    if ord_value == "fro" and axis == 3:
                        continue  # two errors at once ('fro' of a vector, bad axis)
                    for keepdims in (False, True):
                        call = lambda: np.linalg.norm(a, ord=ord_value, axis=axis,  # noqa: E731
                                                      keepdims=keepdims)
                        yield (["norm", ord_name, spell_shape(shape)[1:-1], t, "",
                                spell_axis(axis), str(keepdims).lower()]
                               + outcome("norm", call, axis))


def main():
    if int(np.__version__.split(".")[0]) < 2:
        raise SystemExit("needs NumPy 2 (its result dtypes and norm's empty-input rules)")
    path = pathlib.Path(__file__).with_name("reductions.csv")
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        table = list(reduce_rows()) + list(dtype_arg_rows()) + list(norm_rows())
    with path.open("w", newline="") as f:
        writer = csv.writer(f, lineterminator="\n")
        f.write(f"# kind,name or ord,shape,dtype,dtype arg,axis,keepdims,result,shape or error; "
                f"written by {pathlib.Path(__file__).name} with NumPy {np.__version__}\n")
        writer.writerows(table)


if __name__ == "__main__":
    main()
