#!/usr/bin/env python3
"""Compares two profile databases of the same programs: MEASURED (cupti
backend, times from CUDA events) and ESTIMATED (emu backend, the
abstract-emulation estimates on the profile of the same GPU).

usage: compare-dbs.py MEASURED.db ESTIMATED.db [--min-spearman X]

Per (kernel, data) present in both, over the block shapes with an "ok" time
in both: the Spearman rank correlation of estimate vs measurement, the median
relative error |est - meas| / meas, and best/chosen: the measured time of
the measured-best shape over the measured time of the shape the estimate
ranks first (1 = choosing by estimate finds the best). Then the same over
all groups: mean Spearman, median error, geometric mean and worst
best/chosen. Prints PASS when the mean Spearman is at least X (default 0:
estimates rank shapes better than chance), FAIL otherwise (exit 1). Pure
Python (sqlite3); docs/timing.md, "Validation with a GPU"."""
import math
import sqlite3
import statistics
import sys


def load(path):
    db = sqlite3.connect(path)
    out = {}
    q = ("SELECT k.name, l.data, s.block_x, s.block_y, s.block_z, s.time_ns "
         "FROM samples s JOIN launches l ON s.launch_id = l.id "
         "JOIN kernels k ON l.kernel_id = k.id "
         "WHERE s.status = 'ok' AND s.time_ns > 0")
    for name, data, bx, by, bz, ns in db.execute(q):
        out.setdefault((name, data), {})[(bx, by, bz)] = ns
    return out


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    ma, mb = statistics.mean(ra), statistics.mean(rb)
    num = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    den = math.sqrt(sum((x - ma) ** 2 for x in ra) *
                    sum((y - mb) ** 2 for y in rb))
    return num / den if den > 0 else 0.0


def main():
    args = sys.argv[1:]
    minimum = 0.0
    if "--min-spearman" in args:
        i = args.index("--min-spearman")
        minimum = float(args[i + 1])
        del args[i:i + 2]
    measured, estimated = load(args[0]), load(args[1])
    rhos, errors, ratios = [], [], []
    for key in sorted(measured):
        if key not in estimated:
            continue
        shapes = sorted(set(measured[key]) & set(estimated[key]))
        if len(shapes) < 2:
            continue
        m = [measured[key][s] for s in shapes]
        e = [estimated[key][s] for s in shapes]
        rho = spearman(e, m)
        err = statistics.median(abs(x - y) / y for x, y in zip(e, m))
        best = min(m)
        chosen = m[min(range(len(shapes)), key=lambda i: e[i])]
        rhos.append(rho)
        errors.append(err)
        ratios.append(best / chosen)
        print("group kernel=%s data=%s shapes=%d spearman=%.3f "
              "median_error=%.3f best/chosen=%.3f" %
              (key[0], key[1], len(shapes), rho, err, best / chosen))
    if not rhos:
        print("FAIL: no (kernel, data) measured in both databases")
        return 1
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    mean_rho = statistics.mean(rhos)
    print("overall groups=%d mean_spearman=%.3f median_error=%.3f "
          "best/chosen geomean=%.3f worst=%.3f" %
          (len(rhos), mean_rho, statistics.median(errors), geo, min(ratios)))
    if mean_rho >= minimum:
        print("PASS")
        return 0
    print("FAIL: mean Spearman %.3f below %.3f" % (mean_rho, minimum))
    return 1


if __name__ == "__main__":
    sys.exit(main())
