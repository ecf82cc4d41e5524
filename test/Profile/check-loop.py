#!/usr/bin/env python3
"""usage: check-loop.py LOG REPORT COUNT [--cache FIRSTLOG]

LOG (KLARAPTOR_LOG) must hold COUNT decisions, each by a fitted rational
program (source "model", model "mwp-cwp-lines/<16 hex>", a finite positive
prediction, more than one candidate), and REPORT (KLARAPTOR_EMU_REPORT) must
show each decided block and grid launched. With --cache: every decision came
from the cache ("cache") and equals FIRSTLOG's."""
import json
import math
import re
import sys


def main():
    log = [json.loads(l) for l in open(sys.argv[1])]
    report = [json.loads(l) for l in open(sys.argv[2])]
    count = int(sys.argv[3])
    first = None
    if len(sys.argv) > 5 and sys.argv[4] == "--cache":
        first = [json.loads(l) for l in open(sys.argv[5])]
    errors = []
    if len(log) != count:
        errors.append("%d decisions, expected %d" % (len(log), count))
    launched = {(tuple(r["block"]), tuple(r["grid"])) for r in report}
    for i, d in enumerate(log):
        want = "cache" if first else "model"
        if d["source"] != want:
            errors.append("decision %d: source %r, expected %r" %
                          (i, d["source"], want))
        if not re.fullmatch(r"mwp-cwp-lines/[0-9a-f]{16}", d.get("model", "")):
            errors.append("decision %d: model %r" % (i, d.get("model")))
        p = d.get("predicted")
        if not (isinstance(p, (int, float)) and math.isfinite(p) and p > 0):
            errors.append("decision %d: prediction %r" % (i, p))
        if not first and d.get("candidates", 0) < 2:
            errors.append("decision %d: %r candidates" % (i, d.get("candidates")))
        if (tuple(d["block"]), tuple(d["grid"])) not in launched:
            errors.append("decision %d: block %r grid %r never launched" %
                          (i, d["block"], d["grid"]))
        if first and (d["block"], d["grid"]) != (first[i]["block"],
                                                 first[i]["grid"]):
            errors.append("decision %d: cache gave %r, the model %r" %
                          (i, d["block"], first[i]["block"]))
    for e in errors:
        print("error: " + e)
    print("%d decisions checked" % len(log))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
