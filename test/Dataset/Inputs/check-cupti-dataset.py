#!/usr/bin/env python3
"""Checks datasets measured on a GPU by the cupti backend for what must hold
of any real measurement (docs/cupti.md, "Measured on an H200").

usage: check-cupti-dataset.py FILE...

Per file: the header names the cupti backend, a device and the driver's and
runtime's versions; every sample belongs to a launch; per sample with status ok: 0 < time_ns_min <=
time_ns <= time_ns_max, repeats >= 1; with metrics: blocks_launched is the
grid's size, warps_launched is ceil(threads per block / 32) per block, every
count is a finite number >= 0, requests <= sectors <= 32 x requests for
global loads and stores, registers_per_thread > 0. Prints one line per
problem and exits 1, else one summary line.
"""
import json
import math
import sys


def check(path, problems, totals):
    def bad(where, what):
        problems.append("%s: %s: %s" % (path, where, what))

    try:
        lines = [json.loads(l) for l in open(path) if l.strip()]
    except (OSError, ValueError) as e:
        bad("file", "not a readable dataset (%s)" % e)
        return
    if not lines or lines[0].get("type") != "header":
        bad("line 1", "no header")
        return
    h = lines[0]
    if h.get("backend") != "cupti":
        bad("header", "backend is %r, not cupti" % h.get("backend"))
    for k in ("device", "cuda_driver_version", "cuda_runtime_version"):
        if not h.get(k):
            bad("header", "no %s" % k)
    launches = {o["id"]: o for o in lines if o.get("type") == "launch"}
    for n, o in enumerate(lines, 1):
        if o.get("type") != "sample":
            continue
        totals["samples"] += 1
        where = "line %d" % n
        launch = launches.get(o.get("launch"))
        if launch is None:
            bad(where, "sample of an unknown launch %r" % o.get("launch"))
            continue
        block, grid = o["block"], o["grid"]
        if o.get("status") != "ok":
            totals["not ok"] += 1
            continue
        t, lo, hi = o.get("time_ns"), o.get("time_ns_min"), o.get("time_ns_max")
        if not all(isinstance(x, (int, float)) and math.isfinite(x) for x in (t, lo, hi)):
            bad(where, "times are not numbers: %r %r %r" % (t, lo, hi))
        elif not 0 < lo <= t <= hi:
            bad(where, "not 0 < min %g <= median %g <= max %g" % (lo, t, hi))
        if not o.get("repeats", 0) >= 1:
            bad(where, "repeats %r" % o.get("repeats"))
        m = o.get("metrics", {})
        for k, v in m.items():
            if not (isinstance(v, (int, float)) and math.isfinite(v) and v >= 0):
                bad(where, "%s = %r" % (k, v))
        if m.get("registers_per_thread", 1) <= 0:
            bad(where, "registers_per_thread %r" % m.get("registers_per_thread"))
        if "blocks_launched" not in m:
            continue
        totals["with metrics"] += 1
        blocks = grid[0] * grid[1] * grid[2]
        threads = block[0] * block[1] * block[2]
        if m["blocks_launched"] != blocks:
            bad(where, "blocks_launched %g, the grid has %d" % (m["blocks_launched"], blocks))
        if m.get("warps_launched") != blocks * -(-threads // 32):
            bad(where, "warps_launched %r, expected %d" %
                (m.get("warps_launched"), blocks * -(-threads // 32)))
        for op in ("load", "store"):
            r = m.get("global_%s_requests" % op)
            s = m.get("global_%s_sectors" % op)
            if r is None or s is None:
                continue
            if not (r <= s <= 32 * r):
                bad(where, "global %s: %g requests, %g sectors" % (op, r, s))
    totals["files"] += 1


def main():
    if len(sys.argv) < 2:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    problems = []
    totals = {"files": 0, "samples": 0, "not ok": 0, "with metrics": 0}
    for p in sys.argv[1:]:
        check(p, problems, totals)
    for p in problems:
        print("check-cupti-dataset: " + p)
    if problems:
        return 1
    print("check-cupti-dataset: %(files)d files, %(samples)d samples "
          "(%(not ok)d not ok), %(with metrics)d with metrics: ok" % totals)
    return 0


if __name__ == "__main__":
    sys.exit(main())
