"""Recomputes `klaraptor dataset bench --json` from the datasets themselves.

USAGE: check-bench.py BENCH.json --test-sizes LIST --in FILE... --emu FILE...

For every launch of the measured datasets whose run size is a test size
there must be one row, and its best shape and time, the measured time of the
chosen shape (a shape that was measured), of the program's own shape and of
the shape the emulator datasets' estimates pick (the least estimate; on a
tie the requested shape, as the runtime breaks ties) are recomputed here; so are
the geometric means and worst cases of best/chosen."""
import argparse
import json
import math
import sys


def read(path):
    runs, kernels, launches = [], [], []
    with open(path) as f:
        for line in f:
            j = json.loads(line)
            if j["type"] == "run":
                runs.append(j)
            elif j["type"] == "kernel":
                kernels.append(j)
            elif j["type"] == "launch":
                j["samples"] = []
                launches.append(j)
            elif j["type"] == "sample":
                launches[j["launch"] - 1]["samples"].append(j)
    return runs, kernels, launches


def data_text(d):
    return ",".join("%s=%d" % (k, d[k]) for k in sorted(d))


def dims(b):
    return "x".join(str(x) for x in b)


def ok(s):
    return s["status"] == "ok" and s["time_ns"] > 0


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


ap = argparse.ArgumentParser()
ap.add_argument("bench")
ap.add_argument("--test-sizes", required=True)
ap.add_argument("--in", dest="ins", nargs="+", required=True)
ap.add_argument("--emu", nargs="+", default=[])
opts = ap.parse_args()
bench = json.load(open(opts.bench))
test = set(int(x) for x in opts.test_sizes.split(","))
ins, emus = opts.ins, opts.emu

estimates = {}
for p in emus:
    runs, kernels, launches = read(p)
    for l in launches:
        key = (kernels[l["kernel"] - 1]["name"], data_text(l["data"]))
        if key not in estimates:
            estimates[key] = {dims(s["block"]): s["time_ns"] for s in l["samples"] if ok(s)}

rows = {(r["kernel"], r["data"]): r for r in bench["launches"]}
if len(rows) != len(bench["launches"]):
    sys.exit("duplicate launches in the bench output")
bad, expected, ratios, emu_ratios = 0, 0, [], []
for p in ins:
    runs, kernels, launches = read(p)
    for l in launches:
        sizes = runs[l["run"] - 1]["sizes"]
        if len(sizes) != 1 or list(sizes.values())[0] not in test:
            continue
        expected += 1
        name = kernels[l["kernel"] - 1]["name"]
        key = (name, data_text(l["data"]))
        r = rows.get(key)
        if r is None:
            print("missing launch", key)
            bad += 1
            continue
        good = [s for s in l["samples"] if ok(s)]
        times = {dims(s["block"]): s["time_ns"] for s in good}
        best = min(good, key=lambda s: s["time_ns"])
        checks = [
            ("shapes", r["shapes"] == len(good)),
            ("best_ns", close(r["best_ns"], best["time_ns"])),
            ("best", times.get(r["best"]) == best["time_ns"]),
            ("chosen is measured", r["chosen"] in times),
            ("chosen_ns", close(r["chosen_ns"], times.get(r["chosen"]))),
            ("requested_ns", close(r["requested_ns"], times.get(dims(l["block"])))),
        ]
        est = estimates.get(key)
        if est is not None:
            pick, pick_ns = None, None
            for s in good:
                e = est.get(dims(s["block"]))
                req = dims(s["block"]) == dims(l["block"])
                if e is not None and (pick_ns is None or e < pick_ns or
                                      (e == pick_ns and req)):
                    pick, pick_ns = dims(s["block"]), e
            checks.append(("emu_chosen", r["emu_chosen"] == pick))
            checks.append(("emu_chosen_ns", close(r["emu_chosen_ns"], times.get(pick))))
            if pick is not None:
                emu_ratios.append(best["time_ns"] / times[pick])
        else:
            checks.append(("no emu", r["emu_chosen"] is None))
        if r["chosen"] in times:
            ratios.append(best["time_ns"] / times[r["chosen"]])
        for what, good_ in checks:
            if not good_:
                print("launch %s: %s does not match the dataset: %s" % (key, what, r))
                bad += 1


def summary(rs):
    if not rs:
        return 0, None, None
    return len(rs), math.exp(sum(math.log(x) for x in rs) / len(rs)), min(rs)


for field, rs in (("mwp_cwp", ratios), ("emulator", emu_ratios)):
    n, g, w = summary(rs)
    s = bench[field]
    if s["n"] != n or not close(s["geomean"], g) or not close(s["worst"], w):
        print("%s summary %s, recomputed n=%d geomean=%s worst=%s" % (field, s, n, g, w))
        bad += 1
if expected == 0 or expected != len(bench["launches"]):
    print("expected %d launches at the test sizes, the bench has %d" % (expected, len(bench["launches"])))
    bad += 1
if bad:
    sys.exit(1)
n, g, w = summary(ratios)
print("checked %d launches (%d with emulator estimates); mwp-cwp geomean %.3f worst %.3f"
      % (n, len(emu_ratios), g, w))
if emu_ratios:
    print("emulator geomean %.3f worst %.3f" % summary(emu_ratios)[1:])
