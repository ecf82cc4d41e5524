#!/usr/bin/env python3
"""How long `klaraptor fit` takes on the examples' profiles, side by side.

Reads the profile databases a `klaraptor bench` run left in its working
folder (WORK/<program>/profile.db), and times `klaraptor fit` on each, with
one or more klaraptor executables (to compare builds: LABEL=PATH), on a
fresh copy of the database every time with its fit cache dropped (so that
no kept fit is reused), best of --repeats runs. Prints a Markdown table: per
program its kernels and samples, and per executable the wall seconds (all
cores, as a user runs it), the CPU seconds (user + system) and the wall
seconds per kernel.

Usage:
  scripts/fit-times.py WORK [--klaraptor LABEL=PATH ...] [--repeats N]
                            [--only a,b] [--markdown FILE] [--quantities]

Example (docs/results.md, "Fit time"):
  build/bin/klaraptor bench --work /tmp/b    # makes the profiles
  scripts/fit-times.py /tmp/b --klaraptor before=/tmp/old/bin/klaraptor \\
      --klaraptor after=build/bin/klaraptor
"""
import argparse
import json
import os
import resource
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time


def has_timings(binary):
    """Whether this klaraptor's `fit` takes --timings (older builds do not)."""
    r = subprocess.run([binary, "fit", "--help"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    return "--timings" in r.stdout.decode(errors="replace")


def fit_once(binary, timings, db, scratch):
    """Wall and CPU seconds of one `klaraptor fit` on a copy of db, and the
    per-quantity seconds of its fit report (with --timings when the binary
    takes it)."""
    copy = os.path.join(scratch, "p.db")
    shutil.copyfile(db, copy)
    # The fits a bench run (or an earlier fit) kept in the database would be
    # reused: drop them (docs/cli.md, "The fit cache").
    c = sqlite3.connect(copy)
    c.execute("DELETE FROM meta WHERE key LIKE 'fit_cache:%'")
    c.commit()
    c.close()
    out = os.path.join(scratch, "models")
    shutil.rmtree(out, ignore_errors=True)
    args = [binary, "fit", "--db", copy, "--out", out]
    if timings:
        args.append("--timings")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    r = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    wall = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode != 0:
        sys.exit("fit-times: %s fit --db %s failed:\n%s" %
                 (binary, db, r.stdout.decode(errors="replace")[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    quantities = []
    with open(os.path.join(out, "fit-report.json")) as f:
        for k in json.load(f).get("kernels", []):
            for q in k.get("quantities", []):
                if "fit_seconds" in q:
                    quantities.append((k.get("source_name", k["kernel"]),
                                       q["name"], q["fit_seconds"],
                                       q["pieces_seconds"]))
    return wall, cpu, quantities


def counts(db):
    """Kernels and usable samples of a profile database."""
    c = sqlite3.connect("file:%s?mode=ro" % db, uri=True)
    kernels = c.execute("SELECT COUNT(DISTINCT name) FROM kernels").fetchone()[0]
    samples = c.execute(
        "SELECT COUNT(*) FROM samples WHERE status = 'ok'").fetchone()[0]
    c.close()
    return kernels, samples


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("work")
    ap.add_argument("--klaraptor", action="append", default=[],
                    metavar="LABEL=PATH")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--only", default="")
    ap.add_argument("--markdown")
    ap.add_argument("--quantities", action="store_true",
                    help="also print, per quantity, the seconds its fits took "
                         "and the part spent trying pieces (the fit report's "
                         "fit_seconds and pieces_seconds, of each program's "
                         "fastest run)")
    a = ap.parse_args()
    if a.repeats < 1:
        sys.exit("fit-times: --repeats must be at least 1")
    here = os.path.dirname(os.path.abspath(__file__))
    binaries = []
    for spec in a.klaraptor or ["this=" + os.path.join(here, "..", "build",
                                                       "bin", "klaraptor")]:
        label, sep, path = spec.partition("=")
        if not sep or not label or not os.access(path, os.X_OK):
            sys.exit("fit-times: --klaraptor %r: expected LABEL=PATH of an "
                     "executable" % spec)
        binaries.append((label, path, has_timings(path)))
    only = [p for p in a.only.split(",") if p]
    programs = sorted(p for p in os.listdir(a.work)
                      if os.path.isfile(os.path.join(a.work, p, "profile.db"))
                      and (not only or p in only))
    if not programs:
        sys.exit("fit-times: no <program>/profile.db in %s (run klaraptor "
                 "bench --work %s first)" % (a.work, a.work))
    head = "| program | kernels | samples |"
    rule = "|---|---:|---:|"
    for label, _, _ in binaries:
        head += " %s wall s | %s CPU s | %s wall s/kernel |" % ((label,) * 3)
        rule += "---:|---:|---:|"
    lines = [head, rule]
    print(head)
    print(rule)
    totals = {label: [0.0, 0.0] for label, _, _ in binaries}
    per_quantity = []
    with tempfile.TemporaryDirectory() as scratch:
        for p in programs:
            db = os.path.join(a.work, p, "profile.db")
            kernels, samples = counts(db)
            row = "| %s | %d | %d |" % (p, kernels, samples)
            for label, path, timings in binaries:
                best = min((fit_once(path, timings, db, scratch)
                            for _ in range(a.repeats)), key=lambda r: r[0])
                for kernel, name, secs, pieces in best[2]:
                    per_quantity.append("| %s | %s | %s | %s | %.2f | %.2f |" %
                                        (label, p, kernel, name, secs, pieces))
                totals[label][0] += best[0]
                totals[label][1] += best[1]
                row += " %.2f | %.2f | %.2f |" % (best[0], best[1],
                                                 best[0] / max(kernels, 1))
            print(row, flush=True)
            lines.append(row)
    row = "| total | | |"
    for label, _, _ in binaries:
        row += " %.2f | %.2f | |" % tuple(totals[label])
    print(row)
    lines.append(row)
    if a.quantities:
        # Seconds on one thread of the fit's pool (several quantities fit at
        # once), so they add up to about the CPU time, not the wall time.
        block = ["", "| klaraptor | program | kernel | quantity | fit s | "
                 "of which pieces s |", "|---|---|---|---|---:|---:|"]
        block += per_quantity
        print("\n".join(block))
        lines += block
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
