#!/usr/bin/env python3
"""Compares measured block-shape timings with the timing engine's estimates.

Usage: compare-timings.py MEASURED REPORT [--min-spearman X]

MEASURED holds the lines gpu-timing.cu prints with --measure
("kernel=copy n=1048576 grid=4096 block=256 ns=12345.6"); REPORT is the
KLARAPTOR_EMU_REPORT file of the same program built with
--klaraptor-emulate (one record per launch, with estimated_ns). Shapes are
matched by kernel, grid and block. Prints, per (kernel, n) group and over
all shapes, the Spearman rank correlation of estimated against measured
times and the median relative error |est - meas| / meas; exits 1 when the
overall rank correlation is not above --min-spearman (default 0) or a shape
has no estimate. docs/timing.md, "Validation with a GPU".
"""
import argparse
import json
import statistics
import sys


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0 + 1
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 2:
        return float("nan")
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.fmean(ra), statistics.fmean(rb)
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra)
    vb = sum((y - mb) ** 2 for y in rb)
    if va == 0 or vb == 0:
        return 0.0
    return cov / (va * vb) ** 0.5


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("measured")
    ap.add_argument("report")
    ap.add_argument("--min-spearman", type=float, default=0.0)
    args = ap.parse_args()

    shapes = []  # (kernel, n, grid, block, ns)
    with open(args.measured) as f:
        for line in f:
            if not line.startswith("kernel="):
                continue
            kv = dict(p.split("=", 1) for p in line.split())
            shapes.append((kv["kernel"], int(kv["n"]), int(kv["grid"]),
                           int(kv["block"]), float(kv["ns"])))
    est = {}
    with open(args.report) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            if "estimated_ns" not in r:
                continue
            key = (r["kernel"], r["grid"][0], r["block"][0])
            est.setdefault(key, r["estimated_ns"])
    if not shapes:
        print("error: no measured shapes in " + args.measured)
        return 1
    rows = []
    for k, n, g, b, ns in shapes:
        e = est.get((k, g, b))
        if e is None:
            print("error: no estimate for kernel=%s grid=%d block=%d" % (k, g, b))
            return 1
        rows.append((k, n, b, ns, e))
    groups = {}
    for row in rows:
        groups.setdefault((row[0], row[1]), []).append(row)
    print("%-10s %9s %6s %14s %14s %8s" %
          ("kernel", "n", "block", "measured_ns", "estimated_ns", "rel_err"))
    for k, n, b, ns, e in rows:
        print("%-10s %9d %6d %14.1f %14.1f %8.3f" %
              (k, n, b, ns, e, abs(e - ns) / ns if ns > 0 else float("inf")))
    for (k, n), g in sorted(groups.items()):
        rho = spearman([r[3] for r in g], [r[4] for r in g])
        err = statistics.median(abs(r[4] - r[3]) / r[3] for r in g)
        print("group kernel=%s n=%d shapes=%d spearman=%.3f median_rel_err=%.3f"
              % (k, n, len(g), rho, err))
    rho = spearman([r[3] for r in rows], [r[4] for r in rows])
    err = statistics.median(abs(r[4] - r[3]) / r[3] for r in rows)
    print("overall shapes=%d spearman=%.3f median_rel_err=%.3f" %
          (len(rows), rho, err))
    if not rho > args.min_spearman:
        print("FAIL: rank correlation %.3f is not above %.3f" %
              (rho, args.min_spearman))
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
