#!/usr/bin/env python3
"""Recomputes what `klaraptor dataset judge` printed from its inputs.

Usage: check-judge.py --json OUT.json --stdout OUT.txt --label LABEL
           --measured FILE... --fit DB... --estimates DB...

Every figure the judge reports is recomputed here from the measured datasets
(JSON Lines) and the profile databases (SQLite), independently of klaraptor:
per launch the shapes, the best measured shape and time, the measured time of
each pick and best/chosen, the requested shape (the dataset's launch block),
the carried shape (the best measured at the largest profiled size), the
estimate's pick (the least estimate, the requested shape on a tie), Spearman's
rank correlation of estimated and measured times and their geometric mean
ratio; then the summary lines, which must match the printed ones digit for
digit. The rational programs' predictions are taken as given (they come from
the fit), from the per-shape `predictions` list, which must hold every
measured shape with its measured time and estimate, and fitted counts with
the measured grid's blocks; both models' picks and top-k are recomputed from
those predictions by the runtime's rule (the margin) and their times and
ratios checked. Prints how many launches and values were checked; exits 1
naming the first difference.
"""
import argparse
import json
import math
import sqlite3
import sys

checked = 0


def fail(msg):
    print("check-judge: MISMATCH: " + msg)
    sys.exit(1)


def close(a, b, what, rel=1e-9):
    global checked
    checked += 1
    if a is None or b is None:
        if a is not b:
            fail("%s: %r vs %r" % (what, a, b))
        return
    if abs(a - b) > rel * max(1.0, abs(a), abs(b)):
        fail("%s: judge %r, recomputed %r" % (what, a, b))


def same(a, b, what):
    global checked
    checked += 1
    if a != b:
        fail("%s: judge %r, recomputed %r" % (what, a, b))


def shape(block):
    return "x".join(str(int(v)) for v in block)


def distance(a, b):
    """The runtime's blockDistance of two shapes ('32x8x1')."""
    return sum(abs(math.log2(max(int(x), 1)) - math.log2(max(int(y), 1)))
               for x, y in zip(a.split("x"), b.split("x")))


def enumeration(a):
    """A shape's place in the runtime's enumeration order: (bz, by, bx)."""
    return tuple(int(x) for x in reversed(a.split("x")))


def source_name(name, spec):
    for line in spec.splitlines():
        if line.startswith("kernel "):
            return line[len("kernel "):]
    return name


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    if len(a) < 2:
        return 0.0
    ra, rb = ranks(a), ranks(b)
    ma, mb = sum(ra) / len(ra), sum(rb) / len(rb)
    sab = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    saa = sum((x - ma) ** 2 for x in ra)
    sbb = sum((y - mb) ** 2 for y in rb)
    if saa <= 0 or sbb <= 0:
        return 0.0
    return sab / math.sqrt(saa * sbb)


def read_measured(paths):
    """(kernel, data json) -> {program, size, requested, shapes{shape: ns}}"""
    out = {}
    for p in paths:
        runs, kernels, program, grids = [], [], None, False
        for line in open(p):
            j = json.loads(line)
            t = j["type"]
            if t == "header":
                program = j["program"]
                # A CSV import has times only: its grids are not the launches'.
                grids = j["backend"] != "csv"
            elif t == "run":
                runs.append(j)
            elif t == "kernel":
                kernels.append(source_name(j["name"], j["spec"]))
            elif t == "launch":
                run = runs[j["run"] - 1]
                size = list(run["sizes"].values())[0]
                key = (kernels[j["kernel"] - 1],
                       json.dumps(j["data"], sort_keys=True, separators=(",", ":")))
                cur = out[key] = {"program": program, "size": size,
                                  "requested": shape(j["block"]), "shapes": {},
                                  "blocks": {}}
            elif t == "sample":
                if j["status"] == "ok" and j["time_ns"] is not None and j["time_ns"] > 0:
                    cur["shapes"][shape(j["block"])] = j["time_ns"]
                    if grids:
                        cur["blocks"][shape(j["block"])] = math.prod(j["grid"])
    return out


def db_samples(path):
    """kernel source name -> [(data json, shape, status, time_ns)]"""
    c = sqlite3.connect(path)
    out = {}
    q = ("SELECT k.name, k.spec, l.data, s.block_x, s.block_y, s.block_z, s.status, s.time_ns "
         "FROM samples s JOIN launches l ON s.launch_id = l.id JOIN kernels k ON l.kernel_id = k.id")
    for name, spec, data, bx, by, bz, status, t in c.execute(q):
        d = json.dumps(json.loads(data), sort_keys=True, separators=(",", ":"))
        out.setdefault(source_name(name, spec), []).append((d, shape((bx, by, bz)), status, t))
    return out


def summary(rows, method):
    xs = [r["best_ns"] / r["picks"][method]["ns"] for r in rows
          if r["picks"][method]["ns"] is not None]
    xs = [x for x in xs if math.isfinite(x) and x > 0]
    if not xs:
        return 0, None, None
    return len(xs), math.exp(sum(math.log(x) for x in xs) / len(xs)), min(xs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--json", required=True)
    ap.add_argument("--stdout", required=True)
    ap.add_argument("--label", required=True)
    ap.add_argument("--measured", nargs="+", required=True)
    ap.add_argument("--fit", nargs="+", required=True)
    ap.add_argument("--estimates", nargs="+", required=True)
    a = ap.parse_args()
    judged = json.load(open(a.json))
    measured = read_measured(a.measured)
    profiled, estimates = {}, {}
    for p in a.fit:
        for k, v in db_samples(p).items():
            profiled.setdefault(k, []).extend(v)
    for p in a.estimates:
        for k, v in db_samples(p).items():
            for d, s, status, t in v:
                if status == "ok" and t is not None and t > 0:
                    estimates.setdefault((k, d), {})[s] = t

    rows = judged["launches"]
    if not rows:
        fail("no launch judged")
    for r in rows:
        kernel = r["kernel"]
        data = json.dumps({kv.split("=")[0]: int(kv.split("=")[1]) for kv in r["data"].split(",")},
                          sort_keys=True, separators=(",", ":"))
        m = measured.get((kernel, data))
        if m is None:
            fail("%s %s is not measured" % (kernel, data))
        what = "%s n=%d" % (kernel, r["size"])
        shapes = {s + "x1" if s.count("x") == 1 else s: t for s, t in m["shapes"].items()}
        same(r["shapes"], len(shapes), what + " shapes")
        best = min(shapes, key=lambda s: shapes[s])
        close(r["best_ns"], shapes[best], what + " best time")
        same(shapes[r["best"]], shapes[best], what + " best shape's time")
        for name, p in r["picks"].items():
            if p["shape"] is None:
                continue
            close(p["ns"], shapes[p["shape"]], what + " " + name + " pick's time")
            close(p["best_over_chosen"], shapes[best] / shapes[p["shape"]], what + " " + name + " best/chosen")
        same(r["picks"]["requested"]["shape"], m["requested"], what + " requested")
        # carried: the best measured at the largest profiled size
        prof = [d for d, s, status, t in profiled[kernel] if status == "ok"]
        largest = max(prof, key=lambda d: list(json.loads(d).values())[0])
        cm = measured.get((kernel, largest))
        carried = min(cm["shapes"], key=lambda s: cm["shapes"][s]) if cm else None
        same(r["picks"]["carried"]["shape"], carried if carried in shapes else None,
             what + " carried")
        # estimate: the least estimate among the measured shapes
        est = estimates.get((kernel, data), {})
        cand = [s for s in sorted(shapes) if s in est]
        if cand:
            low = min(est[s] for s in cand)
            ties = [s for s in cand if est[s] == low]
            pick = m["requested"] if m["requested"] in ties else ties[0]
            same(r["picks"]["estimate"]["shape"], pick, what + " estimate pick")
            e = [est[s] for s in cand]
            t = [shapes[s] for s in cand]
            close(r["estimator_spearman"], spearman(e, t) if len(cand) >= 2 else None,
                  what + " Spearman", 1e-6)
            close(r["estimated_over_measured"],
                  math.exp(sum(math.log(x / y) for x, y in zip(e, t)) / len(e)),
                  what + " estimated/measured", 1e-6)
        same(r["estimated_shapes"], len(cand), what + " estimated shapes")
        for key in ("model", "other_model", "top%d" % judged["top_k"]):
            if r["picks"][key]["shape"] not in shapes:
                fail(what + " " + key + " pick is not a measured shape")
        # Every measured shape with its measured time, estimate and the
        # fitted counts (blocks: the measured grid's); the picks from the
        # predictions by the runtime's rule.
        preds = {p["shape"]: p for p in r["predictions"]}
        same(sorted(preds), sorted(shapes), what + " predicted shapes")
        for sh, p in preds.items():
            close(p["measured_ns"], shapes[sh], what + " " + sh + " measured")
            close(p["estimate_ns"], est.get(sh), what + " " + sh + " estimate")
            if p["fitted"] and sh in m["blocks"]:
                close(p["fitted"]["blocks_launched"], m["blocks"][sh],
                      what + " " + sh + " fitted blocks")
        for key, col in (("model", "model_ns"), ("other_model", "other_model_ns")):
            # An exact tie goes to the requested shape, then to the block
            # nearest it (the sum of |log2| of the dimensions' ratios), then
            # to the first in enumeration order (bz, by, bx).
            ranked = sorted((p[col], p["shape"] != m["requested"],
                             distance(p["shape"], m["requested"]),
                             enumeration(p["shape"]), p["shape"])
                            for p in preds.values() if p[col] is not None)
            if not ranked:
                same(r["picks"][key]["shape"], None, what + " " + key + " no pick")
                continue
            own = [x for x in ranked if not x[1]]
            pick = ranked[0]
            if own and not ranked[0][0] < own[0][0] * (1 - judged["margin"]):
                pick = own[0]
                ranked.remove(pick)
                ranked.insert(0, pick)
            same(r["picks"][key]["shape"], pick[4], what + " " + key + " pick")
            if key == "model":
                top = min(ranked[:judged["top_k"]], key=lambda x: shapes[x[4]])
                close(r["picks"]["top%d" % judged["top_k"]]["ns"], shapes[top[4]],
                      what + " top-k")
        # top-k ranks the model's own pick first: never worse than it.
        same(r["picks"]["top%d" % judged["top_k"]]["ns"] <= r["picks"]["model"]["ns"],
             True, what + " top-k no worse than the model's pick")

    # The summary lines, as printed.
    printed = [l.strip() for l in open(a.stdout) if l.startswith(a.label + ":")]
    model = judged["model"]
    want = []
    for key, name in (("model", model), ("other_model", judged["other_model"]),
                      ("top%d" % judged["top_k"], "top-%d" % judged["top_k"]),
                      ("estimate", "estimate"),
                      ("requested", "requested"), ("carried", "carried")):
        n, g, w = summary(rows, key)
        if n == 0:  # e.g. carried, where no profiled size was measured
            want.append("%s: %s best/chosen geomean - worst - over 0 launches"
                        % (a.label, name))
        else:
            want.append("%s: %s best/chosen geomean %.3f worst %.3f over %d launches"
                        % (a.label, name, g, w, n))
    rhos = sorted(r["estimator_spearman"] for r in rows if r["estimator_spearman"] is not None)
    med = (rhos[len(rhos) // 2] if len(rhos) % 2 else
           (rhos[len(rhos) // 2 - 1] + rhos[len(rhos) // 2]) / 2)
    want.append("%s: estimator Spearman median %.3f min %.3f over %d launches"
                % (a.label, med, rhos[0], len(rhos)))
    ratios = [r["estimated_over_measured"] for r in rows if r["estimated_over_measured"] is not None]
    g = math.exp(sum(math.log(x) for x in ratios) / len(ratios))
    want.append("%s: estimator estimated/measured geomean %.3f min %.3f max %.3f over %d launches"
                % (a.label, g, min(ratios), max(ratios), len(ratios)))
    for w in want:
        same(w in printed, True, "summary line '%s' (printed: %s)" % (w, printed))
    print("check-judge: %d launches, %d values checked, %d summary lines match"
          % (len(rows), checked, len(want)))


if __name__ == "__main__":
    main()
