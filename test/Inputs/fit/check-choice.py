#!/usr/bin/env python3
"""Checks a decision log (KLARAPTOR_LOG) of a program built with
--klaraptor-models against `klaraptor fit`'s report and predictions.

  check-choice.py --log LOG --report DIR/fit-report.json --eval EVAL --count N
                  [--margin M]

EVAL holds `klaraptor fit --eval` lines ("KERNEL N=V,bx=W: NS") for every
candidate block of every logged launch. Each decision must come from the
model (source "model") named as the report names the kernel's program
(<model>/<16 hex>), its predicted time must be predictNs's for the chosen
shape, and the chosen bx the runtime's: the one of least predicted time,
unless the requested bx is predicted within the margin M (KLARAPTOR_MARGIN,
default 0.02) of it."""
import argparse
import json
import re
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--report", required=True)
    ap.add_argument("--eval", required=True)
    ap.add_argument("--count", type=int, required=True)
    ap.add_argument("--margin", type=float, default=0.02)
    a = ap.parse_args()
    report = json.load(open(a.report))
    models = {k["kernel"]: k["model"] for k in report["kernels"]}
    preds = {}
    for line in open(a.eval):
        m = re.match(r"(\S+) N=(\d+),bx=(\d+): (\S+)$", line.strip())
        if not m:
            print("bad eval line: " + line.strip())
            return 1
        preds.setdefault((m.group(1), int(m.group(2))), {})[int(m.group(3))] = \
            float(m.group(4))
    decisions = [json.loads(l) for l in open(a.log) if l.strip()]
    bad = 0
    if len(decisions) != a.count:
        print("expected %d decisions, found %d" % (a.count, len(decisions)))
        bad += 1
    for d in decisions:
        k, n, bx = d["device_name"], d["data"]["N"], d["block"][0]
        problems = []
        if d["source"] != "model":
            problems.append("source %s" % d["source"])
        if not re.fullmatch(r"(mwp-cwp-lines|mwp-cwp|waves|roofline)/[0-9a-f]{16}", d.get("model", "")):
            problems.append("model name %r" % d.get("model"))
        if d.get("model") != models.get(k):
            problems.append("model %r, the report says %r" %
                            (d.get("model"), models.get(k)))
        cand = preds.get((k, n), {})
        if bx not in cand:
            problems.append("no prediction for bx=%d" % bx)
        else:
            if d.get("predicted") != cand[bx]:
                problems.append("predicted %r, predictNs %r" %
                                (d.get("predicted"), cand[bx]))
            best = min(cand, key=lambda b: (cand[b], b))
            req = d["requested"]["block"][0]
            if req in cand and not cand[best] < cand[req] * (1 - a.margin):
                best = req
            if cand[best] < cand[bx] or (best == req and bx != req):
                problems.append("bx=%d predicted %r, chosen bx=%d %r" %
                                (best, cand[best], bx, cand[bx]))
        print("%s N=%d: block %d (%s): %s" % (k, n, bx, d.get("model"),
                                              "; ".join(problems) or "ok"))
        bad += bool(problems)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
