#!/usr/bin/env python3
"""What online refinement (KLARAPTOR_REFINE) reached on a real GPU.

Reads what the `refine` step of scripts/gpu-session.sh leaves in a folder
(e.g. test/data/nvidia-h100/refine/):

  sweep.jsonl                 every admissible shape of each launch timed
                              (klaraptor dataset export of a times-only
                              `klaraptor profile`), the reference;
  NAME-N-refine0.json         the decision log (KLARAPTOR_LOG) of the tuned
                              program with KLARAPTOR_REFINE=0: the model's
                              decision;
  NAME-N-refine3.json         the same with KLARAPTOR_REFINE=3: the model's
                              decision, then the measured one.

and prints, per (kernel, data), the measured time of the program's own
shape, of the model's decision and of the refined decision as fractions of
the best shape's time (best/chosen: 1 is the best, 0.5 twice as slow), with
their geometric means. The times come from the sweep, not from the
refinement's single timed launch, so the three columns are measured side by
side; the refinement's own time of its pick is printed beside (`trial`) to
show how well one launch's CUDA-event time agrees with the sweep's median.

Usage: scripts/refine-report.py DIR [--json FILE]
"""
import argparse
import glob
import json
import math
import os
import re
import sys


def die(msg):
    sys.exit("refine-report.py: error: " + msg)


def read_sweep(path):
    """{(kernel device name, data tuple): {block tuple: time_ns}}"""
    launches, times = {}, {}
    with open(path) as f:
        for number, line in enumerate(f, 1):
            try:
                o = json.loads(line)
            except ValueError as e:
                die("%s:%d: not JSON (%s)" % (path, number, e))
            if o.get("type") == "launch":
                key = (o["name"], tuple(sorted(o["data"].items())))
                launches[o["id"]] = key
                times.setdefault(key, {})
            elif o.get("type") == "sample" and o.get("status") == "ok":
                key = launches.get(o["launch"])
                if key is None:
                    die("%s:%d: a sample of launch %s, which is not defined before"
                        % (path, number, o["launch"]))
                times[key][tuple(o["block"])] = o["time_ns"]
    return times


def read_log(path):
    out = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            if line.strip():
                try:
                    out.append(json.loads(line))
                except ValueError as e:
                    die("%s:%d: not JSON (%s)" % (path, number, e))
    return out


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("dir")
    ap.add_argument("--json", help="write the rows as JSON to FILE")
    a = ap.parse_args()
    sweep = os.path.join(a.dir, "sweep.jsonl")
    if not os.path.isfile(sweep):
        db = os.path.join(a.dir, "sweep.db")
        if os.path.isfile(db):
            die("no %s, but %s: export it first (klaraptor dataset export "
                "--db %s --out %s)" % (sweep, db, db, a.dir))
        die("no %s (the refine step's times-only sweep)" % sweep)
    times = read_sweep(sweep)
    rows = []
    for log0 in sorted(glob.glob(os.path.join(a.dir, "*-refine0.json"))):
        log3 = log0[: -len("0.json")] + "3.json"
        if not os.path.isfile(log3):
            die("%s has no %s beside it" % (log0, os.path.basename(log3)))
        first = read_log(log0)
        refined = read_log(log3)
        if not first:
            die("%s: no decision" % log0)
        for d in first:
            key = (d["device_name"], tuple(sorted(d["data"].items())))
            if key not in times:
                die("%s: %s %s was not swept in %s" % (log0, d["kernel"], d["data"], sweep))
            t = times[key]
            best_block = min(t, key=t.get)
            best = t[best_block]
            measured = [r for r in refined if r["device_name"] == d["device_name"]
                        and r["data"] == d["data"] and r["source"] == "measured"]
            if not measured:
                die("%s: no measured decision for %s %s" % (log3, d["kernel"], d["data"]))
            m = measured[0]
            req = tuple(d["requested"]["block"])
            for name, block in (("requested", req), ("model", tuple(d["block"])),
                                ("refined", tuple(m["block"]))):
                if block not in t:
                    die("%s %s: the %s shape %s was not timed in the sweep"
                        % (d["kernel"], d["data"], name, list(block)))
            rows.append({
                "kernel": d["kernel"], "data": d["data"],
                "best_block": list(best_block), "best_ns": best,
                "requested_block": list(req), "requested": best / t[req],
                "model_block": d["block"], "model": best / t[tuple(d["block"])],
                "refined_block": m["block"], "refined": best / t[tuple(m["block"])],
                "trial_ns": m["measured_ns"], "sweep_ns": t[tuple(m["block"])],
                "trials": m["trials"],
            })
    if not rows:
        die("no *-refine0.json decision logs in %s" % a.dir)

    def shape(b):
        return "x".join(str(x) for x in b)

    print("best/chosen measured time per launch (1 = the best shape); times from %s" % sweep)
    print("%-14s %-8s %-12s %9s %12s %9s %12s %9s %12s %9s %10s %10s" % (
        "kernel", "data", "best", "best us", "requested", "b/c", "model", "b/c", "refined", "b/c",
        "trial us", "sweep us"))
    for r in rows:
        data = ",".join("%s=%s" % kv for kv in sorted(r["data"].items()))
        print("%-14s %-8s %-12s %9.2f %12s %9.3f %12s %9.3f %12s %9.3f %10.2f %10.2f" % (
            r["kernel"], data, shape(r["best_block"]), r["best_ns"] / 1e3,
            shape(r["requested_block"]), r["requested"], shape(r["model_block"]), r["model"],
            shape(r["refined_block"]), r["refined"], r["trial_ns"] / 1e3, r["sweep_ns"] / 1e3))
    for col in ("requested", "model", "refined"):
        xs = [r[col] for r in rows]
        print("%-9s geomean %.3f  worst %.3f  (%d launches)" % (col, geomean(xs), min(xs), len(xs)))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
