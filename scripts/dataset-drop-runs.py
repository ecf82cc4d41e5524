#!/usr/bin/env python3
"""Writes a dataset without some of its runs, ids renumbered, so that the
runs measured again elsewhere are not measured twice once the two datasets
are merged (`klaraptor dataset import --in A B --db X`, then `export`).

usage: dataset-drop-runs.py --sizes N[,N...] IN OUT

Drops every run of IN whose sizes are one of the given values (the run's
sizes object has one value, the manifest's {N}), with its launches and their
samples; keeps the header and the kernels. Used by scripts/make-dataset.sh
--resume; docs/dataset.md.
"""
import argparse
import json
import sys


def main():
    ap = argparse.ArgumentParser(prog="dataset-drop-runs")
    ap.add_argument("--sizes", required=True)
    ap.add_argument("inp", metavar="IN")
    ap.add_argument("out", metavar="OUT")
    a = ap.parse_args()
    try:
        drop = {int(x) for x in a.sizes.split(",") if x}
    except ValueError:
        sys.exit("dataset-drop-runs: error: --sizes: expected numbers, got '%s'" % a.sizes)
    try:
        lines = [json.loads(l) for l in open(a.inp) if l.strip()]
    except (OSError, ValueError) as e:
        sys.exit("dataset-drop-runs: error: %s: not a readable dataset (%s)" % (a.inp, e))
    if not lines or lines[0].get("type") != "header":
        sys.exit("dataset-drop-runs: error: %s: no header line" % a.inp)
    run_id, launch_id = {}, {}
    out = []
    for o in lines:
        t = o.get("type")
        if t == "run":
            values = list(o.get("sizes", {}).values())
            if len(values) == 1 and values[0] in drop:
                continue
            run_id[o["id"]] = len(run_id) + 1
            o["id"] = run_id[o["id"]]
        elif t == "launch":
            if o["run"] not in run_id:
                continue
            launch_id[o["id"]] = len(launch_id) + 1
            o["id"], o["run"] = launch_id[o["id"]], run_id[o["run"]]
        elif t == "sample":
            if o["launch"] not in launch_id:
                continue
            o["launch"] = launch_id[o["launch"]]
        out.append(o)
    with open(a.out, "w") as f:
        for o in out:
            f.write(json.dumps(o, separators=(",", ":")) + "\n")
    print("dataset-drop-runs: %s: %d runs kept, %d dropped" %
          (a.out, len(run_id), sum(1 for o in lines if o.get("type") == "run") - len(run_id)))


if __name__ == "__main__":
    main()
