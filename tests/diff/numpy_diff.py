#!/usr/bin/env python3
"""The differential test against NumPy: random expressions of every ufunc and reduction over
every dtype NumPy has (bfloat16 aside: NumPy has none), with broadcast, strided, reversed,
transposed, zero-size and 0-d operands and weak Python scalars, evaluated by Jet
(jet_numpy_diff) and by NumPy on the same inputs in the same run.

  numpy_diff.py --jet build/tests/jet_numpy_diff [--cases 10000] [--seed N] [--work DIR]

Prints the cases run, the cases NumPy itself calls undefined (a cast of NaN or of an
out-of-range float to an integer) and every failure; exits 1 on a failure, 77 (skipped)
without NumPy or a GPU.

Results that go through an inexact function (the transcendental ones, complex products and
quotients, float sums) compare within a tolerance of their dtype; everything else must be
identical. Operations that turn a last-bit difference into a different answer (comparisons,
floor, casts to integers, ...) only take exact operands, so that a fair difference in the last
bit of a sine never reads as a failure.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor

try:
    import numpy as np
except ImportError:
    print("numpy_diff: skipped, no NumPy")
    sys.exit(77)

DTYPES = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128"]
UNARY = ["negative", "positive", "invert", "absolute", "sign", "sqrt", "cbrt", "square",
         "reciprocal", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
         "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
         "arctanh", "floor", "ceil", "trunc", "rint", "degrees", "radians", "isnan", "isinf",
         "isfinite", "logical_not", "real", "imag", "conjugate", "angle"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod",
          "power", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift",
          "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
          "logical_and", "logical_or", "logical_xor", "maximum", "minimum", "fmax", "fmin",
          "arctan2", "hypot", "copysign"]
# Functions whose float results may differ from NumPy's in the last bits.
INEXACT = {"cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sin", "cos",
           "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
           "arctanh", "power", "arctan2", "hypot", "angle"}
# ... and these when they compute in complex.
INEXACT_COMPLEX = {"absolute", "sign", "sqrt", "reciprocal", "divide", "multiply", "square"}
# Functions that turn a last-bit difference into a different answer: exact operands only.
DISCONTINUOUS = {"floor", "ceil", "trunc", "rint", "sign", "isnan", "isinf", "isfinite",
                 "logical_not", "invert", "floor_divide", "remainder", "fmod", "equal",
                 "not_equal", "less", "less_equal", "greater", "greater_equal", "logical_and",
                 "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor",
                 "left_shift", "right_shift", "where", "maximum", "minimum", "fmax", "fmin",
                 "copysign"}
REDUCTIONS = ["sum", "prod", "mean", "var", "std", "min", "max", "ptp", "argmin", "argmax",
              "all", "any", "count_nonzero", "nansum", "nanmean", "nanmin", "nanmax"]
INEXACT_REDUCTIONS = {"sum", "prod", "mean", "var", "std", "nansum", "nanmean"}
EXACT_ONLY_REDUCTIONS = {"argmin", "argmax", "all", "any", "count_nonzero", "min", "max",
                         "ptp", "nanmin", "nanmax"}
DIMS = [1, 2, 3, 4, 5, 7, 16, 33]
# NumPy's exceptions by the jet::error class that corresponds (jet has no overflow_error).
ERROR_CLASS = {TypeError: "TypeError", OverflowError: "ValueError", ValueError: "ValueError",
               IndexError: "IndexError"}
RTOL = {"float16": 1e-2, "float32": 2e-5, "float64": 1e-11, "complex64": 2e-5,
        "complex128": 1e-11}


class generator:
    """One case: inputs (base arrays and their views) and an expression tree over them."""

    def __init__(self, rng):
        self.rng = rng
        self.inputs = []
        self.shapes = []  # each input's shape, as its view has it
        self.data = bytearray()

    def pick(self, items):
        return items[self.rng.integers(len(items))]

    def values(self, dtype, n):
        r = self.rng
        if dtype == "bool":
            return r.random(n) < 0.5
        if dtype.startswith(("int", "uint")):
            info = np.iinfo(dtype)
            low = 0 if dtype.startswith("uint") else -9
            small = r.integers(low, 13, n)
            wide = r.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
            return np.where(r.random(n) < 0.85, small, wide).astype(dtype)
        real = "float64" if dtype in ("float64", "complex128") else "float32"
        if dtype.startswith("complex"):
            v = np.empty(n, dtype)
            v.real, v.imag = self.values(real, n), self.values(real, n)
            return v
        halves = r.integers(-8, 9, n) / 2
        normal = r.normal(0, 3, n)
        special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-3, 65504.0, 1e30])
        choice = r.random(n)
        v = np.where(choice < 0.55, halves, np.where(choice < 0.93, normal,
                                                      special[r.integers(0, 8, n)]))
        with np.errstate(over="ignore"):  # 1e30 is inf in float16
            return v.astype(dtype)

    def shape_like(self, out_shape):
        """A shape that broadcasts to out_shape: leading axes dropped, some set to 1."""
        drop = self.rng.integers(0, len(out_shape) + 1) if self.rng.random() < 0.3 else 0
        return tuple(1 if self.rng.random() < 0.25 else d for d in out_shape[drop:])

    def new_input(self, out_shape):
        dtype = self.pick(DTYPES)
        shape = self.shape_like(out_shape)
        base, slices, transpose = list(shape), [], False
        layout = self.rng.random()
        if shape and layout < 0.15:  # every other element along one axis
            axis = self.rng.integers(len(shape))
            base[axis] = 2 * shape[axis]
            slices = [[None, None, 2 if a == axis else 1] for a in range(len(shape))]
        elif shape and layout < 0.25:  # reversed along one axis
            axis = self.rng.integers(len(shape))
            slices = [[None, None, -1 if a == axis else 1] for a in range(len(shape))]
        elif len(shape) >= 2 and layout < 0.35:
            base, transpose = base[::-1], True
        count = int(np.prod(base)) if base else 1
        values = self.values(dtype, count).reshape(base)
        while len(self.data) % 16:
            self.data.append(0)
        self.inputs.append({"dtype": dtype, "base": base, "offset": len(self.data),
                            "slices": slices, "transpose": transpose})
        self.data += values.tobytes()
        self.shapes.append(shape)
        return {"in": len(self.inputs) - 1}

    def scalar(self):
        r = self.rng.random()
        if r < 0.15:
            return {"scalar": {"kind": "bool", "value": bool(self.rng.random() < 0.5)}}
        if r < 0.6:
            big = [300, -7, -129, 70000, 2**33, -2**40, 2**63 - 1, 2**64 - 1]
            v = self.pick(big) if self.rng.random() < 0.1 else int(self.rng.integers(-3, 6))
            return {"scalar": {"kind": "int", "value": int(v)}}
        if r < 0.9:
            v = self.pick([0.5, -1.5, 2.0, 3.0, 1e-3, 100.0, -0.0, 0.0])
            return {"scalar": {"kind": "float", "value": float(v)}}
        v = self.pick([1 + 2j, -0.5j, 2 + 0j])
        return {"scalar": {"kind": "complex", "re": v.real, "im": v.imag}}

    def leaf(self, out_shape):
        if self.rng.random() < 0.15:
            return self.scalar(), True, ()
        if self.inputs and self.rng.random() < 0.3:
            k = int(self.rng.integers(len(self.inputs)))
            return {"in": k}, True, self.shapes[k]
        node = self.new_input(out_shape)
        return node, True, self.shapes[-1]

    def expr(self, depth, out_shape, exact_only=False):
        """A node, whether its value is exact (free of last-bit differences), its shape."""
        r = self.rng.random()
        if depth == 0 or r < 0.2:
            return self.leaf(out_shape)
        if r < 0.28:
            arg, exact, shape = self.expr(depth - 1, out_shape, exact_only)
            to = self.pick(DTYPES)
            if not exact and not np.issubdtype(np.dtype(to), np.inexact):
                return arg, exact, shape
            return {"op": "astype", "dtype": to, "args": [arg]}, exact, shape
        if r < 0.34 and out_shape:  # a reduction kept as an operand: keepdims broadcasts
            return self.reduction(depth, out_shape, True, exact_only)
        if r < 0.4:
            op, arity = "where", 3
        elif r < 0.7:
            op, arity = self.pick(UNARY), 1
        else:
            op, arity = self.pick(BINARY), 2
        if exact_only and op in INEXACT:
            op, arity = self.pick(["add", "multiply", "subtract"]), 2
        # An inexact function takes exact operands: composed, two of them can turn a fair
        # last-bit difference into any difference at all (tan of a large expm1, ...).
        exact_args = exact_only or op in DISCONTINUOUS or op in INEXACT
        args, exact, shape = [], True, ()
        for _ in range(arity):
            a, e, s = self.expr(depth - 1, out_shape, exact_args)
            args.append(a)
            exact, shape = exact and e, np.broadcast_shapes(shape, s)
        exact = exact and op not in INEXACT and op not in INEXACT_COMPLEX
        return {"op": op, "args": args}, exact, shape

    def reduction(self, depth, out_shape, keepdims, exact_only):
        name = self.pick(REDUCTIONS)
        if exact_only and name in INEXACT_REDUCTIONS:
            name = self.pick(sorted(EXACT_ONLY_REDUCTIONS))
        arg, exact, shape = self.expr(depth - 1, out_shape,
                                      exact_only or name in EXACT_ONLY_REDUCTIONS)
        nd = len(shape)
        if nd == 0 or name in ("argmin", "argmax") or self.rng.random() < 0.5:
            axis = None if nd == 0 or self.rng.random() < 0.3 else int(self.rng.integers(-nd, nd))
            reduced = set(range(nd)) if axis is None else {axis % nd}
        else:
            axis = sorted({int(a) for a in self.rng.integers(0, nd, self.rng.integers(1, 3))})
            reduced = set(axis)
        node = {"op": "reduce", "name": name, "axis": axis, "keepdims": keepdims,
                "args": [arg]}
        if name in ("var", "std"):
            node["ddof"] = int(self.rng.integers(0, 2))
        shape = tuple(1 if a in reduced else d for a, d in enumerate(shape) if keepdims or
                      a not in reduced)
        return node, exact and name not in INEXACT_REDUCTIONS, shape

    def case(self):
        nd = int(self.rng.integers(0, 4))
        out_shape = tuple(int(self.pick(DIMS)) for _ in range(nd))
        if nd and self.rng.random() < 0.03:
            out_shape = out_shape[:-1] + (0,)
        depth = int(self.rng.integers(1, 4))
        if self.rng.random() < 0.2:
            tree, exact, _ = self.reduction(depth, out_shape, self.rng.random() < 0.5, False)
        else:
            tree, exact, _ = self.expr(depth, out_shape)
            if not self.inputs:  # Jet's results are arrays: give NumPy an array too
                tree = {"op": "add", "args": [tree, self.new_input(out_shape)]}
        return {"inputs": self.inputs, "expr": tree}


# NumPy's side.

def numpy_inputs(case, data):
    arrays = []
    for spec in case["inputs"]:
        count = int(np.prod(spec["base"])) if spec["base"] else 1
        a = np.frombuffer(data, spec["dtype"], count, spec["offset"]).reshape(spec["base"])
        if spec["slices"]:
            a = a[tuple(slice(*s) for s in spec["slices"])]
        arrays.append(a.T if spec["transpose"] else a)
    return arrays


def scalar_value(s):
    if s["kind"] == "complex":
        return complex(s["re"], s["im"])
    return {"bool": bool, "int": int, "float": float}[s["kind"]](s["value"])


def inexact(node, value, args):
    """Whether NumPy's and Jet's values of this node may differ in the last bits."""
    if np.asarray(value).dtype.kind not in "fc":
        return False
    if node["op"] == "reduce":
        return node["name"] in INEXACT_REDUCTIONS
    complex_args = any(np.asarray(a).dtype.kind == "c" for a in args)
    return node["op"] in INEXACT or (complex_args and node["op"] in INEXACT_COMPLEX)


class context:
    """How one evaluation by NumPy goes: with NaNs made positive at every node (the GPU's
    NaN, where x86 makes them negative: IEEE leaves a NaN's sign open), and whether its
    non-finite values are open: where a product may meet an infinity (which values come out
    NaN, infinite or finite then depends on the order of the products, which a parallel
    reduction cannot keep), or where a complex power's phase has no correct digit left."""

    def __init__(self, positive_nans=False):
        self.positive_nans = positive_nans
        self.open_nonfinite = False


def positive_nans(value):
    v = np.asarray(value)
    if v.dtype.kind == "c" and np.isnan(v).any():
        out = np.empty_like(v)
        out.real, out.imag = positive_nans(v.real), positive_nans(v.imag)
        return out
    if v.dtype.kind == "f" and np.isnan(v).any():
        return np.where(np.isnan(v), np.abs(v), v).astype(v.dtype)
    return value


def nonfinite(v):
    return ~np.isfinite(v.real) | ~np.isfinite(v.imag) if v.dtype.kind == "c" else ~np.isfinite(v)


def reduce(node, arg, ctx):
    axis = tuple(node["axis"]) if isinstance(node["axis"], list) else node["axis"]
    extra = {"ddof": node["ddof"]} if "ddof" in node else {}
    # Jet's float16 var and std accumulate in float32 and round once (README): NumPy's own
    # float16 mean and squares overflow (np.var(np.ones(70000, np.float16)) is inf).
    if node["name"] in ("var", "std") and np.asarray(arg).dtype == np.float16:
        extra["dtype"] = np.float32
    value = np.asarray(getattr(np, node["name"])(arg, axis=axis, keepdims=node["keepdims"],
                                                 **extra))
    if node["name"] == "prod" and value.dtype.kind in "fc" and products_may_overflow(arg, axis):
        ctx.open_nonfinite = True
    return value.astype(np.float16) if "dtype" in extra else value


def products_may_overflow(arg, axis):
    """Whether some order of a product's factors meets an infinity: an infinite factor, or
    the factors above 1 multiplying past the dtype's largest value."""
    a = np.asarray(arg)
    m = np.abs(a).astype(np.longdouble)
    if np.isinf(m).any():
        return True
    with np.errstate(over="ignore"):
        big = np.prod(np.where(m > 1, m, 1), axis=axis)
    return bool(np.any(big > np.finfo(a.dtype).max / 4))


def reduction_tolerance(node, arg, value):
    """A variance's rounding grows with the inputs' magnitude over the spread (the mean's last
    bit against the deviations): its relative tolerance, scaled by that ratio."""
    rtol = RTOL[value.dtype.name]
    if node["name"] not in ("var", "std") or value.size == 0:
        return rtol
    a = np.abs(np.asarray(arg)).astype(np.float64)
    a = a[np.isfinite(a)]
    v = np.abs(value.astype(np.float64))
    spread = v[np.isfinite(v)]
    if not a.size or not spread.size:
        return rtol
    spread = float(np.max(spread)) ** (0.5 if node["name"] == "var" else 1.0)
    return rtol * max(1.0, float(np.max(a)) / max(spread, 1e-300))


def power_tolerance(base, exponent, value, ctx):
    """A complex power is exp(y log x): its rounding grows with |y log x| (an angle of 4e4
    radians leaves float32 three digits, NumPy's own result among them). The relative tolerance
    that leaves; past one radian per rounding unit nothing of the phase is left, not even the
    signs of its infinities."""
    eps = np.finfo(value.dtype).eps
    with np.errstate(all="ignore"):
        w = np.abs(np.asarray(exponent, np.complex128) * np.log(np.asarray(base, np.complex128)))
    w = w[np.isfinite(w)]
    spread = float(np.max(w)) * eps if w.size else 0.0
    if spread >= 1:
        ctx.open_nonfinite = True
    return max(RTOL[value.dtype.name], 8 * spread)


def evaluate(node, arrays, ctx):
    """NumPy's value of the node, and the relative tolerance its inexact parts allow (0: the
    value must be identical)."""
    if "in" in node:
        return arrays[node["in"]], 0.0
    if "scalar" in node:
        return scalar_value(node["scalar"]), 0.0
    args, tolerances = zip(*(evaluate(a, arrays, ctx) for a in node["args"]))
    if node["op"] == "astype":
        value = np.asarray(args[0]).astype(node["dtype"])
    elif node["op"] == "reduce":
        value = reduce(node, args[0], ctx)
    else:
        value = getattr(np, node["op"])(*args)
    if ctx.positive_nans:
        value = positive_nans(value)
    own = 0.0
    if inexact(node, value, args):
        v = np.asarray(value)
        if node["op"] == "reduce":
            own = reduction_tolerance(node, args[0], v)
        elif node["op"] == "power" and v.dtype.kind == "c":
            own = power_tolerance(args[0], args[1], v, ctx)
        else:
            own = RTOL[v.dtype.name]
    return value, max(own, *tolerances)


def text(node, case):
    """The case's expression as NumPy code, for the report."""
    if "in" in node:
        spec = case["inputs"][node["in"]]
        view = "".join(f"[{'' if s[0] is None else s[0]}::{s[2]}]" for s in spec["slices"]
                       if s[2] != 1)
        return f"a{node['in']}<{spec['dtype']}{tuple(spec['base'])}{view}{'.T' if spec['transpose'] else ''}>"
    if "scalar" in node:
        return repr(scalar_value(node["scalar"]))
    args = ", ".join(text(a, case) for a in node["args"])
    if node["op"] == "astype":
        return f"({args}).astype({node['dtype']})"
    if node["op"] == "reduce":
        return (f"np.{node['name']}({args}, axis={node['axis']}, keepdims={node['keepdims']}"
                f"{', ddof=%d' % node['ddof'] if 'ddof' in node else ''})")
    return f"np.{node['op']}({args})"


def mismatches(expected, got, rtol, scale=None):
    """The elements that differ: any difference when rtol is 0 (NaN matching NaN), else one
    past rtol of the values' scale (the largest finite magnitude; of complex values the
    magnitude of the whole number, since a complex product rounds each part relative to it)."""
    if expected.dtype.kind in "biu":
        return expected != got
    if expected.dtype.kind == "c":
        magnitude = np.abs(expected.astype(np.complex128))
        magnitude = magnitude[np.isfinite(magnitude)]
        whole = max(1.0, float(np.max(magnitude))) if magnitude.size else 1.0
        return (mismatches(expected.real, got.real, rtol, whole) |
                mismatches(expected.imag, got.imag, rtol, whole))
    nan, got_nan = np.isnan(expected), np.isnan(got)
    both = ~nan & ~got_nan
    if rtol == 0:
        return (nan != got_nan) | (both & (expected != got))
    finite = np.isfinite(expected)
    e, g = expected.astype(np.float64), got.astype(np.float64)
    if scale is None:
        scale = max(1.0, float(np.max(np.abs(e[finite])))) if finite.any() else 1.0
    with np.errstate(invalid="ignore"):
        far = np.where(finite, np.abs(e - g) > rtol * scale, expected != got)
    return (nan != got_nan) | (both & far)


def check(case, result, data, outputs):
    """None when Jet and NumPy agree, "undefined" when NumPy calls the result undefined, else
    a description of the difference."""
    arrays = numpy_inputs(case, data)
    # Only "invalid" warns, for the casts NumPy calls undefined (of NaN, inf, out of range).
    with warnings.catch_warnings(record=True) as caught, np.errstate(all="ignore",
                                                                     invalid="warn"):
        warnings.simplefilter("always")
        try:
            ctx = context()
            expected, rtol = evaluate(case["expr"], arrays, ctx)
            expected = np.asarray(expected)
            error = None
        except tuple(ERROR_CLASS) as e:
            expected, error = None, (ERROR_CLASS[type(e)] if type(e) in ERROR_CLASS else
                                     next(v for k, v in ERROR_CLASS.items() if isinstance(e, k)),
                                     str(e))
    if any("invalid value encountered in cast" in str(w.message) for w in caught):
        return "undefined"
    if error:
        if result["ok"]:
            return f"NumPy raises {error[0]}: {error[1]}; Jet gives {result['dtype']}"
        if result["error"] != error[0]:
            return f"NumPy raises {error[0]}: {error[1]}; Jet {result['error']}: {result['message']}"
        return None
    if not result["ok"]:
        return f"Jet raises {result['error']}: {result['message']}; NumPy gives {expected.dtype}"
    if result["dtype"] != expected.dtype.name:
        return f"dtype: NumPy {expected.dtype.name}, Jet {result['dtype']}"
    if tuple(result["shape"]) != expected.shape:
        return f"shape: NumPy {expected.shape}, Jet {tuple(result['shape'])}"
    got = np.frombuffer(outputs, expected.dtype, expected.size,
                        result["offset"]).reshape(expected.shape)
    wrong = np.asarray(mismatches(expected, got, rtol))
    if wrong.any() and ctx.open_nonfinite:
        wrong &= ~(nonfinite(expected) | nonfinite(got))
    if wrong.any():
        with np.errstate(all="ignore"):
            alternative, _ = evaluate(case["expr"], arrays, context(positive_nans=True))
        wrong &= np.asarray(mismatches(np.asarray(alternative), got, rtol))
    if wrong.any():
        show = lambda a: np.array2string(a[wrong].ravel()[:4], max_line_width=10**6)
        return (f"values (rtol {rtol:g}): {int(wrong.sum())} of {expected.size} differ, at "
                f"{np.flatnonzero(wrong)[:4].tolist()}; NumPy {show(expected)}, Jet {show(got)}")
    return None


def run_jet(jet, work, shard, cases, data):
    if not cases:
        return [], b""
    folder = os.path.join(work, f"shard{shard}")
    os.makedirs(folder, exist_ok=True)
    paths = [os.path.join(folder, n) for n in ("cases.json", "inputs.bin", "results.json",
                                               "outputs.bin")]
    with open(paths[0], "w") as f:
        json.dump(cases, f)
    with open(paths[1], "wb") as f:
        f.write(data)
    done = subprocess.run([jet, *paths], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"jet_numpy_diff shard {shard} failed ({done.returncode}): "
                           f"{done.stderr[-2000:]}")
    with open(paths[2]) as f, open(paths[3], "rb") as g:
        return json.load(f), g.read()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jet", required=True, help="the jet_numpy_diff program")
    parser.add_argument("--cases", type=int, default=10000)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--work", default="numpy-diff")
    parser.add_argument("--jobs", type=int, default=os.cpu_count())
    parser.add_argument("--show", type=int, default=40, help="failures to print")
    parser.add_argument("--match", action="append", default=[],
                        help="run only the cases whose text holds this (with --seed: one failure)")
    args = parser.parse_args()
    if shutil.which("nvidia-smi") is None or subprocess.run(
            ["nvidia-smi", "-L"], capture_output=True).returncode != 0:
        print("numpy_diff: skipped, no GPU")
        sys.exit(77)
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "little")
    rng = np.random.default_rng(seed)
    # Each shard is one process: most of the time is NVRTC compiling a kernel per case.
    shards = [[] for _ in range(args.jobs)]
    for i in range(args.cases):
        g = generator(rng)
        c = g.case()
        if not args.match or any(m in text(c["expr"], c) for m in args.match):
            shards[i % args.jobs].append((c, bytes(g.data)))
    packed = []
    for cases in shards:
        data = bytearray()
        for c, d in cases:
            while len(data) % 16:
                data.append(0)
            for spec in c["inputs"]:
                spec["offset"] += len(data)
            data += d
        packed.append(([c for c, _ in cases], bytes(data)))
    with ThreadPoolExecutor(args.jobs) as pool:
        outs = list(pool.map(lambda k: run_jet(args.jet, args.work, k, *packed[k]),
                             range(args.jobs)))
    failures, undefined = [], 0
    for (cases, data), (results, outputs) in zip(packed, outs):
        for c, r in zip(cases, results):
            why = check(c, r, data, outputs)
            if why == "undefined":
                undefined += 1
            elif why:
                failures.append((text(c["expr"], c), why))
    for expression, why in failures[:args.show]:
        print(f"FAIL {expression}\n     {why}")
    ran = sum(len(cases) for cases, _ in packed)
    print(f"numpy_diff: seed {seed}, {ran} cases, {undefined} undefined in NumPy "
          f"(skipped), {len(failures)} failures")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
