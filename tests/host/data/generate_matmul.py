#!/usr/bin/env python3
"""Writes matmul.tsv, numpy.matmul's result shapes and errors that tests/host/test_matmul_shape.cpp checks.

Rows, tab-separated: A-SHAPE  B-SHAPE  RESULT, where shapes are written as NumPy prints them
and RESULT is the result's shape or "error: " and NumPy's message.

Run from anywhere: python3 tests/host/data/generate_matmul.py
"""
import itertools
import pathlib

import numpy as np

SHAPES = [
    (), (1,), (3,), (4,), (0,), (3, 4), (4, 3), (4, 5), (1, 4), (4, 1), (0, 4), (4, 0),
    (2, 3, 4), (2, 4, 5), (5, 4, 2), (1, 4, 5), (2, 4, 3), (5, 3, 2), (2, 1, 3, 4), (3, 1, 4, 5),
    (7, 1, 4), (1, 2, 4, 5), (0, 3, 4),
]


def show(shape):
    return "(" + ",".join(str(d) for d in shape) + ("," if len(shape) == 1 else "") + ")"


def main():
    out = pathlib.Path(__file__).with_name("matmul.tsv")
    with out.open("w") as f:
        for a, b in itertools.product(SHAPES, repeat=2):
            try:
                result = show(np.matmul(np.ones(a), np.ones(b)).shape)
            except ValueError as e:
                result = "error: " + str(e)
            f.write(f"{show(a)}\t{show(b)}\t{result}\n")


if __name__ == "__main__":
    main()
