#!/usr/bin/env python3
"""Checks `klaraptor bench --json` against the raw records it was made from.

usage: check-bench.py BENCH.json WORKDIR PROGRAM...

For every launch of the JSON: the record in WORKDIR/PROGRAM/bench.jsonl with
the same kernel and data must exist; best_ns must be the least finite "ns"
over its shapes and best the block of that shape; chosen must be the block
the runtime's decision log (WORKDIR/PROGRAM/decisions.jsonl) says was
launched for that data, with source "model"; chosen_ns that shape's "ns";
0 < best/chosen <= 1. The geometric mean is recomputed. Every program has
its costs: the search's host seconds are the sum of its records'
search_seconds, sizes the data sizes it searched, and break_even_sizes the
loop's host time (profile + fit) over the search's per size. Exit 1 on any
mismatch."""
import json
import math
import sys


def dims(v):
    return "x".join(str(int(x)) for x in v)


def data_text(d):
    # In the order the record gives them (the pragma's), as bench prints.
    return ",".join("%s=%d" % (k, v) for k, v in d.items())


def main():
    bench = json.load(open(sys.argv[1]))
    work = sys.argv[2]
    errors = []
    raw, decided = {}, {}
    for prog in sys.argv[3:]:
        for line in open("%s/%s/bench.jsonl" % (work, prog)):
            r = json.loads(line)
            raw[(prog, data_text(r["data"]))] = r
        for line in open("%s/%s/decisions.jsonl" % (work, prog)):
            d = json.loads(line)
            decided[(prog, data_text(d["data"]))] = d
    launches = bench["launches"]
    if len(launches) != len(raw):
        errors.append("%d launches in the JSON, %d records" %
                      (len(launches), len(raw)))
    logs = []
    for l in launches:
        key = (l["program"], l["data"])
        r, d = raw.get(key), decided.get(key)
        if r is None or d is None:
            errors.append("%s: no record or no decision" % (key,))
            continue
        shapes = [s for s in r["shapes"] if s.get("ns") is not None]
        best = min(shapes, key=lambda s: s["ns"])
        if abs(best["ns"] - l["best_ns"]) > 1e-9 * best["ns"]:
            errors.append("%s: best_ns %r, records say %r" %
                          (key, l["best_ns"], best["ns"]))
        if d["source"] != "model" or not d.get("model", "").startswith(("mwp-cwp-lines/", "mwp-cwp/", "waves/", "roofline/")):
            errors.append("%s: decided by %r %r, not a rational program" %
                          (key, d["source"], d.get("model")))
        if dims(d["block"]) != l["chosen"]:
            errors.append("%s: chosen %s, the decision log says %s" %
                          (key, l["chosen"], dims(d["block"])))
        chosen = [s for s in shapes if dims(s["block"]) == l["chosen"]]
        if len(chosen) != 1 or chosen[0]["ns"] != l["chosen_ns"]:
            errors.append("%s: chosen_ns %r not the chosen shape's" %
                          (key, l["chosen_ns"]))
        ratio = l["best_ns"] / l["chosen_ns"]
        if not 0 < ratio <= 1:
            errors.append("%s: best/chosen %r" % (key, ratio))
        logs.append(math.log(ratio))
    if logs:
        g = math.exp(sum(logs) / len(logs))
        if abs(g - bench["geomean"]) > 1e-9:
            errors.append("geomean %r, recomputed %r" % (bench["geomean"], g))
    costs = {c["program"]: c for c in bench.get("costs", [])}
    for prog in sys.argv[3:]:
        c = costs.get(prog)
        if c is None:
            errors.append("%s: no costs" % prog)
            continue
        records = [r for (p, _), r in raw.items() if p == prog]
        searched = sum(r.get("search_seconds", 0) for r in records)
        if abs(searched - c["search_seconds"]) > 1e-9 * max(1, searched):
            errors.append("%s: search_seconds %r, records say %r" %
                          (prog, c["search_seconds"], searched))
        sizes = len({d for (p, d) in raw if p == prog})
        if c["sizes"] != sizes:
            errors.append("%s: sizes %r, %d data sizes searched" %
                          (prog, c["sizes"], sizes))
        if c["search_seconds"] > 0:
            want = (c["profile_seconds"] + c["fit_seconds"]) / (
                c["search_seconds"] / c["sizes"])
            if abs(want - c["break_even_sizes"]) > 1e-9 * want:
                errors.append("%s: break_even_sizes %r, recomputed %r" %
                              (prog, c["break_even_sizes"], want))
    for e in errors:
        print("error: " + e)
    print("%d launches checked" % len(launches))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
