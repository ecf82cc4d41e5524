#!/usr/bin/env python3
"""usage: compare-estimates.py PROFILE.db BENCH.jsonl

For every shape of every KLARAPTOR_BENCH record, the profile database must
hold a sample of the same kernel, data and block whose time_ns equals the
record's estimate (relative difference below 1e-9). Prints the count."""
import json
import sqlite3
import sys

db = sqlite3.connect(sys.argv[1])
compared = differ = 0
for line in open(sys.argv[2]):
    r = json.loads(line)
    data = json.dumps(r["data"], sort_keys=True, separators=(",", ":"))
    for s in r["shapes"]:
        rows = db.execute(
            "SELECT s.time_ns FROM samples s JOIN launches l ON s.launch_id = l.id "
            "JOIN kernels k ON l.kernel_id = k.id WHERE k.name = ? AND l.data = ? "
            "AND s.block_x = ? AND s.block_y = ? AND s.block_z = ? AND s.status = 'ok'",
            (r["kernel"], data, *s["block"])).fetchall()
        compared += 1
        if len(rows) != 1 or s["ns"] is None or \
                abs(rows[0][0] - s["ns"]) > 1e-9 * max(abs(rows[0][0]), 1):
            differ += 1
            print("differ: block %s: profile %r, alone %r" % (s["block"], rows, s["ns"]))
print("%d shapes compared, %d differ" % (compared, differ))
