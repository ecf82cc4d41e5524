#!/usr/bin/env python3
"""check-decisions.py - assert what klaraptor's decision log and a recorded launch log say.

Usage:
  check-decisions.py --log LOG.json [--launches LAUNCHES] EXPECT...

Each EXPECT is  KERNEL key=value ...  as one argument, for example
  'saxpy N=1000 block=64,1,1 grid=16,1,1 source=model'
It must match exactly one decision in LOG.json (one JSON object per line)
whose data values equal the given ones. With --launches (lines written by the
recording stand-in for libcudart), the launch sequence must contain the
decided grid and block for that kernel. --count N checks the number of
decisions in the log.
"""
import argparse
import json
import sys


def fail(msg):
    print("check-decisions: error: " + msg, file=sys.stderr)
    sys.exit(1)


def triple(text):
    parts = [int(p) for p in text.split(",")]
    if len(parts) != 3:
        fail("expected X,Y,Z, got '%s'" % text)
    return parts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--log", required=True)
    ap.add_argument("--launches")
    ap.add_argument("--count", type=int)
    ap.add_argument("expect", nargs="*")
    args = ap.parse_args()

    decisions = []
    with open(args.log) as f:
        for lineno, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                decisions.append(json.loads(line))
            except json.JSONDecodeError as e:
                fail("%s:%d: not JSON: %s" % (args.log, lineno, e))
    for d in decisions:
        for key in ("kernel", "data", "block", "grid", "source"):
            if key not in d:
                fail("decision without '%s': %s" % (key, json.dumps(d)))
    if args.count is not None and len(decisions) != args.count:
        fail("expected %d decisions, found %d" % (args.count, len(decisions)))

    launches = []
    if args.launches:
        with open(args.launches) as f:
            for line in f:
                w = line.split()
                if len(w) >= 10 and w[0] == "launch":
                    launches.append((w[1], [int(x) for x in w[3:6]], [int(x) for x in w[7:10]]))

    for spec in args.expect:
        words = spec.split()
        kernel, want = words[0], dict(w.split("=", 1) for w in words[1:])
        data = {k: int(v) for k, v in want.items() if k not in ("block", "grid", "source")}
        found = [d for d in decisions if d["kernel"] == kernel and
                 {k: d["data"].get(k) for k in data} == data]
        if len(found) != 1:
            fail("'%s': %d matching decisions in %s" % (spec, len(found), args.log))
        d = found[0]
        for key in ("block", "grid"):
            if key in want and list(d[key]) != triple(want[key]):
                fail("'%s': %s is %s" % (spec, key, d[key]))
        if "source" in want and d["source"] != want["source"]:
            fail("'%s': source is %s" % (spec, d["source"]))
        if args.launches:
            hits = [l for l in launches if kernel in l[0] and l[1] == list(d["grid"]) and
                    l[2] == list(d["block"])]
            if not hits:
                fail("'%s': no launch with grid %s block %s in %s" %
                     (spec, d["grid"], d["block"], args.launches))
        print("ok: " + spec)


if __name__ == "__main__":
    main()
