#!/usr/bin/env python3
"""check-report.py - assert what KLARAPTOR_EMU_REPORT wrote.

Usage:
  check-report.py REPORT.jsonl --docs docs/metrics.md EXPECT...

Every line of REPORT.jsonl must be one JSON object with exactly the keys
docs/metrics.md documents (its tables list each key as `key`). The i-th
EXPECT, 'KERNEL key=value ...', must match the i-th record: KERNEL is the
(mangled) kernel name, a value is an integer, a list X,Y,Z, or '>0'.
"""
import argparse
import json
import re
import sys


def fail(msg):
    print("check-report: error: " + msg, file=sys.stderr)
    sys.exit(1)


def documented_keys(path):
    keys = []
    for line in open(path):
        m = re.match(r"\|\s*`([a-z0-9_]+)`\s*\|", line)
        if m:
            keys.append(m.group(1))
    if not keys:
        fail("no keys found in " + path)
    return keys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("report")
    ap.add_argument("--docs", required=True)
    ap.add_argument("expect", nargs="*")
    args = ap.parse_intermixed_args()
    keys = documented_keys(args.docs)
    records = []
    for n, line in enumerate(open(args.report), 1):
        try:
            records.append(json.loads(line))
        except ValueError as e:
            fail("line %d is not JSON: %s" % (n, e))
    for n, r in enumerate(records, 1):
        missing = [k for k in keys if k not in r]
        extra = [k for k in r if k not in keys]
        if missing or extra:
            fail("record %d: undocumented keys %s, missing keys %s" % (n, extra, missing))
    if len(records) != len(args.expect):
        fail("%d records, expected %d" % (len(records), len(args.expect)))
    for n, (r, e) in enumerate(zip(records, args.expect), 1):
        parts = e.split()
        if r["kernel"] != parts[0]:
            fail("record %d: kernel %s, expected %s" % (n, r["kernel"], parts[0]))
        for kv in parts[1:]:
            k, v = kv.split("=", 1)
            if k not in r:
                fail("record %d: no key %s" % (n, k))
            got = r[k]
            if v == ">0":
                ok = isinstance(got, (int, float)) and got > 0
            elif "," in v:
                ok = got == [int(x) for x in v.split(",")]
            else:
                ok = got == int(v)
            if not ok:
                fail("record %d (%s): %s is %s, expected %s" % (n, parts[0], k, got, v))
    print("check-report: %d records ok" % len(records))


if __name__ == "__main__":
    main()
