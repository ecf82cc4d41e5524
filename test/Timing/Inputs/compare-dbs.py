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
import importlib.util
import math
import os
import sqlite3
import statistics
import sys

# ranks and Spearman's correlation as compare-timings.py computes them.
_spec = importlib.util.spec_from_file_location(
    "compare_timings",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare-timings.py"))
_timings = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_timings)
spearman = _timings.spearman


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
