#!/usr/bin/env python3
"""Prints what a klaraptor profile database holds, one fact per line, for
FileCheck, and fails (exit 1) when a recorded sample is inconsistent:
an "ok" sample without the metrics docs/metrics.md promises, a non-positive
time, registers or instruction count, or a launch that measured one block
shape twice. Reads the schema of docs/profile-db.md with Python's sqlite3.

With --log FILE (a KLARAPTOR_LOG of the same program run in tune mode
without a model), each launch must have measured exactly as many shapes as
the runtime counted admissible candidates for that kernel and data.

usage: profile-db-summary.py DB [--log FILE]"""
import json
import sqlite3
import sys


def main():
    db = sqlite3.connect(sys.argv[1])
    expected = {}
    if len(sys.argv) > 3 and sys.argv[2] == "--log":
        for line in open(sys.argv[3]):
            d = json.loads(line)
            key = (d["device_name"],
                   json.dumps(d["data"], sort_keys=True, separators=(",", ":")))
            expected[key] = d["candidates"]
    meta = dict(db.execute("SELECT key, value FROM meta"))
    print("meta schema=%s device=%s backend=%s" % (
        meta.get("schema_version"), meta.get("device"), meta.get("backend")))
    runs = db.execute("SELECT status, count(*) FROM runs GROUP BY status "
                      "ORDER BY status").fetchall()
    print("runs " + " ".join("%s=%d" % r for r in runs))
    bad = []
    for kid, name in db.execute("SELECT id, name FROM kernels ORDER BY name"):
        launches = db.execute(
            "SELECT id, data FROM launches WHERE kernel_id = ? ORDER BY data",
            (kid,)).fetchall()
        total = ok = 0
        datas = []
        for lid, data in launches:
            rows = db.execute(
                "SELECT id, block_x, block_y, block_z, registers, time_ns, "
                "status FROM samples WHERE launch_id = ?", (lid,)).fetchall()
            shapes = set()
            for sid, bx, by, bz, regs, ns, status in rows:
                total += 1
                if (bx, by, bz) in shapes:
                    bad.append("%s %s: block %d,%d,%d measured twice" %
                               (name, data, bx, by, bz))
                shapes.add((bx, by, bz))
                if status != "ok":
                    continue
                ok += 1
                m = dict(db.execute(
                    "SELECT key, value FROM metrics WHERE sample_id = ?",
                    (sid,)))
                for key in ("inst_executed", "warps_launched",
                            "blocks_launched", "estimated_ns"):
                    if m.get(key, 0) <= 0:
                        bad.append("%s %s block %d,%d,%d: %s = %r" %
                                   (name, data, bx, by, bz, key, m.get(key)))
                if m.get("threads_per_block", bx * by * bz) != bx * by * bz:
                    bad.append("%s: threads_per_block %r for block %d,%d,%d" %
                               (name, m.get("threads_per_block"), bx, by, bz))
                if ns <= 0 or regs <= 0:
                    bad.append("%s %s block %d,%d,%d: time %r regs %r" %
                               (name, data, bx, by, bz, ns, regs))
            datas.append("%s:%d" % (data, len(rows)))
            if expected and expected.get((name, data)) != len(rows):
                bad.append("%s %s: %d shapes measured, %r candidates" %
                           (name, data, len(rows), expected.get((name, data))))
        print("kernel %s launches=%d samples=%d ok=%d" %
              (name, len(launches), total, ok))
        for d in datas:
            print("  data " + d)
    for b in bad:
        print("error: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
