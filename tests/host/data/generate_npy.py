#!/usr/bin/env python3
"""Writes npy/*.npy with NumPy's np.save, and npy/files.tsv describing them, which
tests/host/test_npy.cpp (the header, without a GPU) and tests/gpu/test_files.cpp (jet::load
onto the device, and jet::save compared byte for byte) check.

Rows of files.tsv, tab-separated:

  FILE  DTYPE  SHAPE  FORTRAN  BIG_ENDIAN  VALUES

SHAPE comma-separated ("" for 0-d); FORTRAN and BIG_ENDIAN 0 or 1; VALUES the elements in C
order, comma-separated, as float64 text (complex: "re/im"; bool 0/1).

Run from anywhere: python3 tests/host/data/generate_npy.py
"""
import pathlib

import numpy as np

here = pathlib.Path(__file__).parent / 'npy'
here.mkdir(exist_ok=True)
rows = []


def text(x, dtype):
    if dtype.kind == 'c':
        return f"{float(x.real)!r}/{float(x.imag)!r}"
    if dtype.kind == 'b':
        return '1' if x else '0'
    if dtype.kind in 'iu':
        return str(int(x))
    return repr(float(x))


def save(name, a):
    np.save(here / f"{name}.npy", a)
    fortran = a.flags.f_contiguous and not a.flags.c_contiguous
    values = ','.join(text(x, a.dtype) for x in np.asarray(a).reshape(-1))
    rows.append('\t'.join([f"{name}.npy", a.dtype.newbyteorder('=').name, ','.join(map(str, a.shape)),
                           '1' if fortran else '0', '1' if a.dtype.byteorder == '>' else '0', values]))


base = np.array([[1.5, -2.25, 3.0], [0.5, 100.0, -7.0]])
for dt in ['bool', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16', 'uint32', 'uint64',
           'float16', 'float32', 'float64', 'complex64', 'complex128']:
    a = (base * (1 + 1j) if dt.startswith('complex') else base).astype(dt)
    save(f"{dt}", a)
save("float32_fortran", np.asfortranarray(base.astype(np.float32)))
save("int16_big", base.astype('>i2'))
save("float64_big", base.astype('>f8'))
save("complex64_big", (base * (1 - 2j)).astype('>c8'))
save("float64_0d", np.array(2.5))
save("int32_empty", np.zeros((0, 4), np.int32))
save("float32_3d", np.arange(24, dtype=np.float32).reshape(2, 3, 4))
for version in [(2, 0), (3, 0)]:
    name = f"float32_v{version[0]}"
    a = base.astype(np.float32)
    with open(here / f"{name}.npy", 'wb') as f:
        np.lib.format.write_array(f, a, version=version)
    rows.append('\t'.join([f"{name}.npy", 'float32', '2,3', '0', '0',
                           ','.join(text(x, a.dtype) for x in a.reshape(-1))]))
(here / 'files.tsv').write_text('\n'.join(rows) + '\n')

# Archives (test_npy.cpp reads their members' headers; test_files.cpp loads them): NumPy puts
# the keyword arrays first, then arr_0, ...
np.savez(here / 'arrays.npz', np.arange(6).reshape(2, 3), x=np.array([1.5, -2.0], np.float32),
         flag=np.array([True, False]))
np.savez_compressed(here / 'compressed.npz', a=np.linspace(0, 1, 1000),
                    b=np.arange(10, dtype=np.int16))
(here / 'broken.npz').write_bytes((here / 'compressed.npz').read_bytes()[:300])

# Text as numpy.savetxt writes it (test_files.cpp writes the same arrays and compares bytes),
# and a table for loadtxt, with comments, a blank line and a ragged-spaced row.
np.savetxt(here / 'floats.txt', np.array([[1.5, -2.25, 1e-300], [np.pi, 100.0, -7.0]]))
np.savetxt(here / 'complex.txt', np.array([[1 + 2j, 3 - 4j], [-0.5j, 2.0]]), fmt='%.3f',
           header='re im\nsecond line', footer='end')
np.savetxt(here / 'ints.txt', np.array([1, -2, 300], np.int32), fmt='%d', delimiter=',')
np.savetxt(here / 'row_format.txt', np.array([[1, 2.5], [3, 4.25]]), fmt='%d|%.2f')
(here / 'table.txt').write_text('# x y z\n1 2.5 -3\n\n4   5e1 6 # six\n7 8 nan\n')
print(f"{here}: {len(rows)} files")
