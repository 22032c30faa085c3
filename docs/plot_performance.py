#!/usr/bin/env python3
"""Draws docs/performance.png from docs/performance.csv (figures from bench/NOTES.md).

Left: each streaming benchmark's time as a multiple of its copy-bandwidth floor, the bytes it
must move divided by the device-to-device copy bandwidth measured in the same session (the
middle of the range bench/NOTES.md gives); 1 is the roofline. Right: how many times faster Jet
is than CuPy on every benchmark of the CSV.

    pip install matplotlib   # or: apt-get install python3-matplotlib
    python3 docs/plot_performance.py
"""
import csv
import pathlib

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after choosing the file backend)

HERE = pathlib.Path(__file__).resolve().parent
JET_COLOR, CUPY_COLOR = "#1f77b4", "#ff7f0e"


def read_rows():
    with open(HERE / "performance.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    for row in rows:
        row["jet_ms"] = float(row["jet_ms"])
        row["cupy_ms"] = float(row["cupy_ms"])
        bandwidth = (float(row["copy_gb_s_low"]) + float(row["copy_gb_s_high"])) / 2 * 1e9
        moved = row["bytes_moved"]
        row["floor_ms"] = int(moved) / bandwidth * 1e3 if moved else None
        row["label"] = f'{row["benchmark"]}  [{row["session"]}, {row["gpu"]}]'
    return rows


def plot_against_floor(axis, rows):
    rows = [r for r in rows if r["floor_ms"]]
    y = range(len(rows))
    height = 0.38
    for offset, key, color, name in ((-height / 2, "jet_ms", JET_COLOR, "Jet"),
                                     (height / 2, "cupy_ms", CUPY_COLOR, "CuPy")):
        ratios = [r[key] / r["floor_ms"] for r in rows]
        axis.barh([k + offset for k in y], ratios, height, color=color, label=name)
        for k, ratio in zip(y, ratios):
            axis.text(ratio * 1.04, k + offset, f"{ratio:.2f}", va="center", fontsize=7)
    axis.axvline(1.0, color="black", linewidth=1.2, label="copy-bandwidth roofline")
    axis.set_yticks(list(y), [r["label"] for r in rows], fontsize=8)
    axis.invert_yaxis()
    axis.set_xscale("log")
    axis.set_xlim(0.5, 60)
    axis.set_xlabel("time / (bytes moved ÷ copy bandwidth)   (lower is better; 1 = roofline)")
    axis.set_title("Streaming kernels against the roofline")
    axis.legend(fontsize=8, loc="upper right")


def plot_speedup(axis, rows):
    y = range(len(rows))
    speedups = [r["cupy_ms"] / r["jet_ms"] for r in rows]
    axis.barh(list(y), speedups, 0.6, color=JET_COLOR)
    axis.axvline(1.0, color="black", linewidth=1.2)
    for k, s in zip(y, speedups):
        axis.text(s * 1.05, k, f"{s:.2f}x", va="center", fontsize=7)
    axis.set_yticks(list(y), [r["label"] for r in rows], fontsize=8)
    axis.invert_yaxis()
    axis.set_xscale("log")
    axis.set_xlim(0.8, max(speedups) * 2)
    axis.set_xlabel("CuPy time / Jet time   (higher is better; 1 = as fast)")
    axis.set_title("Jet against CuPy, same run")


def main():
    rows = read_rows()
    figure, (left, right) = plt.subplots(
        1, 2, figsize=(15, 7.5), gridspec_kw={"width_ratios": [1, 1.1]})
    plot_against_floor(left, rows)
    plot_speedup(right, rows)
    sessions = ", ".join(sorted({r["session"] for r in rows}, key=int))
    gpus = " and ".join(sorted({r["gpu"] for r in rows}))
    figure.suptitle(f"Jet and CuPy on an {gpus} (bench/NOTES.md, sessions {sessions}; "
                    "x, y are 2^26 float32; A, B are 8192 x 8192 float32)", fontsize=11)
    figure.tight_layout()
    figure.savefig(HERE / "performance.png", dpi=100)


if __name__ == "__main__":
    main()
