#!/usr/bin/env python3
"""Writes indexing.tsv: NumPy's answers for advanced indexing, joining and splitting, and
rearranging and building arrays, which tests/host/test_indexing_table.cpp checks through Jet on
placeholders (the rows that need no device).

Rows, tab-separated, the last field the RESULT; operands are arrays of zeros (Jet's placeholders):

  Advanced indexing:
    index             A  ITEMS  RESULT                a[ITEMS]
  Joining and splitting:
    concatenate       PARTS  AXIS  DTYPE  RESULT      DTYPE a dtype name or "-" for None
    stack             PARTS  AXIS  RESULT
    vstack, hstack, dstack, column_stack  PARTS  RESULT
    append            A  VALUES  AXIS  RESULT
    split, array_split  A  OBJ  AXIS  RESULT          OBJ i:SECTIONS or l:INDEX,INDEX,...
    hsplit, vsplit, dsplit  A  OBJ  RESULT
    atleast_1d, atleast_2d, atleast_3d  A  RESULT
  Rearranging and building:
    flip              A  AXIS  RESULT
    fliplr, flipud    A  RESULT
    rot90             A  K  AXIS1,AXIS2  RESULT
    moveaxis          A  SOURCE,DESTINATION  RESULT
    roll              A  SHIFT  AXIS  RESULT
    tile              A  REPS  RESULT                 REPS: integers, comma-separated
    repeat            A  OBJ  AXIS  RESULT            OBJ i:REPEATS or l:REPEATS,REPEATS,...
    diff              A  N  AXIS  RESULT
    diag              A  K  RESULT
    meshgrid          PARTS  xy|ij  dense|sparse  RESULT
    ix_, broadcast_arrays  PARTS  RESULT
    take              A  INDICES  AXIS  MODE  RESULT
    take_along_axis   A  INDICES  AXIS  RESULT

An operand is SHAPE:DTYPE, or a Python int or float (a weak scalar in Jet); PARTS are operands,
';'-separated (an empty field for none). ITEMS are ';'-separated items: an operand (an index
array, or a boolean mask), i:INTEGER, s:START:STOP:STEP (empty for None), newaxis or "...".
AXIS is an integer or none. RESULT is SHAPE:DTYPE for each result (';'-separated; "-" for none),
or "error: KIND: MESSAGE" with KIND index (IndexError, AxisError), value (ValueError) or dtype
(TypeError). A row whose function is written !NAME is one the host test leaves out
(JET_DIFFERS below says why: where Jet differs from NumPy, or the row needs a GPU).

Left out: np.split into 0 sections, which divides by zero; tril, triu, tri, indices and diagflat,
whose results Jet makes on the device, with no error first but tril's and triu's of a 0-d array,
which NumPy raises by calling tri() without its argument; ix_ of a boolean array, which NumPy
turns into the positions where it holds, a count only the device knows; and errors that depend
on a mask's count (broadcast with index arrays).

Run from anywhere: python3 tests/host/data/generate_indexing.py
"""
import itertools
import pathlib
import sys

import numpy as np

sys.dont_write_bytecode = True  # importing generate_editing leaves no __pycache__ here
from generate_editing import obj_of, operand, operands, outcome, spell  # noqa: E402

INDEX_ARRAYS = ["(3,):int64", "(2,1):int32", "(4,):uint8", "():int64", "(2,):int16"]
BASIC_ITEMS = ["i:1", "i:-1", "i:5", "s::", "s:1:4", "s:::-2", "newaxis", "..."]
MASKS = ["(5,):bool", "(4,):bool", "(5,6):bool", "(6,7):bool", "():bool", "(4,5):bool"]


def item_of(text):
    if text == "...":
        return Ellipsis
    if text == "newaxis":
        return None
    if text[0] in "is":
        return obj_of(text)
    return operand(text)


def parts_of(text):
    return operands(text) if text else []


def axis_of(text):
    return None if text == "none" else int(text)


def indexed(a, items):
    return outcome(lambda: a[tuple(item_of(i) for i in items)])


def index_rows():
    # Every list of up to three items on (5,6,7), of up to two on the others, and of three or four
    # from fewer items on the others, each with an index array among them; and on (5,6,7) an
    # ellipsis of no axes among three items that take one each.
    pool = INDEX_ARRAYS + BASIC_ITEMS
    fewer = ["(3,):int64", "(2,1):int32", "i:-1", "s:::-2", "newaxis", "..."]
    lists = {(5, 6, 7): [(pool, n) for n in (1, 2, 3)], (4, 5): [(pool, 1), (pool, 2), (fewer, 3)],
             (3, 4, 5, 6): [(pool, 1), (pool, 2), (fewer, 3), (fewer, 4)]}
    dtypes = {(5, 6, 7): "float32", (4, 5): "int16", (3, 4, 5, 6): "bool"}
    for shape, choices in lists.items():
        a = np.zeros(shape, dtypes[shape])
        spelled = spell(shape, dtypes[shape])
        for items in itertools.chain.from_iterable(itertools.product(p, repeat=n) for p, n in choices):
            if any(i in INDEX_ARRAYS for i in items):
                yield "index", spelled, ";".join(items), indexed(a, items)
        if len(shape) == 3:
            taking_one = ["(3,):int64", "(2,1):int32", "i:-1", "s::"]
            for three, at in itertools.product(itertools.product(taking_one, repeat=3), range(4)):
                items = three[:at] + ("...",) + three[at:]
                if any(i in INDEX_ARRAYS for i in items):
                    yield "index", spelled, ";".join(items), indexed(a, items)
        for mask, other in itertools.product(MASKS, ["...", "s::", "i:0", "newaxis", "(2,):int64"]):
            for items in [(mask,), (mask, other), (other, mask), (mask, other, other)]:
                result = indexed(a, items)
                if "indexing arrays could not be broadcast" not in result:  # the mask's count
                    yield "index", spelled, ";".join(items), result
        for items in [("(2,):float32",), ("s::", "(2,):float64"), ("(2,):int64", "(2,):complex64")]:
            yield "index", spelled, ";".join(items), indexed(a, items)


def join_rows():
    parts = ["(2,3):float32;(2,3):float32", "(2,3):int8;(4,3):uint8", "(2,3):int32;(2,4):float16",
             "(2,3):float64;(3,):float64", "(2,3):int16;(2,3):int16;(2,5):int16", "(3,):bool;(2,):int64",
             "():float64", "(2,):float32;():float32", "(0,3):int8;(2,3):int16", "(2,3,4):uint16;(2,3,1):uint32",
             "(2,3):complex64;(2,3):float64", "(1,):uint64;(1,):int64", "(3,):int8;5", "(3,):float16;1.5", ""]
    for p, axis, dtype in itertools.product(parts, ["0", "1", "-1", "2", "none"],
                                            ["-", "float32", "int64", "bool", "complex128"]):
        if dtype != "-" and axis not in ("0", "none"):
            continue
        yield "concatenate", p, axis, dtype, outcome(
            lambda: np.concatenate(parts_of(p), axis=axis_of(axis), dtype=None if dtype == "-" else dtype))
    stacked = ["(2,3):float32;(2,3):float32", "(2,3):int8;(2,3):uint8;(2,3):int8", "(2,3):int32;(3,2):int32",
               "():bool;():int16", "(3,):float32;(3,):complex64", "(3,):int8;(4,):int8", "(3,):int8;(1,3):int8",
               "(0,2):int64;(0,2):int64", "(3,):int32;7", ""]
    for p, axis in itertools.product(stacked, ["0", "1", "2", "-1", "-3", "3", "-4"]):
        yield "stack", p, axis, outcome(lambda: np.stack(parts_of(p), axis=int(axis)))
    joined = ["(3,):float32;(3,):int64", "(2,3):int8;(3,):int8", "(2,3):uint8;(4,3):uint8", "(2,3):int16;(2,4):int16",
              "():float64;():float64", "(2,3,4):bool;(2,3,4):bool", "(2,3,4):float32;(2,3,1):float32",
              "(3,):int32;(4,):int32", "(2,):float32;(2,3):float32", "(2,1):int8;(2,):uint16",
              "(1,3):complex64;(3,):float64", "(3,):float32;2.5", ""]
    for f, p in itertools.product(["vstack", "hstack", "dstack", "column_stack"], joined):
        yield f, p, outcome(lambda: getattr(np, f)(parts_of(p)))
    appended = [("(2,3):float32", "(2,3):int64"), ("(2,3):int8", "(3,):int8"), ("(3,):uint8", "(2,2):int16"),
                ("():bool", "():bool"), ("(2,3):int32", "(2,4):int32"), ("(2,3):float16", "4")]
    for (a, v), axis in itertools.product(appended, ["0", "1", "-1", "2", "none"]):
        yield "append", a, v, axis, outcome(lambda: np.append(operand(a), operand(v), axis=axis_of(axis)))


def split_rows():
    shapes = ["(10,6,4):float32", "(6,):int8", "(7,3):bool", "(0,4):int16", "():float64", "(2,3,4,5):uint8"]
    objs = ["i:1", "i:2", "i:3", "i:4", "i:5", "i:-1", "l:", "l:2", "l:2,5", "l:3,1", "l:-2", "l:20", "l:-20,2",
            "l:0,0,3"]
    for a, obj, axis in itertools.product(shapes, objs + ["i:0"], ["0", "1", "-1", "2"]):
        if operand(a).ndim <= int(axis) or -int(axis) > operand(a).ndim:
            continue  # NumPy's split reads ary.shape[axis] itself: a tuple's IndexError
        for f in ["split", "array_split"]:
            if f == "split" and obj == "i:0":
                continue  # divides by zero
            yield f, a, obj, axis, outcome(lambda: tuple(getattr(np, f)(operand(a), obj_of(obj), axis=int(axis))))
    for f, a, obj in itertools.product(["hsplit", "vsplit", "dsplit"], shapes, objs):
        yield f, a, obj, outcome(lambda: tuple(getattr(np, f)(operand(a), obj_of(obj))))
    for f, a in itertools.product(["atleast_1d", "atleast_2d", "atleast_3d"],
                                  ["():float32", "(5,):int8", "(2,3):bool", "(2,3,4):uint16", "(1,2,3,4):complex64",
                                   "(0,):float64"]):
        yield f, a, outcome(lambda: getattr(np, f)(operand(a)))


def rearranging_rows():
    shapes = ["():float32", "(3,):int8", "(2,3):bool", "(2,3,4):uint16"]
    for a, axis in itertools.product(shapes, ["none", "0", "1", "-1", "2", "-3", "3"]):
        yield "flip", a, axis, outcome(lambda: np.flip(operand(a), axis_of(axis)))
    for f, a in itertools.product(["fliplr", "flipud"], shapes):
        yield f, a, outcome(lambda: getattr(np, f)(operand(a)))
    for a, k, axes in itertools.product(shapes, ["-1", "0", "1", "2", "3", "5"],
                                        ["0,1", "1,0", "0,2", "1,2", "0,0", "-1,0", "0,-3", "0,3", "-4,1"]):
        yield "rot90", a, k, axes, outcome(lambda: np.rot90(operand(a), int(k), [int(x) for x in axes.split(",")]))
    for a, s, d in itertools.product(shapes, range(-4, 4), range(-4, 4)):
        if (s + d) % 2 and a != "(2,3,4):uint16":
            continue  # fewer pairs on the smaller arrays
        yield "moveaxis", a, f"{s},{d}", outcome(lambda: np.moveaxis(operand(a), s, d))
    for a, shift, axis in itertools.product(shapes + ["(0,3):int32"], ["-7", "0", "2", "10"],
                                            ["none", "0", "1", "-1", "3"]):
        yield "roll", a, shift, axis, outcome(lambda: np.roll(operand(a), int(shift), axis_of(axis)))
    for a, reps in itertools.product(shapes, ["", "2", "2,1", "1,2,3", "0", "-1", "2,0,1,1", "1,-2"]):
        yield "tile", a, reps, outcome(lambda: np.tile(operand(a), [int(r) for r in reps.split(",") if r]))
    for a, obj, axis in itertools.product(shapes, ["i:2", "i:0", "i:-1", "l:3", "l:1,2,0", "l:2,3", "l:1,-1,2",
                                                   "l:"], ["none", "0", "1", "-1", "2"]):
        yield "repeat", a, obj, axis, outcome(lambda: np.repeat(operand(a), obj_of(obj), axis_of(axis)))
    for a, n, axis in itertools.product(["(5,):int8", "(2,3,4):bool", "():float32", "(0,):uint8", "(4,3):uint16",
                                         "(3,):complex64", "(3,2):float16"], ["0", "1", "2", "6", "-1"],
                                        ["0", "1", "-1", "3"]):
        yield "diff", a, n, axis, outcome(lambda: np.diff(operand(a), int(n), int(axis)))
    for a, k in itertools.product(["(4,):int8", "(3,4):float32", "(2,3,4):bool", "(0,3):uint16", "():float32"],
                                  ["-2", "0", "1", "5"]):
        yield "diag", a, k, outcome(lambda: np.diag(operand(a), int(k)))


def building_rows():
    grids = ["", "(3,):float32", "(3,):int8;(4,):float32", "(3,):int8;(4,):uint16;(2,):bool",
             "(2,2):float64;(3,):int32", "():int64;(3,):int64", "(0,):float32;(2,):float32"]
    for p, indexing, sparse in itertools.product(grids, ["xy", "ij"], ["dense", "sparse"]):
        yield "meshgrid", p, indexing, sparse, outcome(
            lambda: np.meshgrid(*parts_of(p), indexing=indexing, sparse=sparse == "sparse"))
    for p in ["", "(3,):int64", "(2,):int8;(3,):float32;(4,):uint16", "(2,2):int64", "():int64",
              "(0,):int64;(2,):int8"]:
        yield "ix_", p, outcome(lambda: np.ix_(*parts_of(p)))
    for p in ["", "(3,1):float32;(4,):int8", "(2,):int64;(3,):int64", "():bool", "(2,1,3):uint8;(4,1):complex64",
              "(0,1):int16;(3,):int16", "(2,3):float32;(3,2):float32"]:
        yield "broadcast_arrays", p, outcome(lambda: np.broadcast_arrays(*parts_of(p)))
    arrays = ["(5,6):int32", "(0,3):float32", "(4,):uint8"]
    indices = ["(2,3):int64", "():int32", "(4,):uint64", "(2,):float64", "(0,):int64", "(3,):bool"]
    for a, i, axis, mode in itertools.product(arrays, indices, ["none", "0", "1", "-1", "2"],
                                              ["raise", "wrap", "clip"]):
        yield "take", a, i, axis, mode, outcome(lambda: np.take(operand(a), operand(i), axis_of(axis), mode=mode))
    along = ["(5,2):int64", "(1,2):int32", "(3,1):uint8", "(7,):int64", "(5,):int64", "(2,2):int64", "(5,6):float32",
             "(5,1,1):int64", "(0,6):int64"]
    for i, axis in itertools.product(along, ["0", "1", "-1", "none", "2"]):
        yield "take_along_axis", "(5,6):int32", i, axis, outcome(
            lambda: np.take_along_axis(operand("(5,6):int32"), operand(i), axis_of(axis)))


# The rows the host test leaves out, each rule picking its rows: where Jet is known to differ
# from NumPy (remove a rule when Jet is fixed), or where a row needs a GPU.
JET_DIFFERS = [
    # take of boolean indices casts them to int64 on the device (Jet's take reads an array of
    # positions), which a placeholder cannot do: these rows need a GPU.
    lambda r: r[0] == "take" and r[2].endswith(":bool") and "is out of bounds for array" not in r[-1]
    and "non-empty take" not in r[-1] and "Cannot cast" not in r[-1],
]


def main():
    out = pathlib.Path(__file__).with_name("indexing.tsv")
    with out.open("w") as f:
        for rows in (index_rows, join_rows, split_rows, rearranging_rows, building_rows):
            for row in rows():
                if any(differs(row) for differs in JET_DIFFERS):
                    row = ("!" + row[0],) + row[1:]
                f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
