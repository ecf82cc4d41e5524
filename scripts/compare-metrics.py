#!/usr/bin/env python3
"""Compares the metrics the PTX emulator reports with the ones CUPTI measured
on a GPU for the same launches.

usage: compare-metrics.py --gpu FILE... --emu FILE... [--keys K1,K2,...]
                          [--per program|kernel] [--markdown OUT.md]
                          [--json OUT.json]

FILEs are datasets (JSON Lines, docs/dataset.md): --gpu the cupti backend's,
--emu the emulator's. Files are paired by their header's "program" (a
program on one side only is listed, not compared); launches by kernel name
and data sizes (the n-th such launch of a program with the n-th), samples
within them by block shape. A sample counts when its status is "ok" on both
sides. Per metric key over all matched samples where both sides report it:
how many, the share exactly equal (relative difference < 1e-9), the
geometric mean, median, least and greatest emu/gpu over the samples where
both are > 0, and how many are zero on exactly one side. Then the geometric
mean of emu/gpu per program (--per kernel: per kernel; "both 0" where the
key is zero on both sides throughout). Default keys: the counts both
backends report; keys absent on either side are skipped. --markdown writes
the same tables as Markdown, --json the figures. Exit 1 when a file is not
a readable dataset or no sample matched. Where the GPU side has CUPTI's
cache counts and the emulator's the cache model's estimated hit rates, a
last table compares the L1 load hit rate (l1_global_load_hit_sectors /
global_load_sectors against estimated_l1_load_hit_rate) and the L2 read hit
rate (l2_read_hit_sectors / l2_read_sectors against
estimated_l2_read_hit_rate) per group: the means, the mean and largest
|emu - gpu|, and Spearman's rank correlation over the samples. Pure Python.
"""
import argparse
import json
import math
import statistics
import sys

DEFAULT_KEYS = (
    "inst_executed thread_inst_executed inst_integer inst_fp32 inst_fp64 "
    "inst_special inst_global_load inst_global_store inst_shared_load "
    "inst_shared_store inst_branch global_load_requests global_load_sectors "
    "global_store_requests global_store_sectors shared_load_requests "
    "shared_store_requests shared_bank_conflicts branches divergent_branches "
    "warps_launched blocks_launched registers_per_thread "
    "active_blocks_per_sm").split()
SHOWN = 8  # launches listed per side when nothing matched
# Cache hit rates: CUPTI's counts on the GPU side (docs/metrics.md), the
# cache model's estimate on the emulator's (only with the opt-in cache model,
# docs/timing.md). Compared where both sides have them.
RATES = (
    ("l1_load_hit_rate", "l1_global_load_hit_sectors", "global_load_sectors",
     "estimated_l1_load_hit_rate"),
    ("l2_read_hit_rate", "l2_read_hit_sectors", "l2_read_sectors",
     "estimated_l2_read_hit_rate"),
)


def fail(msg, notes=()):
    print("compare-metrics: error: " + msg, file=sys.stderr)
    for note in notes:
        print("compare-metrics: note: " + note, file=sys.stderr)
    sys.exit(1)


def kernel_label(name, spec):
    # The spec's "kernel NAME" line holds the source name; the mangled name
    # is what identifies the kernel.
    for line in (spec or "").splitlines():
        if line.startswith("kernel "):
            return line.split()[1]
    return name


def load(path):
    """Reads a dataset: its program, backend and launches, keyed by
    (kernel name, data, occurrence), each with its samples by block shape."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.readlines()
    except OSError as e:
        fail("cannot read the dataset '%s': %s" % (path, e.strerror or e))
    kernels, by_id, launches, seen = {}, {}, {}, {}
    header = None
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except ValueError as e:
            fail("%s:%d: malformed JSON: %s" % (path, n, e))
        kind = obj.get("type") if isinstance(obj, dict) else None
        if header is None:
            if kind != "header" or obj.get("format") != "klaraptor-dataset":
                fail("'%s' is not a klaraptor dataset (line %d is not a "
                     "header of format 'klaraptor-dataset')" % (path, n))
            header = obj
            continue
        try:
            if kind == "kernel":
                kernels[obj["id"]] = (obj["name"],
                                      kernel_label(obj["name"], obj.get("spec")))
            elif kind == "launch":
                name, label = kernels[obj["kernel"]]
                data = tuple(sorted(obj["data"].items()))
                occurrence = seen.get((name, data), 0)
                seen[(name, data)] = occurrence + 1
                entry = {"label": label, "data": data, "samples": {}}
                launches[(name, data, occurrence)] = by_id[obj["id"]] = entry
            elif kind == "sample":
                metrics = {k: v for k, v in obj["metrics"].items()
                           if isinstance(v, (int, float)) and not isinstance(v, bool)}
                by_id[obj["launch"]]["samples"][tuple(obj["block"])] = (
                    obj["status"], metrics)
        except (KeyError, TypeError, AttributeError):
            fail("%s:%d: malformed '%s' line (or it names no %s above it)" %
                 (path, n, kind, "kernel" if kind == "launch" else "launch"))
    if header is None:
        fail("'%s' is not a klaraptor dataset (it is empty)" % path)
    return {"path": path, "program": str(header.get("program")),
            "backend": header.get("backend"), "launches": launches}


def by_program(paths, side, want_emu):
    out = {}
    for path in paths:
        ds = load(path)
        if (ds["backend"] == "emu") != want_emu:
            print("compare-metrics: warning: '%s' has backend '%s' but is given "
                  "as --%s" % (path, ds["backend"], side), file=sys.stderr)
        if ds["program"] in out:
            fail("program '%s' is in two --%s files: '%s' and '%s'" %
                 (ds["program"], side, out[ds["program"]]["path"], path))
        out[ds["program"]] = ds
    return out


def launch_text(program, launch):
    data = ",".join("%s=%s" % kv for kv in launch["data"])
    return "%s: %s %s" % (program, launch["label"], data)


def match(gpu, emu):
    """The samples ok on both sides, and counts of what was not compared."""
    matched = []
    skipped = {"launches_gpu_only": 0, "launches_emu_only": 0,
               "shapes_one_side": 0, "shapes_not_ok": 0}
    for prog in sorted(set(gpu) & set(emu)):
        g, e = gpu[prog]["launches"], emu[prog]["launches"]
        skipped["launches_emu_only"] += len(set(e) - set(g))
        for key, gl in g.items():
            el = e.get(key)
            if el is None:
                skipped["launches_gpu_only"] += 1
                continue
            shapes = set(gl["samples"]) | set(el["samples"])
            for block in sorted(shapes):
                if block not in gl["samples"] or block not in el["samples"]:
                    skipped["shapes_one_side"] += 1
                    continue
                (gs, gm), (es, em) = gl["samples"][block], el["samples"][block]
                if gs != "ok" or es != "ok":
                    skipped["shapes_not_ok"] += 1
                    continue
                matched.append({"program": prog, "kernel": gl["label"],
                                "launch": (prog, key), "gpu": gm, "emu": em})
    return matched, skipped


def figures(pairs):
    """Agreement of (gpu, emu) values of one key."""
    equal = sum(1 for g, e in pairs
                if g == e or abs(e - g) / max(abs(g), abs(e)) < 1e-9)
    ratios = sorted(e / g for g, e in pairs if g > 0 and e > 0)
    out = {"samples": len(pairs), "equal": equal,
           "equal_share": equal / len(pairs) if pairs else None,
           "ratios": len(ratios), "geomean": None, "median": None,
           "min": None, "max": None,
           "zero_one_side": sum(1 for g, e in pairs if (g == 0) != (e == 0))}
    if ratios:
        out.update(geomean=math.exp(sum(math.log(r) for r in ratios) / len(ratios)),
                   median=statistics.median(ratios), min=ratios[0], max=ratios[-1])
    return out


def ranks(values):
    """Ranks from 1, ties sharing their mean rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    out = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            out[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return out


def spearman(xs, ys):
    """Spearman's rank correlation; None with fewer than 3 values or a
    constant side."""
    if len(xs) < 3:
        return None
    rx, ry = ranks(xs), ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def rate_pair(sample, rate):
    """(gpu, emu) of one hit rate in a matched sample, or None."""
    _, hits, total, est = rate
    g, e = sample["gpu"], sample["emu"]
    if hits not in g or not g.get(total) or est not in e:
        return None
    return (g[hits] / g[total], e[est])


def rate_figures(pairs):
    diffs = [abs(e - g) for g, e in pairs]
    return {"samples": len(pairs),
            "gpu_mean": sum(g for g, _ in pairs) / len(pairs),
            "emu_mean": sum(e for _, e in pairs) / len(pairs),
            "mean_abs_diff": sum(diffs) / len(diffs),
            "max_abs_diff": max(diffs),
            "spearman": spearman([g for g, _ in pairs], [e for _, e in pairs])}


def ratio_text(r):
    if r is None:
        return "-"
    return "%.3f" % r if 1e-3 <= r < 1e4 else "%.3g" % r


def group_cell(f):
    # "both 0": the key is zero on both sides in every sample of the group.
    if f and f["geomean"] is None and f["equal"] == f["samples"]:
        return "both 0"
    return ratio_text(f["geomean"]) if f else "-"


def table(rows, markdown):
    """Rows of cells (the first one the header) as aligned text or Markdown."""
    if markdown:
        out = ["| " + " | ".join(rows[0]) + " |",
               "|" + "|".join(["---"] + ["---:"] * (len(rows[0]) - 1)) + "|"]
        return out + ["| " + " | ".join(r) + " |" for r in rows[1:]]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return ["  ".join([r[0].ljust(widths[0])] +
                      [c.rjust(w) for c, w in zip(r[1:], widths[1:])]).rstrip()
            for r in rows]


def report(res, markdown):
    lines = []
    head = "## " if markdown else ""
    lines.append(head + "emu/gpu over %d matched samples (ratios where both > 0)"
                 % res["matched_samples"])
    rows = [["key", "samples", "equal", "geomean", "median", "min", "max",
             "zero one side"]]
    for key, f in res["keys"].items():
        rows.append([key, str(f["samples"]), "%.1f%%" % (100 * f["equal_share"]),
                     ratio_text(f["geomean"]), ratio_text(f["median"]),
                     ratio_text(f["min"]), ratio_text(f["max"]),
                     str(f["zero_one_side"])])
    lines += table(rows, markdown) + [""]
    lines.append(head + "geometric mean of emu/gpu per %s" % res["per"])
    groups = list(res["groups"])
    rows = [["key"] + groups]
    for key in res["keys"]:
        rows.append([key] + [group_cell(res["groups"][g].get(key)) for g in groups])
    lines += table(rows, markdown) + [""]
    if res["rates"]:
        lines.append(head + "cache hit rates per %s (gpu: CUPTI's counts; emu: "
                     "the cache model's estimate)" % res["per"])
        rows = [[res["per"], "rate", "samples", "gpu mean", "emu mean",
                 "mean |emu-gpu|", "max |emu-gpu|", "Spearman"]]
        for group, rates in res["rates"].items():
            for name, f in rates.items():
                rows.append([group, name, str(f["samples"]),
                             "%.3f" % f["gpu_mean"], "%.3f" % f["emu_mean"],
                             "%.3f" % f["mean_abs_diff"],
                             "%.3f" % f["max_abs_diff"],
                             "-" if f["spearman"] is None
                             else "%.3f" % f["spearman"]])
        lines += table(rows, markdown) + [""]
    sk = res["not_compared"]
    notes = ["programs on one side only: gpu: %s; emu: %s" %
             (", ".join(res["gpu_only_programs"]) or "none",
              ", ".join(res["emu_only_programs"]) or "none"),
             "not compared: %d launches on the gpu side only, %d on the emu side "
             "only, %d shapes on one side only, %d shapes not ok on a side" %
             (sk["launches_gpu_only"], sk["launches_emu_only"],
              sk["shapes_one_side"], sk["shapes_not_ok"])]
    if res["skipped_keys"]:
        notes.append("skipped keys (not reported on both sides): " +
                     ", ".join(res["skipped_keys"]))
    notes.append("matched %d samples of %d launches in %d programs" %
                 (res["matched_samples"], res["matched_launches"],
                  res["matched_programs"]))
    lines += ["- " + n for n in notes] if markdown else notes
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(
        prog="compare-metrics",
        description="Compares emulator metrics with a GPU's (CUPTI).")
    ap.add_argument("--gpu", nargs="+", required=True, metavar="FILE")
    ap.add_argument("--emu", nargs="+", required=True, metavar="FILE")
    ap.add_argument("--keys", help="comma-separated metric keys")
    ap.add_argument("--per", choices=("program", "kernel"), default="program")
    ap.add_argument("--markdown", metavar="OUT.md")
    ap.add_argument("--json", metavar="OUT.json")
    args = ap.parse_args()
    keys = DEFAULT_KEYS
    if args.keys is not None:
        keys = [k.strip() for k in args.keys.split(",") if k.strip()]
        if not keys:
            fail("--keys names no key")
    gpu = by_program(args.gpu, "gpu", False)
    emu = by_program(args.emu, "emu", True)
    matched, not_compared = match(gpu, emu)
    if not matched:
        notes = []
        for side, sets in (("gpu", gpu), ("emu", emu)):
            ls = [launch_text(p, l) for p in sorted(sets)
                  for l in sets[p]["launches"].values()]
            more = " (and %d more)" % (len(ls) - SHOWN) if len(ls) > SHOWN else ""
            notes.append("--%s launches: %s%s" % (side, "; ".join(ls[:SHOWN]) or "none", more))
        fail("no sample matched (same program, kernel, data sizes and block "
             "shape, status 'ok' on both sides)", notes)
    res = {"per": args.per, "keys": {}, "groups": {}, "skipped_keys": [],
           "gpu_files": args.gpu, "emu_files": args.emu,
           "gpu_only_programs": sorted(set(gpu) - set(emu)),
           "emu_only_programs": sorted(set(emu) - set(gpu)),
           "not_compared": not_compared, "matched_samples": len(matched),
           "matched_launches": len({s["launch"] for s in matched}),
           "matched_programs": len({s["program"] for s in matched})}
    for key in keys:
        pairs = [(s["gpu"][key], s["emu"][key]) for s in matched
                 if key in s["gpu"] and key in s["emu"]]
        if not pairs:
            res["skipped_keys"].append(key)
            continue
        res["keys"][key] = figures(pairs)
    if not res["keys"]:
        fail("no metric of %s is reported on both sides" %
             ("--keys" if args.keys is not None else "the default keys"))
    for s in matched:
        group = s["program"] if args.per == "program" else \
            "%s/%s" % (s["program"], s["kernel"])
        res["groups"].setdefault(group, [])
        res["groups"][group].append(s)
    res["rates"] = {}
    for group, samples in res["groups"].items():
        for rate in RATES:
            pairs = [p for p in (rate_pair(s, rate) for s in samples)
                     if p is not None]
            if pairs:
                res["rates"].setdefault(group, {})[rate[0]] = rate_figures(pairs)
        res["groups"][group] = {
            key: figures([(s["gpu"][key], s["emu"][key]) for s in samples
                          if key in s["gpu"] and key in s["emu"]])
            for key in res["keys"]
            if any(key in s["gpu"] and key in s["emu"] for s in samples)}
    sys.stdout.write(report(res, False))
    try:
        if args.markdown:
            with open(args.markdown, "w", encoding="utf-8") as f:
                f.write(report(res, True))
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(res, f, indent=1, sort_keys=True)
                f.write("\n")
    except OSError as e:
        fail("cannot write '%s': %s" % (e.filename, e.strerror))
    return 0


if __name__ == "__main__":
    sys.exit(main())
