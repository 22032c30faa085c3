#!/usr/bin/env python3
"""DLPack between Jet and PyTorch / CuPy (issue 27), through tests/python/dlpack_bridge.cpp
loaded with ctypes: Jet arrays read by torch.from_dlpack and cupy.from_dlpack as the same
memory with the right strides and dtypes (bfloat16 included), and their tensors taken in by
Jet. Exits 77 (skipped) without a GPU, PyTorch or CuPy.

Usage: test_dlpack.py path/to/libdlpack_bridge.so"""
import ctypes
import sys

try:
    import cupy
    import torch
except ImportError as e:
    print(f"skipped: {e}")
    sys.exit(77)
if not torch.cuda.is_available():
    print("skipped: no CUDA device for PyTorch")
    sys.exit(77)

lib = ctypes.CDLL(sys.argv[1])
lib.bridge_export.restype = ctypes.c_void_p
lib.bridge_export.argtypes = [ctypes.c_char_p, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_int,
                              ctypes.c_int, ctypes.c_ssize_t]
lib.bridge_last_data.restype = ctypes.c_void_p
lib.bridge_import_sum.restype = ctypes.c_double
lib.bridge_import_sum.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_void_p),
                                  ctypes.c_char_p]
capsule_new = ctypes.pythonapi.PyCapsule_New
capsule_new.restype = ctypes.py_object
capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
capsule_pointer.restype = ctypes.c_void_p
capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
capsule_rename = ctypes.pythonapi.PyCapsule_SetName
capsule_rename.argtypes = [ctypes.py_object, ctypes.c_char_p]

failures = []


def check(ok, what):
    print(("ok     " if ok else "FAILED ") + what)
    if not ok:
        failures.append(what)


class JetArray:
    """A Jet arange as a producer of the Python array API's DLPack protocol."""

    def __init__(self, dtype, rows, cols, transpose=False):
        self.args = (dtype.encode(), rows, cols, int(transpose))

    def __dlpack__(self, stream=None, max_version=None, dl_device=None, copy=None):
        versioned = max_version is not None and max_version[0] >= 1
        pointer = lib.bridge_export(*self.args, int(versioned), 0 if stream is None else stream)
        return capsule_new(pointer, b"dltensor_versioned" if versioned else b"dltensor", None)

    def __dlpack_device__(self):
        return (2, torch.cuda.current_device())


def into_jet(tensor):
    """Jet's sum, data address and dtype name of a tensor taken in through DLPack."""
    try:
        capsule, versioned = tensor.__dlpack__(max_version=(1, 0)), 1
    except TypeError:
        capsule, versioned = tensor.__dlpack__(), 0
    name = b"dltensor_versioned" if versioned else b"dltensor"
    pointer = capsule_pointer(capsule, name)
    data, dtype = ctypes.c_void_p(), ctypes.create_string_buffer(16)
    total = lib.bridge_import_sum(pointer, versioned, ctypes.byref(data), dtype)
    capsule_rename(capsule, b"used_" + name)  # Jet owns it now and calls its deleter
    return total, data.value, dtype.value.decode()


for dtype in ["float32", "float64", "int32", "int64", "uint8", "int8", "int16", "bool",
              "float16", "bfloat16", "complex64"]:
    t = torch.from_dlpack(JetArray(dtype, 3, 5, transpose=True))
    expect = torch.arange(15, device="cuda").reshape(3, 5).T.to(getattr(torch, dtype))
    check(t.data_ptr() == lib.bridge_last_data() and t.dtype == expect.dtype and
          t.shape == (5, 3) and t.stride() == (1, 5) and bool((t == expect).all()),
          f"torch.from_dlpack of a transposed Jet {dtype} array: same memory, strides, values")
    total, data, name = into_jet(expect)
    check(data == expect.data_ptr() and name == dtype and
          total == float(expect.to(torch.float64).sum().real if dtype.startswith("complex") else
                         expect.to(torch.float64).sum()),
          f"Jet from a strided torch {dtype} tensor: same memory, dtype and sum")
    if dtype == "bfloat16":
        continue  # CuPy has no bfloat16
    c = cupy.from_dlpack(JetArray(dtype, 4, 6))
    check(c.data.ptr == lib.bridge_last_data() and str(c.dtype) == dtype and
          bool((c == cupy.arange(24).reshape(4, 6).astype(dtype)).all()),
          f"cupy.from_dlpack of a Jet {dtype} array: same memory and values")
    cup = cupy.arange(24).reshape(4, 6).astype(dtype)[:, 1::2]
    total, data, name = into_jet(cup)
    check(data == cup.data.ptr and name == dtype and
          total == float(cup.astype(cupy.float64).sum().real.get()),
          f"Jet from a strided cupy {dtype} array: same memory, dtype and sum")

# The consumer's stream: PyTorch on a stream of its own reads what Jet wrote.
s = torch.cuda.Stream()
with torch.cuda.stream(s):
    t = torch.from_dlpack(JetArray("float32", 1000, 1000))
    check(float(t.double().sum()) == float(sum(range(10 ** 6))),
          "torch.from_dlpack on a side stream sees Jet's finished values")
print(f"{len(failures)} failed")
sys.exit(1 if failures else 0)
