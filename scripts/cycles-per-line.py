#!/usr/bin/env python3
"""What a warp's access costs per 128-byte line on real GPUs: the measured
times of the matrix-product kernels per warp iteration, against the lines a
warp's accesses touch in one iteration.

usage: cycles-per-line.py [--rtx CSV] [--h100 DIR] [--h200 DIR]
                          [--sizes 1024,2048] [--markdown OUT.md]

The kernels (gemm_kernel, mm2_kernel1, mm2_kernel2, syrk_kernel; what each
computes: ../shared/data/rtx2070s-polybench/README.md) make N^3 thread
iterations; a warp iteration is 32 of them. In one iteration a warp of a
bx x by block covers C = min(bx, 32) columns of R = 32 / C rows and
touches, one line per row or column it reads across:
  gemm, 2mm: A[row][k] R lines, B[k][col] 1, the store of C[row][col] R
             (nvcc forwards the stored sum to the next step: no reload);
  syrk:      A[row][k] R lines, A[col][k] C lines, the store of C R.
Per GPU and line count the script prints the least and greatest SM cycles
per warp iteration over the shapes (time x clock x SMs / (N^3 / 32)) and
that divided by the lines. Shapes of fewer than 32 threads are left out.
The RTX 2070 SUPER's times are ../shared/data's times.csv; the H100's and
H200's the datasets under test/data/nvidia-*/polybench (docs/dataset.md).
Pure Python; docs/timing.md, "One line at a time through the L1", shows
its output.
"""
import argparse
import collections
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
KERNELS = ("gemm_kernel", "mm2_kernel1", "mm2_kernel2", "syrk_kernel")
# SMs and SM clock (GHz) of each GPU: the device profiles' values
# (profiler/devices/*.device; the H100's and H200's clock as measured by the
# probe, test/data/nvidia-*/probe.device).
GPUS = {"rtx-2070-super": (40, 1.77), "h100": (132, 1.98), "h200": (132, 1.98)}


def lines_per_warp_iteration(kernel, bx, by):
    cols = min(bx, 32)
    rows = min(32 // cols, by)
    if kernel == "syrk_kernel":
        return rows + cols + rows
    return rows + 1 + rows


def kernel_of(name):
    for k in KERNELS:
        if k in name:
            return k
    return None


def read_csv(path):
    out = []
    with open(path) as f:
        for number, r in enumerate(csv.DictReader(f), 2):
            try:
                if r["kernel"] in KERNELS:
                    out.append(("rtx-2070-super", r["kernel"], int(r["n"]),
                                int(r["bx"]), int(r["by"]),
                                float(r["median_ms"]) * 1e6))
            except (KeyError, TypeError, ValueError) as e:
                sys.exit(f"cycles-per-line: {path}:{number}: expected the columns "
                         f"kernel, n, bx, by, median_ms: {e!r}")
    return out


def read_datasets(gpu, folder):
    out = []
    for prog in ("gemm", "2mm", "syrk"):
        path = os.path.join(folder, prog + ".jsonl")
        if not os.path.exists(path):
            continue
        kernels, launches = {}, {}
        with open(path) as f:
            for number, line in enumerate(f, 1):
                try:
                    o = json.loads(line)
                except json.JSONDecodeError as e:
                    sys.exit(f"cycles-per-line: {path}:{number}: not JSON: {e}")
                t = o.get("type")
                if t == "kernel":
                    kernels[o["id"]] = o["name"]
                elif t == "launch":
                    launches[o["id"]] = (o.get("kernel"), o.get("data") or {})
                elif t == "sample" and o.get("status") == "ok":
                    kid, data = launches.get(o.get("launch"), (None, {}))
                    k = kernel_of(kernels.get(kid, ""))
                    if k and data and o.get("time_ns"):
                        try:
                            n = int(list(data.values())[0])
                            out.append((gpu, k, n, int(o["block"][0]),
                                        int(o["block"][1]), float(o["time_ns"])))
                        except (KeyError, IndexError, TypeError, ValueError) as e:
                            sys.exit(f"cycles-per-line: {path}:{number}: a sample "
                                     f"without a block or time: {e!r}")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rtx", default=os.path.join(
        ROOT, "..", "shared", "data", "rtx2070s-polybench", "times.csv"))
    ap.add_argument("--h100", default=os.path.join(ROOT, "test", "data", "nvidia-h100", "polybench"))
    ap.add_argument("--h200", default=os.path.join(ROOT, "test", "data", "nvidia-h200", "polybench"))
    ap.add_argument("--sizes", default="1024,2048")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    sizes = {int(s) for s in a.sizes.split(",") if s}
    samples = []
    if os.path.exists(a.rtx):
        samples += read_csv(a.rtx)
    for gpu, folder in (("h100", a.h100), ("h200", a.h200)):
        if os.path.isdir(folder):
            samples += read_datasets(gpu, folder)
    if not samples:
        sys.exit("cycles-per-line: no measured times found (see --help)")
    table = collections.defaultdict(list)
    for gpu, k, n, bx, by, t in samples:
        if n not in sizes or bx * by < 32:
            continue
        sms, ghz = GPUS[gpu]
        cycles = t * ghz * sms / (n ** 3 / 32)
        table[(gpu, k, lines_per_warp_iteration(k, bx, by))].append(cycles)
    rows = ["| GPU | kernel | lines per warp iteration | shapes | SM cycles per warp iteration | cycles per line |",
            "|---|---|---:|---:|---|---|"]
    for (gpu, k, lines), cycles in sorted(table.items()):
        lo, hi = min(cycles), max(cycles)
        rows.append(f"| {gpu} | {k} | {lines} | {len(cycles)} | {lo:.1f} - {hi:.1f} | "
                    f"{lo / lines:.2f} - {hi / lines:.2f} |")
    print("\n".join(rows))
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(rows) + "\n")


if __name__ == "__main__":
    main()
