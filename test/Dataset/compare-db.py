"""Compares two profile databases table by table (every column, ids
included): the round trip export -> import must give the same content.
The meta keys program_identity:PATH (the profiled program file, kept by
`klaraptor profile` and deliberately not exported) are left out."""
import sqlite3
import sys

TABLES = ["meta", "runs", "kernels", "launches", "samples", "metrics"]


def dump(path):
    db = sqlite3.connect(path)
    out = {}
    for t in TABLES:
        cols = [r[1] for r in db.execute("PRAGMA table_info(%s)" % t)]
        order = ", ".join(cols)
        out[t] = db.execute("SELECT * FROM %s ORDER BY %s" % (t, order)).fetchall()
        if t == "meta":
            out[t] = [r for r in out[t] if not r[0].startswith("program_identity:")]
    out["user_version"] = db.execute("PRAGMA user_version").fetchall()
    return out


a, b = dump(sys.argv[1]), dump(sys.argv[2])
bad = 0
for t in a:
    if a[t] != b[t]:
        bad += 1
        print("table %s differs: %d vs %d rows" % (t, len(a[t]), len(b[t])))
        for x, y in zip(a[t], b[t]):
            if x != y:
                print("  first difference:", x, "vs", y)
                break
if not a["samples"] or not a["metrics"]:
    print("the database has no samples or metrics: nothing was compared")
    bad += 1
if bad:
    sys.exit(1)
print("identical: %s" % ", ".join("%s %d" % (t, len(a[t])) for t in TABLES))
