#!/usr/bin/env python3
"""Writes printing.tsv: NumPy's repr and str of arrays, which tests/host/test_printing.cpp
checks through Jet's formatter (src/print) on the same values, without a GPU.

Rows, tab-separated:

  CASE  DTYPE  SHAPE  OPTIONS  VALUES  REPR  STR

SHAPE is comma-separated ("" for 0-d). OPTIONS is "-" or name=value pairs joined by ';' (the
arguments of np.printoptions). VALUES are the elements in C order, comma-separated, each as
Python writes the float64 (or, for complex, real and imaginary parts joined by '/') that holds
it exactly, or the integer, or 0/1 for bool. REPR and STR have their newlines written as "\\n".

Run from anywhere: python3 tests/host/data/generate_printing.py
"""
import pathlib

import numpy as np

rng = np.random.default_rng(20261205)
rows = []


def value_text(x, dtype):
    if dtype.kind == 'c':
        return f"{float(x.real)!r}/{float(x.imag)!r}"
    if dtype.kind == 'f':
        return repr(float(x))
    if dtype.kind == 'b':
        return '1' if x else '0'
    return str(int(x))


def add(name, a, **options):
    a = np.asarray(a)
    opts = ';'.join(f"{k}={v}" for k, v in options.items()) or '-'
    with np.printoptions(**options):
        r, s = repr(a), str(a)
    values = ','.join(value_text(x, a.dtype) for x in a.reshape(-1))
    shape = ','.join(str(n) for n in a.shape)
    rows.append('\t'.join([name, str(a.dtype), shape, opts, values,
                           r.replace('\n', '\\n'), s.replace('\n', '\\n')]))


special = [np.nan, np.inf, -np.inf, -0.0, 0.0]
for dt in ['float64', 'float32', 'float16']:
    t = np.dtype(dt)
    add(f"{dt} small", np.array([1.0, 2.5, -3.25], dt))
    add(f"{dt} ints", np.array([1.0, 2.0, 3.0], dt))
    add(f"{dt} 2x2", np.array([[1.0, 2.0], [3.0, 4.0]], dt))
    add(f"{dt} random", rng.standard_normal(7).astype(dt))
    add(f"{dt} wide range", np.array([1e-5, 1.0, 123456.0], dt) if dt != 'float16'
        else np.array([1e-3, 1.0, 30000.0], dt))
    add(f"{dt} specials", np.array(special + [1.5], dt))
    add(f"{dt} only specials", np.array([np.nan, -np.inf], dt))
    add(f"{dt} 0-d", np.array(3.5, dt))
    add(f"{dt} empty", np.zeros(0, dt))
    add(f"{dt} empty 2-d", np.zeros((0, 3), dt))
    add(f"{dt} long row", rng.uniform(-10, 10, 40).astype(dt))
    add(f"{dt} 3-d", rng.uniform(0, 1, (2, 3, 4)).astype(dt))
    add(f"{dt} summarized", np.arange(2000, dtype=dt) / 7)
    add(f"{dt} summarized 2-d", (np.arange(40 * 40, dtype=dt) / 3).reshape(40, 40))
    add(f"{dt} tiny", np.array([1e-30, 2e-30], dt) if dt != 'float16' else np.array([1e-7, 3e-7], dt))
    add(f"{dt} big", np.array([1e10, 3e12], dt) if dt != 'float16' else np.array([6e4, 1.0], dt))
    add(f"{dt} negative zero", np.array([-0.0], dt))
for mode in ['fixed', 'unique', 'maxprec', 'maxprec_equal']:
    add(f"floatmode {mode}", np.array([0.1, 0.25, 1 / 3, 12.0]), floatmode=mode)
    add(f"floatmode {mode} precision 3", np.array([0.1, 0.25, 1 / 3, 12.0]), floatmode=mode,
        precision=3)
    add(f"floatmode {mode} exp", np.array([1e-6, 0.25, 1 / 3]), floatmode=mode)
add("suppress", np.array([1e-10, 1.0, 123.5]), suppress=True)
add("suppress big", np.array([1e-10, 1e9]), suppress=True)
add("precision 2", np.array([3.14159, 2.71828]), precision=2)
add("sign +", np.array([1.0, -2.0, 0.0]), sign='+')
add("sign space", np.array([1.0, 2.0]), sign=' ')
add("sign space negative", np.array([1.0, -2.0]), sign=' ')
add("threshold 5", np.arange(10.0), threshold=5)
add("edgeitems 1", np.arange(2000.0), edgeitems=1)
add("linewidth 30", np.arange(20.0), linewidth=30)
add("nanstr", np.array([np.nan, 1.0, np.inf]), nanstr='NaN', infstr='Inf')
for dt in ['int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64']:
    t = np.dtype(dt)
    info = np.iinfo(t)
    add(f"{dt} range", np.array([info.min, 0, info.max], dt))
    add(f"{dt} arange", np.arange(12, dtype=dt).reshape(3, 4))
    add(f"{dt} 0-d", np.array(7, dt))
    add(f"{dt} empty", np.zeros(0, dt))
    add(f"{dt} summarized", np.arange(1500, dtype=np.int64).astype(dt))
add("int64 sign +", np.array([1, -2, 30]), sign='+')
add("int64 sign space", np.array([1, 2, 30]), sign=' ')
add("int64 sign space negative", np.array([1, -2, 30]), sign=' ')
add("int64 long row", np.arange(100) * 12345)
add("int64 4-d", np.arange(24).reshape(1, 2, 3, 4))
add("bool", np.array([True, False, True]))
add("bool all true", np.array([True, True]))
add("bool 2-d", np.array([[True, False], [False, True]]))
add("bool 0-d", np.array(True))
add("bool empty", np.zeros((2, 0), bool))
add("bool summarized", np.arange(1200) % 3 == 0)
for dt in ['complex128', 'complex64']:
    add(f"{dt} small", np.array([1 + 2j, -3.5 - 0.25j, 0j], dt))
    add(f"{dt} random", (rng.standard_normal(5) + 1j * rng.standard_normal(5)).astype(dt))
    add(f"{dt} specials", np.array([complex(np.nan, 1), complex(1, np.inf), complex(-np.inf, -0.0),
                                     2 + 3j], dt))
    add(f"{dt} exp", np.array([1e-8 + 1j, 1e5 - 2j], dt))
    add(f"{dt} 0-d", np.array(1.5 - 2j, dt))
    add(f"{dt} 2-d", (np.arange(6) + 1j * np.arange(6)[::-1]).reshape(2, 3).astype(dt))
    add(f"{dt} summarized", (np.arange(1100) + 0.5j).astype(dt))
add("float64 0-d big", np.array(1e20))
add("float64 0-d small", np.array(1.5e-7))
add("float64 0-d one", np.array(1.0))
add("float64 0-d nan", np.array(np.nan))
add("complex128 0-d whole", np.array(2 + 0j))

out = pathlib.Path(__file__).with_name('printing.tsv')
out.write_text('\n'.join(rows) + '\n')
print(f"{out}: {len(rows)} rows")
