#!/usr/bin/env python3
"""Writes statistics.tsv: NumPy's answers for comparing arrays, averages, medians and quantiles,
counting into bins, covariance, nanargmin/nanargmax and the set routines, which tests/host/test_statistics_table.cpp
checks through Jet on placeholders (errors, and the results that need no device) and
tests/gpu/test_statistics_table.cpp on a GPU (every row, values included).

Rows, tab-separated, the last field the RESULT:

    isclose           A  B  RTOL  ATOL  EQUAL_NAN
    allclose          A  B  RTOL  ATOL  EQUAL_NAN
    array_equal       A  B  EQUAL_NAN
    array_equiv       A  B
    average           A  AXIS  WEIGHTS  KEEPDIMS
    average_returned  A  AXIS  WEIGHTS  KEEPDIMS
    median, nanmedian A  AXIS  KEEPDIMS
    quantile, nanquantile, percentile, nanpercentile  A  Q  AXIS  METHOD  KEEPDIMS
    bincount          X  WEIGHTS  MINLENGTH
    histogram         A  BINS  RANGE  WEIGHTS  DENSITY
    cov               M  Y  ROWVAR  BIAS  DDOF  FWEIGHTS  AWEIGHTS
    corrcoef          X  Y  ROWVAR
    nanargmin, nanargmax  A  AXIS  KEEPDIMS
    unique            A  RETURNS  AXIS  EQUAL_NAN     RETURNS "-" or letters of i (index),
                                                     v (inverse), c (counts)
    unique_all, unique_counts, unique_inverse, unique_values  A
    isin              A  B  INVERT
    intersect1d, intersect1d_indices, setdiff1d, setxor1d  A  B  ASSUME_UNIQUE
    union1d           A  B
    histogramdd       SAMPLE  BINS  RANGE  WEIGHTS  DENSITY
    histogram2d       X  Y  BINS  RANGE  WEIGHTS  DENSITY
                      BINS i:COUNT,... (one count, or one an axis) or e:OPERAND;OPERAND...
                      (edges); RANGE "-" or LO,HI;LO,HI...; the result: hist, then each edges

An operand is SHAPE:DTYPE (zeros), SHAPE:DTYPE:SEED:FLAGS (the values `values` below makes,
which the C++ side makes the same way), a Python int or float, or "-" for None. AXIS is none,
an integer, or integers joined by ','. Q is s:VALUE (a Python float) or l:VALUE,VALUE,... (a
list). BINS is i:COUNT or an operand (the edges; sorted:OPERAND sorts them); RANGE is "-" or LO,HI. Booleans are 0 or 1.
RESULT is SHAPE:DTYPE, then for operands with values '=' and the values in C order, ','-joined
(floats as Python's repr, complex as RE|IM, bools as 0 or 1); several results are ';'-joined; or
"error: KIND: MESSAGE" (generate_editing.py's kinds).

Run from anywhere: python3 tests/host/data/generate_statistics.py
"""
import pathlib
import sys
import warnings

import numpy as np

sys.dont_write_bytecode = True  # importing generate_editing leaves no __pycache__ here
from generate_editing import error, show  # noqa: E402


def values(shape, dtype, seed, flags):
    """Deterministic values: integer hashing, then one division in double (ties: small
    integers; n: NaN at some; i: infinities at some)."""
    n = int(np.prod(shape, dtype=np.int64))
    k = np.arange(n, dtype=np.int64)
    h = (k * 2654435761 + seed * 40503) % 1000003
    if "t" in flags:
        v = (h % 7 - 3).astype(np.float64)
    else:
        v = h.astype(np.float64) / 1000003.0 * 20.0 - 10.0
    if "p" in flags:
        v = np.abs(v)
    if "n" in flags:
        v[h % 11 == 3] = np.nan
    if "i" in flags:
        v[h % 13 == 5] = np.inf
        v[h % 13 == 6] = -np.inf
    if "a" in flags:  # every value NaN in the first half
        v[: n // 2] = np.nan
    return v.astype(dtype).reshape(shape)


def operand(text):
    if text == "-":
        return None
    if ":" not in text:
        return float(text) if "." in text else int(text)
    parts = text.split(":")
    shape = tuple(int(d) for d in parts[0][1:-1].split(",") if d)
    if len(parts) == 2:
        return np.zeros(shape, dtype=parts[1])
    return values(shape, parts[1], int(parts[2]), parts[3])


def has_values(text):
    return text.count(":") == 3


def axis_of(text):
    if text == "none":
        return None
    items = [int(a) for a in text.split(",")]
    return items[0] if len(items) == 1 else tuple(items)


def spell_value(x, dtype):
    if dtype.kind == "b":
        return "1" if x else "0"
    if dtype.kind == "c":
        return f"{repr(float(x.real))}|{repr(float(x.imag))}"
    if dtype.kind in "iu":
        return str(int(x))
    return repr(float(x))


def spell(r, with_values):
    r = np.asarray(r)
    out = f"{show(r.shape)}:{r.dtype}"
    if with_values:
        out += "=" + ",".join(spell_value(x, r.dtype) for x in r.ravel())
    return out


def outcome(f, with_values):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = f()
    except (IndexError, ValueError, TypeError, ZeroDivisionError, RuntimeError) as e:
        if isinstance(e, (ZeroDivisionError, RuntimeError)):
            return f"error: value: {e}"
        return error(e)
    if isinstance(r, tuple):
        return ";".join(spell(x, with_values) for x in r)
    return spell(r, with_values)


def bool_of(text):
    return text == "1"


def row(name, fields, f):
    with_values = any(has_values(x) for x in fields if isinstance(x, str))
    return [name, *fields, outcome(f, with_values)]


def comparing():
    for a, b in [("(5,):float32:1:ni", "(5,):float32:2:ni"), ("(3,4):float64:3:n", "(4,):float64:3:n"),
                 ("(4,):int8:4:t", "(4,):int8:5:t"), ("(6,):float64:6:tn", "(6,):float64:6:tn"),
                 ("(3,):complex64:7:", "(3,):complex64:7:"), ("(2,3):float32", "(3,2):float32"),
                 ("(4,):uint8:8:t", "(4,):uint8:9:t"), ("(3,):bool", "(3,):float16"),
                 ("(5,):float64:10:", "1.5"), ("(0,):float32", "(0,):float32")]:
        for rtol, atol, nan in [("1e-05", "1e-08", "0"), ("0.5", "0.1", "1")]:
            yield row("isclose", [a, b, rtol, atol, nan],
                      lambda: np.isclose(operand(a), operand(b), float(rtol), float(atol),
                                         bool_of(nan)))
            yield row("allclose", [a, b, rtol, atol, nan],
                      lambda: np.bool_(np.allclose(operand(a), operand(b), float(rtol),
                                                   float(atol), bool_of(nan))))
        for nan in ["0", "1"]:
            yield row("array_equal", [a, b, nan],
                      lambda: np.bool_(np.array_equal(operand(a), operand(b), bool_of(nan))))
        yield row("array_equiv", [a, b], lambda: np.bool_(np.array_equiv(operand(a), operand(b))))


def averages():
    cases = [("(3,4,5):float32:11:", ["none", "0", "1", "-1", "0,2", "2,0", "3"], [None]),
             ("(3,4,5):float64:12:", ["none", "1", "0,2"], [None, "(4,):float64:13:p",
                                                            "(3,4,5):float32:14:p",
                                                            "(5,3):float64:15:p", "(4,):int32:16:p",
                                                            "(3,):float64:17:p"]),
             ("(6,):int16:18:t", ["none", "0"], [None, "(6,):float32:19:p", "(6,):float64:20:t"]),
             ("(2,3):float16:21:", ["none", "1"], [None, "(3,):float16:22:p"]),
             ("(0,3):float64", ["0", "1"], [None]),
             ("(4,):float64:23:n", ["none"], [None, "(4,):float64:24:p"])]
    for a, axes, weights in cases:
        for axis in axes:
            for w in weights:
                ws = w or "-"
                for keep in ["0", "1"]:
                    for name, returned in [("average", False), ("average_returned", True)]:
                        yield row(name, [a, axis, ws, keep],
                                  lambda: np.average(operand(a), axis_of(axis), operand(ws),
                                                     returned, keepdims=bool_of(keep)))


def medians():
    arrays = ["(5,):float64:31:", "(6,):float32:32:t", "(3,4,5):float64:33:n", "(4,6):int32:34:t",
              "(2,3,4):float16:35:", "(7,):float64:36:a", "(4,5):float64:37:na", "(0,3):float64",
              "(3,):complex64", "(3,):bool:38:t", "():float32:39:"]
    for a in arrays:
        for axis in ["none", "0", "-1", "0,2", "1,0"]:
            for keep in ["0", "1"]:
                for name, f in [("median", np.median), ("nanmedian", np.nanmedian)]:
                    yield row(name, [a, axis, keep],
                              lambda: f(operand(a), axis_of(axis), keepdims=bool_of(keep)))


METHODS = ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
           "interpolated_inverted_cdf", "hazen", "weibull", "linear", "median_unbiased",
           "normal_unbiased", "lower", "higher", "midpoint", "nearest"]


def quantiles():
    for name, f, qs in [("quantile", np.quantile, ["s:0.3", "s:0.0", "s:1.0", "l:0.1,0.5,0.9"]),
                        ("percentile", np.percentile, ["s:37.5", "l:5.0,50.0", "s:100.0"]),
                        ("nanquantile", np.nanquantile, ["s:0.3", "l:0.25,0.75"]),
                        ("nanpercentile", np.nanpercentile, ["s:62.5"])]:
        for a in ["(7,):float64:41:", "(6,):float32:42:t", "(3,5):float32:43:n", "(8,):int8:44:t",
                  "(2,3,4):float16:45:", "(4,):bool:46:t", "(6,):float64:47:a"]:
            for q in qs:
                for method in METHODS:
                    for axis in ["none", "1"] if a.startswith("(3,5)") or a.startswith("(2,3,4)") else ["none"]:
                        for keep in ["0", "1"] if axis != "none" else ["0"]:
                            qv = float(q[2:]) if q[0] == "s" else [float(v) for v in q[2:].split(",")]
                            yield row(name, [a, q, axis, method, keep],
                                      lambda: f(operand(a), qv, axis_of(axis), method=method,
                                                keepdims=bool_of(keep)))
    for name, f in [("quantile", np.quantile), ("percentile", np.percentile)]:
        for a, q, method in [("(5,):float64", "s:1.5", "linear"), ("(5,):float64", "s:-0.1", "linear"),
                             ("(5,):float64", "s:150.0", "linear"), ("(5,):float64", "s:0.5", "foo"),
                             ("(0,):float64", "s:0.5", "linear"), ("(3,):complex64", "s:0.5", "linear"),
                             ("(3,):bool", "s:0.5", "linear"), ("(4,):float32", "l:0.5,2.0", "lower")]:
            qv = float(q[2:]) if q[0] == "s" else [float(v) for v in q[2:].split(",")]
            yield row(name, [a, q, "none", method, "0"],
                      lambda: f(operand(a), qv, None, method=method))


def bins():
    for x, w, minlength in [("(6,):int64:51:p", "-", "0"), ("(6,):int64:51:p", "-", "12"),
                            ("(5,):uint8:52:t", "(5,):float32:53:", "0"), ("(0,):int64", "-", "3"),
                            ("(4,):int64:54:t", "-", "0"), ("(3,):float64", "-", "0"),
                            ("(2,2):int64", "-", "0"), ("(3,):int32:55:p", "-", "-1"),
                            ("(3,):int32:55:p", "(4,):float64", "0"), ("(4,):bool:56:t", "-", "0"),
                            ("(3,):int16:57:p", "(3,):int8:58:p", "0")]:
        yield row("bincount", [x, w, minlength],
                  lambda: np.bincount(np.trunc(operand(x)).astype(operand(x).dtype)
                                      if operand(x).dtype.kind in "iu" else operand(x),
                                      operand(w), int(minlength)))
    arrays = ["(50,):float64:61:", "(7,3):float32:62:", "(40,):int32:63:t", "(9,):float16:64:",
              "(20,):float64:65:n", "(0,):float32", "(5,):bool:66:t", "(6,):float64:67:i",
              "(4,):float64:68:t"]
    for a in arrays:
        for b in ["i:1", "i:4", "i:10", "i:0", "(5,):float64:69:t", "(4,):float32"]:
            for rng in ["-", "-2.0,3.0", "3.0,-2.0", "0.0,inf"]:
                for w in ["-", "same"]:
                    # Weights of a's shape (values where a has them), as float32.
                    ws = a.replace(a.split(":")[1], "float32") if w == "same" else "-"
                    for density in ["0", "1"]:
                        if not b.startswith("i:") and rng != "-":
                            continue
                        # With edges, NumPy sums weights as differences of cumulative sums
                        # (per 65536 elements): an infinite weight makes NaN of every bin
                        # after it. Jet adds each weight into its bin.
                        if not b.startswith("i:") and w == "same" and a.endswith("i"):
                            continue
                        edges = b if b.startswith("i:") else "sorted:" + b
                        yield row("histogram", [a, edges, rng, ws, density],
                                  lambda: np.histogram(
                                      operand(a), int(b[2:]) if b.startswith("i:") else np.sort(operand(b)),
                                      None if rng == "-" else tuple(float(v) for v in rng.split(",")),
                                      density=bool_of(density), weights=operand(ws)))
    yield row("histogram", ["(4,):float64:70:", "(3,):float64:71:", "-", "-", "0"],
              lambda: np.histogram(operand("(4,):float64:70:"), operand("(3,):float64:71:")))
    yield row("histogram", ["(4,):float64:70:", "i:3", "-", "(5,):float64", "0"],
              lambda: np.histogram(operand("(4,):float64:70:"), 3, weights=operand("(5,):float64")))


def covariances():
    for m, y in [("(3,6):float64:81:", "-"), ("(6,):float32:82:", "-"), ("(6,):float64:83:", "(6,):float64:84:"),
                 ("(2,5):float64:85:", "(5,):float64:86:"), ("(3,5):int32:87:t", "-"), ("(1,5):float64:88:", "-"),
                 ("(0,3):float64", "-"), ("(2,3,4):float64", "-"), ("(3,4):complex128:89:", "-"),
                 ("(4,1):float64:90:", "-")]:
        for rowvar in ["1", "0"]:
            for bias, ddof in [("0", "-"), ("1", "-"), ("0", "0"), ("0", "2")]:
                yield row("cov", [m, y, rowvar, bias, ddof, "-", "-"],
                          lambda: np.cov(operand(m), operand(y), bool_of(rowvar), bool_of(bias),
                                         None if ddof == "-" else int(ddof)))
            yield row("corrcoef", [m, y, rowvar],
                      lambda: np.corrcoef(operand(m), operand(y), bool_of(rowvar)))
    m = "(3,6):float64:81:"
    for fw, aw in [("(6,):int64:91:p", "-"), ("-", "(6,):float64:92:p"), ("(6,):int64:91:p", "(6,):float64:92:p"),
                   ("(6,):float64:93:", "-"), ("(6,):float64:93:t", "-"), ("(5,):int64:91:p", "-"),
                   ("(2,3):int64", "-"),
                   ("-", "(6,):float64:94:")]:
        for ddof in ["-", "0"]:
            yield row("cov", [m, "-", "1", "0", ddof, fw, aw],
                      lambda: np.cov(operand(m), None, True, False,
                                     None if ddof == "-" else int(ddof),
                                     operand(fw),
                                     operand(aw)))


def nan_args():
    for a in ["(6,):float64:101:n", "(3,4):float32:102:n", "(4,5):float64:103:na", "(5,):int16:104:t",
              "(0,):float64", "(2,0):float64", "(3,):complex64:105:"]:
        for axis in ["none", "0", "1"]:
            for keep in ["0", "1"]:
                for name, f in [("nanargmin", np.nanargmin), ("nanargmax", np.nanargmax)]:
                    yield row(name, [a, axis, keep],
                              lambda: f(operand(a), axis_of(axis), keepdims=bool_of(keep)))


def uniques():
    for a in ["(12,):int32:51:t", "(3,4):float64:52:tn", "(10,):float32:53:", "(0,):float64",
              "():int16:54:t", "(6,):complex64:55:t", "(8,):bool:56:t", "(9,):uint8:57:t",
              "(7,):float16:58:tn", "(2,3,4):int8:59:t", "(2,0,3):float32"]:
        for returns in ["-", "i", "v", "c", "ivc"]:
            for nan in ["1", "0"] if a.endswith("n") else ["1"]:
                yield row("unique", [a, returns, "none", nan],
                          lambda: np.unique(operand(a), "i" in returns, "v" in returns,
                                            "c" in returns, equal_nan=nan == "1"))
        for name in ["unique_all", "unique_counts", "unique_inverse"]:
            yield row(name, [a], lambda: getattr(np, name)(operand(a)))
        # NumPy leaves unique_values' order unspecified (since 2.3, a hash table's); Jet's is
        # sorted, as unique's.
        yield row("unique_values", [a], lambda: np.sort(np.unique_values(operand(a))))
    for a, axes in [("(8,2):bool:60:t", ["0", "1", "-1", "2"]), ("(9,2):int8:61:t", ["0"]),
                    ("(3,4,2):float32:62:t", ["0", "1", "2"]), ("(2,0,3):float64", ["0", "1", "3", "-4"]),
                    ("(5,3):float64:63:tn", ["0"]), ("():int32:64:t", ["0"])]:
        for axis in axes:
            for returns in ["-", "ivc"]:
                yield row("unique", [a, returns, axis, "1"],
                          lambda: np.unique(operand(a), "i" in returns, "v" in returns,
                                            "c" in returns, axis=int(axis)))


def set_pairs():
    pairs = [("(10,):int32:71:t", "(8,):int32:72:t"), ("(3,4):float64:73:tn", "(5,):float32:74:tn"),
             ("(6,):int8:75:t", "(0,):int8"), ("(0,):float32", "(0,):float32"),
             ("(7,):complex128:76:t", "(4,):complex128:77:t"),
             ("(9,):uint16:78:t", "(3,):int64:79:t"), ("(5,):bool:80:t", "(3,):bool:81:t"),
             ("(2,3):int16:82:t", "4")]
    for a, b in pairs:
        for invert in ["0", "1"]:
            yield row("isin", [a, b, invert],
                      lambda: np.isin(operand(a), operand(b), invert=invert == "1"))
        for name in ["intersect1d", "setdiff1d", "setxor1d"]:
            yield row(name, [a, b, "0"], lambda: getattr(np, name)(operand(a), operand(b)))
        yield row("intersect1d_indices", [a, b, "0"],
                  lambda: np.intersect1d(operand(a), operand(b), return_indices=True))
        yield row("union1d", [a, b], lambda: np.union1d(operand(a), operand(b)))
    # Unique inputs (the same values where they overlap), as assume_unique requires.
    a, b = "(6,):float64:83:", "(4,):float64:83:"
    for name in ["intersect1d", "setdiff1d", "setxor1d"]:
        yield row(name, [a, b, "1"],
                  lambda: getattr(np, name)(operand(a), operand(b), assume_unique=True))
    yield row("intersect1d_indices", [a, b, "1"],
              lambda: np.intersect1d(operand(a), operand(b), True, return_indices=True))


def dd_bins(text):
    if text.startswith("i:"):
        counts = [int(c) for c in text[2:].split(",")]
        return counts[0] if len(counts) == 1 else counts
    return [np.sort(operand(e[7:])) if e.startswith("sorted:") else operand(e)
            for e in text[2:].split(";")]


def dd_range(text):
    if text == "-":
        return None
    return [tuple(float(v) for v in pair.split(",")) for pair in text.split(";")]


def histograms_dd():
    for sample, bins, rng in [("(50,2):float64:91:", "i:4", "-"), ("(50,3):float32:92:", "i:3,2,5", "-"),
                              ("(40,2):int16:93:t", "i:3", "-"),
                              ("(30,2):float64:94:", "i:4", "-2.0,2.0;0.0,5.0"),
                              ("(20,):float64:95:", "i:6", "-"),
                              ("(30,2):float64:96:", "e:(4,):float64:97:p;(3,):float32:98:p", "-"),
                              ("(30,2):float64:96:",
                               "e:sorted:(4,):float64:97:;sorted:(3,):float32:98:", "-"),
                              ("(0,2):float64", "i:3", "-"), ("(10,2):float64:99:t", "i:0", "-"),
                              ("(10,2):float64:100:", "i:3,3,3", "-")]:
        for weights in ["-", "(" + sample[1:sample.index(",")] + ",):float64:101:p"
                        if "," in sample[:sample.index(")")] else "(20,):float64:101:p"]:
            for density in ["0", "1"]:
                yield row("histogramdd", [sample, bins, rng, weights, density],
                          lambda: (lambda r: (r[0], *r[1]))(
                              np.histogramdd(operand(sample), dd_bins(bins), dd_range(rng),
                                             density=density == "1", weights=operand(weights))))
    for x, y, bins, rng in [("(40,):float64:102:", "(40,):float64:103:", "i:5", "-"),
                            ("(40,):float32:104:", "(40,):float32:105:", "i:3,4", "0.0,5.0;-5.0,5.0"),
                            ("(30,):float64:106:", "(30,):float64:107:", "e:(5,):float64:108:p", "-"),
                            ("(30,):float64:106:", "(30,):float64:107:", "e:sorted:(5,):float64:108:",
                             "-")]:
        for density in ["0", "1"]:
            yield row("histogram2d", [x, y, bins, rng, "-", density],
                      lambda: np.histogram2d(operand(x), operand(y), dd_bins(bins)
                                             if not bins.startswith("e:") or ";" in bins
                                             else dd_bins(bins)[0], dd_range(rng),
                                             density=density == "1"))


def main():
    rows = [*comparing(), *averages(), *medians(), *quantiles(), *bins(), *covariances(),
            *nan_args(), *uniques(), *set_pairs(), *histograms_dd()]
    path = pathlib.Path(__file__).with_name("statistics.tsv")
    path.write_text("".join("\t".join(r) + "\n" for r in rows))


if __name__ == "__main__":
    main()
