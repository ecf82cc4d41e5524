#!/usr/bin/env python3
"""Compares the cache model's simulated L1 hit rate of global loads
(estimated_l1_load_hit_rate of an emulator dataset) with the one CUPTI
measured for the same launches (l1_global_load_hit_sectors /
global_load_sectors of a cupti dataset), shape by shape.

usage: compare-hit-rates.py GPU.jsonl EMU.jsonl

Prints per (kernel, data) the shapes compared, both means and their largest
difference, and Spearman's rank correlation over the shapes.
"""
import importlib.util
import json
import os
import sys


def samples(path):
    kernels, launches, out = {}, {}, {}
    for line in open(path):
        o = json.loads(line)
        if o["type"] == "kernel":
            kernels[o["id"]] = o["spec"].split("\n")[1].split()[1]
        elif o["type"] == "launch":
            launches[o["id"]] = (kernels[o["kernel"]],
                                 json.dumps(o["data"], sort_keys=True))
        elif o["type"] == "sample" and o["status"] == "ok":
            out[(launches[o["launch"]], tuple(o["block"]))] = o["metrics"]
    return out


# Spearman's rank correlation as compare-timings.py computes it.
_spec = importlib.util.spec_from_file_location(
    "compare_timings",
    os.path.join(os.path.dirname(os.path.abspath(__file__)), "compare-timings.py"))
_timings = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_timings)
spearman = _timings.spearman


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: compare-hit-rates.py GPU.jsonl EMU.jsonl")
    gpu, emu = samples(sys.argv[1]), samples(sys.argv[2])
    by = {}
    for key, m in emu.items():
        g = gpu.get(key)
        if g is None or "estimated_l1_load_hit_rate" not in m or \
                not g.get("global_load_sectors"):
            continue
        by.setdefault(key[0], []).append(
            (m["estimated_l1_load_hit_rate"],
             g["l1_global_load_hit_sectors"] / g["global_load_sectors"]))
    if not by:
        sys.exit("compare-hit-rates: no launch in both with hit rates")
    for (kernel, data), v in sorted(by.items()):
        e = [x for x, _ in v]
        g = [y for _, y in v]
        print("%s %s: %d shapes, emu mean %.3f, gpu mean %.3f, largest "
              "difference %.3f, Spearman %.2f" %
              (kernel, data, len(v), sum(e) / len(e), sum(g) / len(g),
               max(abs(x - y) for x, y in v), spearman(e, g)))


if __name__ == "__main__":
    main()
