#!/usr/bin/env python3
"""Writes editing.tsv: NumPy's answers for padding, editing and index arithmetic, which
tests/host/test_editing.cpp (and tests/gpu/test_editing.cpp, for the rows that need a device)
check through Jet.

Rows, tab-separated, the last field the RESULT:

  Positions along one axis, checked against src/array/edit_positions.hpp:
    pad_positions     N  BEFORE,AFTER  MODE  RESULT   np.pad(np.arange(N), ...); constant pads -1
    delete_positions  N  OBJ  RESULT                   np.delete(np.arange(N), OBJ)
    insert_positions  N  OBJ  COUNT  RESULT            np.insert(np.arange(N), OBJ, -1 - arange(COUNT));
                                                       -1 - k is the k-th inserted slice
  RESULT of these: the positions, comma-separated ("" for none), or an error.

  Shapes, dtypes and errors of the functions, on operands of zeros (Jet's placeholders):
    pad               A  WIDTHS  MODE  RESULT
    delete            A  OBJ  AXIS  RESULT
    insert            A  OBJ  VALUES  AXIS  RESULT
    resize            A  NEW_SHAPE  RESULT
    ediff1d           A  TO_END  TO_BEGIN  RESULT
    rollaxis          A  AXIS,START  RESULT
    unravel_index     INDICES  DIMS  ORDER  RESULT     RESULT: one SHAPE:DTYPE per axis, ';'
    ravel_multi_index COORDINATES  DIMS  MODES  ORDER  RESULT
    choose            INDICES  CHOICES  MODE  RESULT
  An operand is SHAPE:DTYPE, or a Python int or float (a weak scalar in Jet), or "-" for None;
  lists of them are ';'-separated. OBJ is i:INDEX, l:INDEX,INDEX,..., s:START:STOP:STEP (empty
  for None) or m:0,1,... (a boolean mask). WIDTHS is one integer, one pair B,A or pairs B,A;B,A;... MODES is one mode, a list
  m1,m2,... or [m] for a list of one. AXIS is an integer or none. RESULT is SHAPE:DTYPE, "-" for
  an empty tuple, or "error: KIND: MESSAGE" with KIND index (IndexError, AxisError), value
  (ValueError) or dtype (TypeError).

Errors that depend on the values (an index out of bounds in unravel_index, ravel_multi_index or
choose) are left out: Jet raises them from the device, which GPU tests check. So are choose's
choices whose dtypes NumPy promotes in a way that depends on more than pairs (int8 with uint8
and float16), which Jet's chain of wheres promotes pairwise.

Run from anywhere: python3 tests/host/data/generate_editing.py
"""
import itertools
import pathlib

import numpy as np

MODES = ["constant", "edge", "reflect", "symmetric", "wrap"]
DATA_DEPENDENT = ("invalid entry in", "is out of bounds for array with size")


def show(shape):
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def spell(shape, dtype):
    return f"{show(shape)}:{dtype}"


def operand(text):
    if text == "-":
        return None
    if ":" not in text:
        return float(text) if "." in text else int(text)
    shape, dtype = text.split(":")
    return np.zeros(tuple(int(d) for d in shape[1:-1].split(",") if d), dtype=dtype)


def operands(text):
    return [operand(t) for t in text.split(";")]


def obj_of(text):
    kind, rest = text.split(":", 1)
    if kind == "i":
        return int(rest)
    if kind == "l":
        return [int(i) for i in rest.split(",") if i]
    if kind == "m":
        return np.array([bool(int(i)) for i in rest.split(",") if i], dtype=bool)
    return slice(*[int(p) if p else None for p in rest.split(":")])


def widths_of(text):
    pairs = [tuple(int(w) for w in p.split(",")) for p in text.split(";")]
    if len(pairs) == 1 and len(pairs[0]) == 1:
        return pairs[0][0]
    return pairs[0] if len(pairs) == 1 else pairs


def modes_of(text):
    if text.startswith("["):
        return [text[1:-1]]
    return text.split(",") if "," in text else text


def error(e):
    text = str(e).rstrip()  # NumPy's broadcast errors end in a space
    if isinstance(e, (IndexError, np.exceptions.AxisError)):
        return f"error: index: {text}"
    if isinstance(e, TypeError):
        return f"error: dtype: {text}"
    return f"error: value: {text}"


def outcome(f):
    try:
        r = f()
    except (IndexError, ValueError, TypeError) as e:
        return error(e)
    if isinstance(r, tuple):
        return ";".join(spell(np.shape(x), np.asarray(x).dtype) for x in r) or "-"
    r = np.asarray(r)
    return spell(r.shape, r.dtype)


def positions(f):
    try:
        return ",".join(str(int(p)) for p in f())
    except (IndexError, ValueError) as e:
        return error(e)


def position_rows():
    for n, before, after, mode in itertools.product(range(0, 6), range(0, 12, 3), range(0, 14, 4), MODES):
        if n == 0 and mode != "constant" and before + after > 0:
            continue  # an error, which the pad rows check
        yield "pad_positions", str(n), f"{before},{after}", mode, positions(
            lambda: np.pad(np.arange(n), (before, after), mode=mode, **({"constant_values": -1} if mode == "constant" else {})))
    objs = ["l:", "l:0", "l:-1", "l:1,3", "l:3,1,1,-2", "l:0,9", "l:-10", "l:9,10", "l:-11,2", "s::", "s:1::2",
            "s:::-3", "s:5:1", "s:-3:", "s:1:7:3", "s:8:0:-2", "s:20:", "s:-20:3", "m:", "m:1", "m:0,1,1,0",
            "m:1,1,1,1", "m:0,0,0,0", "m:1,0,0,0,0,0,0,0,0,1", "m:1,0,1"]
    for n in [0, 1, 4, 10]:
        for obj in objs:
            yield "delete_positions", str(n), obj, positions(lambda: np.delete(np.arange(n), obj_of(obj)))
    inserts = [("i:0", [1, 3]), ("i:2", [1, 2]), ("i:-1", [1]), ("i:4", [2]), ("l:", [0]), ("l:0,0", [2]),
               ("l:3,1,3", [3]), ("l:4,0,-1", [3]), ("l:-4,2", [2]), ("l:0,5", [2]), ("l:2,-7", [2]),
               ("l:-6,1", [2]), ("l:1,1,1,1", [4])]
    for n in [0, 1, 4]:
        for obj, counts in inserts:
            for count in counts:
                values = -1 - np.arange(count)
                index = obj_of(obj)
                if isinstance(index, int) and not -n <= index <= n:
                    continue  # the public insert checks a scalar index (the insert rows)
                yield "insert_positions", str(n), obj, str(count), positions(
                    lambda: np.insert(np.arange(n), index, values))


def pad_rows():
    shapes = [(3,), (2, 3), (0, 3), (), (4, 1, 2), (1,)]
    widths = ["2", "0", "1,2", "1,2;3,0", "0,0;0,0;0,0", "5,7;1,1", "-1", "1,-2", "1,2;3,4;5,6", "7,0;0,9;2,2"]
    for shape, w, mode in itertools.product(shapes, widths, MODES):
        for dtype in (["int8", "bool", "complex64"] if shape == (2, 3) else ["float32"]):
            a = np.zeros(shape, dtype)
            yield "pad", spell(shape, dtype), w, mode, outcome(lambda: np.pad(a, widths_of(w), mode=mode))


def delete_rows():
    shapes = [(10,), (3, 4), (2, 3, 4), (), (0,), (5, 0)]
    objs = ["i:0", "i:-1", "i:3", "i:12", "i:-13", "l:", "l:1", "l:5", "l:1,3", "l:1,1,-1", "l:0,12", "l:-12,1",
            "s::", "s:1::2", "s:::-3", "s:5:1", "s:-3:", "s:1:3:0", "m:1,0,1", "m:0,1,1,0", "m:",
            "m:1,0,0,0,0,0,0,0,0,1", "m:0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1"]
    for shape, obj, axis in itertools.product(shapes, objs, ["none", "0", "1", "-1", "3"]):
        a = np.zeros(shape, "int16")
        yield "delete", spell(shape, "int16"), obj, axis, outcome(
            lambda: np.delete(a, obj_of(obj), None if axis == "none" else int(axis)))


def insert_rows():
    shapes = [(10,), (3, 4), (2, 3, 4), (0,), (3, 0)]
    objs = ["i:0", "i:2", "i:-1", "i:11", "i:-11", "l:", "l:1", "l:12", "l:1,3", "l:3,1,3", "l:0,11", "l:-15,6",
            "s:1:3", "s::2", "s:::-1", "s:2:3", "s:5:1", "m:1,0,1", "m:0,1", "m:", "m:0,0,0,0,0,0,0,0,0,0,0,1"]
    values = ["5", "():float64", "(3,):int64", "(2,):float32", "(2,3):int8", "(3,1):int16", "(1,1,2):bool"]
    for shape, obj, v, axis in itertools.product(shapes, objs, values, ["none", "0", "1", "-1"]):
        for dtype in (["float32", "bool"] if shape == (3, 4) and axis == "1" else ["int64"]):
            a = np.zeros(shape, dtype)
            yield "insert", spell(shape, dtype), obj, v, axis, outcome(
                lambda: np.insert(a, obj_of(obj), operand(v), None if axis == "none" else int(axis)))


def resize_rows():
    for shape, new in itertools.product([(5,), (2, 3), (0,), (), (3, 0, 2)],
                                        [(), (3,), (2, 4), (0, 3), (7,), (2, -1), (4, 1, 3)]):
        for dtype in ["uint8", "complex128", "bool"]:
            a = np.zeros(shape, dtype)
            yield "resize", spell(shape, dtype), show(new), outcome(lambda: np.resize(a, new))


def ediff1d_rows():
    extras = ["-", "():int64", "(2,):float64", "5", "1.5", "(1,2):int8", "(3,):bool", "(2,):complex64",
              "(0,):uint16"]
    for shape, dtype, end, begin in itertools.product([(5,), (2, 3), (0,), (), (1,)],
                                                      ["int8", "uint8", "bool", "float32", "complex128"],
                                                      extras, extras):
        if end != begin and "-" not in (end, begin) and shape != (2, 3):
            continue  # both given: enough on one shape
        a = np.zeros(shape, dtype)
        yield "ediff1d", spell(shape, dtype), end, begin, outcome(
            lambda: np.ediff1d(a, to_end=operand(end), to_begin=operand(begin)))


def rollaxis_rows():
    for shape in [(3, 4, 5, 6), (2,), ()]:
        n = len(shape)
        for axis, start in itertools.product(range(-n - 1, n + 1), range(-n - 2, n + 2)):
            a = np.zeros(shape, "float64")
            yield "rollaxis", spell(shape, "float64"), f"{axis},{start}", outcome(lambda: np.rollaxis(a, axis, start))


def unravel_rows():
    indices = ["(3,):int64", "():int32", "(2,2):uint8", "(0,):int64", "(3,):float64", "(2,):bool", "(2,):uint64",
               "7", "(2,):float16"]
    dims = [(7, 6), (), (10,), (2, 3, 4), (2, 0), (0,), (2**40, 2**40), (2**31, 2**31), (3, -2)]
    for i, d, order in itertools.product(indices, dims, ["C", "F"]):
        result = outcome(lambda: np.unravel_index(operand(i), d, order=order))
        if not any(text in result for text in DATA_DEPENDENT):
            yield "unravel_index", i, show(d), order, result


def ravel_rows():
    coordinates = ["(3,):int64;(3,):int64", "(3,):int32;(1,):uint8", "(2,1):int64;(3,):int16", "(2,):int64;(3,):int64",
                   "(3,):float64;(3,):int64", "(3,):bool;(3,):int64", "(3,):uint64;(3,):int64", "3;1", "(3,):int64",
                   "(3,):int64;(3,):int64;(3,):int64", "(0,):int64;(0,):int8", "(2,):int8;(2,):int8;(3,):int8"]
    dims = [(7, 6), (7, 0), (2**40, 2**40), (4, 5, 2), (3, -2)]
    for c, d, modes, order in itertools.product(coordinates, dims, ["raise", "wrap", "clip", "clip,wrap", "[clip]"],
                                                ["C", "F"]):
        result = outcome(lambda: np.ravel_multi_index(tuple(operands(c)), d, mode=modes_of(modes), order=order))
        if not any(text in result for text in DATA_DEPENDENT):
            yield "ravel_multi_index", c, show(d), modes, order, result


def choose_rows():
    indices = ["(4,):int64", "(2,1):uint8", "():int32", "1", "(4,):float64", "(4,):uint64", "(4,):bool", "(3,):int64",
               "(2,1,1):int16"]
    choices = ["(4,):int64;(4,):int64", "(4,):int8;5", "(4,):int8;500", "(1,):uint8;(4,):float16", "(4,):int32",
               "(2,4):bool;(4,):complex64;(1,):float32", "(3,):int64;(4,):int64", "(4,):float32;1.5",
               ";".join(["(4,):int16"] * 63), ";".join(["(4,):int16"] * 64)]
    for i, c, mode in itertools.product(indices, choices, ["raise", "wrap", "clip"]):
        result = outcome(lambda: np.choose(operand(i), operands(c), mode=mode))
        if not any(text in result for text in DATA_DEPENDENT):
            yield "choose", i, c, mode, result


def main():
    out = pathlib.Path(__file__).with_name("editing.tsv")
    with out.open("w") as f:
        for rows in (position_rows, pad_rows, delete_rows, insert_rows, resize_rows, ediff1d_rows, rollaxis_rows,
                     unravel_rows, ravel_rows, choose_rows):
            for row in rows():
                f.write("\t".join(row) + "\n")


if __name__ == "__main__":
    main()
