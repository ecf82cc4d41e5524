#!/usr/bin/env python3
"""Checks a profile database the cupti backend wrote (docs/cupti.md) and
prints one fact per line for FileCheck; exits 1 after printing "error: ..."
lines when a sample is inconsistent.

For every sample: status ok, time_ns > 0 and equal to the gpu_time_ns
metric, gpu_time_ns_min <= gpu_time_ns <= gpu_time_ns_max, registers > 0,
inst_executed > 0, and the counts a launch fixes analytically:
blocks_launched = the grid's size, warps_launched = blocks * ceil(threads
per block / 32).

  --log FILE            a KLARAPTOR_LOG of the same program (tune mode, no
                        model): each launch must have one sample per
                        admissible candidate the runtime counted
  --sectors K=P:A       for kernels whose name contains K, and samples whose
                        block x is a multiple of 32, global_load_sectors must
                        be A * ceil(P * 4 / 32), P the data parameter's value
                        (A float arrays of P elements, each loaded once)

usage: check-cupti-db.py DB [--log FILE] [--sectors K=P:A]"""
import json
import sqlite3
import sys


def main():
    args = sys.argv[1:]
    db = sqlite3.connect(args[0])
    log = sectors = None
    i = 1
    while i < len(args):
        if args[i] == "--log":
            log = args[i + 1]
        elif args[i] == "--sectors":
            k, rest = args[i + 1].split("=", 1)
            p, a = rest.split(":")
            sectors = (k, p, int(a))
        i += 2
    expected = {}
    if log:
        for line in open(log):
            d = json.loads(line)
            key = (d["device_name"],
                   json.dumps(d["data"], sort_keys=True, separators=(",", ":")))
            expected[key] = d["candidates"]
    meta = dict(db.execute("SELECT key, value FROM meta"))
    print("meta backend=%s device=%s" % (meta.get("backend"),
                                          "set" if meta.get("device") else "none"))
    runs = db.execute("SELECT status, count(*) FROM runs GROUP BY status "
                      "ORDER BY status").fetchall()
    print("runs " + " ".join("%s=%d" % r for r in runs))
    bad = []
    sector_checks = 0
    for kid, name in db.execute("SELECT id, name FROM kernels ORDER BY name"):
        launches = db.execute(
            "SELECT id, data FROM launches WHERE kernel_id = ? ORDER BY data",
            (kid,)).fetchall()
        total = ok = 0
        for lid, data in launches:
            rows = db.execute(
                "SELECT id, block_x, block_y, block_z, grid_x, grid_y, grid_z, "
                "registers, time_ns, status FROM samples WHERE launch_id = ?",
                (lid,)).fetchall()
            if expected and expected.get((name, data)) != len(rows):
                bad.append("%s %s: %d shapes measured, %r candidates" %
                           (name, data, len(rows), expected.get((name, data))))
            for sid, bx, by, bz, gx, gy, gz, regs, ns, status in rows:
                total += 1
                where = "%s %s block %d,%d,%d" % (name, data, bx, by, bz)
                if status != "ok":
                    bad.append("%s: status %r" % (where, status))
                    continue
                ok += 1
                m = dict(db.execute(
                    "SELECT key, value FROM metrics WHERE sample_id = ?",
                    (sid,)))
                def need(cond, what):
                    if not cond:
                        bad.append("%s: %s (%r)" % (where, what, m))
                need(ns > 0 and regs > 0, "time_ns %r registers %r" % (ns, regs))
                need(m.get("gpu_time_ns") == ns, "time_ns != gpu_time_ns")
                need(m.get("gpu_time_ns_min", -1) <= ns <=
                     m.get("gpu_time_ns_max", -1), "time outside min/max")
                need(m.get("inst_executed", 0) > 0, "inst_executed")
                blocks = gx * gy * gz
                warps = blocks * ((bx * by * bz + 31) // 32)
                need(m.get("blocks_launched") == blocks,
                     "blocks_launched != %d" % blocks)
                need(m.get("warps_launched") == warps,
                     "warps_launched != %d" % warps)
                if sectors and sectors[0] in name and bx % 32 == 0:
                    n = json.loads(data)[sectors[1]]
                    want = sectors[2] * ((n * 4 + 31) // 32)
                    sector_checks += 1
                    need(m.get("global_load_sectors") == want,
                         "global_load_sectors != %d" % want)
        print("kernel %s launches=%d samples=%d ok=%d" %
              (name, len(launches), total, ok))
    if sectors:
        print("sector checks %s" % ("some" if sector_checks else "none"))
    for b in bad:
        print("error: " + b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
