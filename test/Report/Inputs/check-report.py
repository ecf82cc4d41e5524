#!/usr/bin/env python3
"""Checks `klaraptor report` output against the profile database it read.

  check-report.py json --db DB --json R.json [--text R.txt] [--size N=1,M=2]
      The JSON report's numbers are recomputed independently: measured times
      are the database's time_ns of those samples (sqlite3), shapes are every
      ok sample at the size, sorted by measured time; ranks, the best and the
      chosen shape and best/chosen follow from the rows; the default size is
      the largest by product of values; Spearman and the geomean ratio match
      the samples. With --text, each kernel's ratio line of the terminal
      report equals the JSON's. Prints one line per kernel.

  check-report.py html --html R.html --name NAME... [--svg-per-kernel 2]
      Parses the page with html.parser, checks tags balance, that the page
      loads nothing external, names every kernel, and has the SVGs.
"""
import argparse
import html.parser
import json
import math
import re
import sqlite3
import sys


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def avg_ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def pearson(a, b):
    n = len(a)
    if n < 2:
        return 0.0
    ma, mb = sum(a) / n, sum(b) / n
    sab = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    saa = sum((x - ma) ** 2 for x in a)
    sbb = sum((y - mb) ** 2 for y in b)
    if saa == 0 or sbb == 0:
        return 0.0
    return sab / math.sqrt(saa * sbb)


def close(a, b, rel=1e-9):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-300)


def check_json(args):
    rep = json.load(open(args.json))
    db = sqlite3.connect(args.db)
    for key in ("db", "device", "backend", "klaraptor_version", "date"):
        if not isinstance(rep.get(key), str) or not rep[key]:
            fail("header field %r missing" % key)
    meta = dict(db.execute("SELECT key, value FROM meta"))
    if rep["backend"] != meta["backend"]:
        fail("backend %r, the database says %r" % (rep["backend"], meta["backend"]))
    text = open(args.text).read() if args.text else None
    want = None
    if args.size:
        want = {k: int(v) for k, v in (i.split("=") for i in args.size.split(","))}
    for k in rep["kernels"]:
        name = k["kernel"]
        (kid,) = db.execute(
            "SELECT max(id) FROM kernels WHERE name = ?", (name,)).fetchone()
        if kid is None:
            fail("%s: not in the database" % name)
        rows = db.execute(
            "SELECT s.launch_id, l.data, s.block_x, s.block_y, s.block_z, "
            "s.time_ns FROM samples s JOIN launches l ON s.launch_id = l.id "
            "WHERE l.kernel_id = ? AND s.status = 'ok' AND s.time_ns > 0",
            (kid,)).fetchall()
        by_tuple = {}
        for launch, data, bx, by, bz, t in rows:
            by_tuple.setdefault(data, {})[(launch, bx, by, bz)] = t
        tuples = [json.loads(d) for d in by_tuple]
        # The size: --size, or the largest by product of values.
        size = k["size"]
        if want is not None:
            if size != {n: want[n] for n in size}:
                fail("%s: size %r, asked for %r" % (name, size, want))
        else:
            prod = lambda t: math.prod(t.values())
            if prod(size) != max(prod(t) for t in tuples):
                fail("%s: size %r is not the largest of %r" % (name, size, tuples))
        if sorted(map(json.dumps, k["sizes"])) != sorted(map(json.dumps, tuples)):
            fail("%s: sizes %r, the database has %r" % (name, k["sizes"], tuples))
        at = by_tuple[json.dumps(size, separators=(",", ":"), sort_keys=True)]
        shapes = k["shapes"]
        if len(shapes) != len(at):
            fail("%s: %d shapes, the database has %d ok samples at %r"
                 % (name, len(shapes), len(at), size))
        for s in shapes:
            key = (s["launch_id"], *s["block"])
            if key not in at:
                fail("%s: shape %r not in the database" % (name, key))
            if s["measured_ns"] != at[key]:
                fail("%s: shape %r measured %r, the database's time_ns %r"
                     % (name, key, s["measured_ns"], at[key]))
        meas = [s["measured_ns"] for s in shapes]
        if meas != sorted(meas):
            fail("%s: shapes not sorted by measured time" % name)
        pred = [s["predicted_ns"] for s in shapes]
        for i, s in enumerate(shapes):
            if s["measured_rank"] != 1 + sum(m < meas[i] for m in meas):
                fail("%s: measured rank of row %d" % (name, i))
            if pred[i] is not None and s["predicted_rank"] != 1 + sum(
                    p is not None and p < pred[i] for p in pred):
                fail("%s: predicted rank of row %d" % (name, i))
        best = [i for i, s in enumerate(shapes) if s["best"]]
        chosen = [i for i, s in enumerate(shapes) if s["chosen"]]
        if best != [k["best"]] or meas[best[0]] != min(meas):
            fail("%s: best %r is not the least measured" % (name, best))
        preds = [p for p in pred if p is not None]
        if chosen != [k["chosen"]] or pred[chosen[0]] != min(preds):
            fail("%s: chosen %r is not the least predicted" % (name, chosen))
        ratio = meas[best[0]] / meas[chosen[0]]
        if not close(ratio, k["best_over_chosen"]) or not 0 < ratio <= 1:
            fail("%s: best/chosen %r, recomputed %r"
                 % (name, k["best_over_chosen"], ratio))
        # Agreement over every sample.
        pts = [(p["measured_ns"], p["predicted_ns"]) for p in k["samples"]
               if p["predicted_ns"] is not None and p["predicted_ns"] > 0]
        if len(k["samples"]) != len(rows):
            fail("%s: %d samples, the database has %d ok" % (name, len(k["samples"]), len(rows)))
        ag = k["fit"]["agreement"]
        if ag["samples"] != len(pts):
            fail("%s: agreement over %d samples, %d predicted" % (name, ag["samples"], len(pts)))
        sp = pearson(avg_ranks([p for _, p in pts]), avg_ranks([m for m, _ in pts]))
        gm = math.exp(sum(math.log(p / m) for m, p in pts) / len(pts))
        if abs(sp - ag["spearman"]) > 1e-9 or not close(gm, ag["geomean_ratio"]):
            fail("%s: agreement %r, recomputed spearman %r geomean %r"
                 % (name, ag, sp, gm))
        if text is not None:
            # The terminal heading: "kernel SOURCE (DEVICE; variables ...)".
            shown = k.get("source_name") or name
            sect = text.split("kernel %s (%s;" % (shown, name), 1)
            if len(sect) != 2:
                fail("%s: not in the terminal report" % name)
            m = re.search(r"best/chosen measured time: ([0-9.]+)", sect[1])
            if not m or abs(float(m.group(1)) - ratio) > 5e-5:
                fail("%s: terminal ratio %r, recomputed %r"
                     % (name, m and m.group(1), ratio))
        print("%s: %d shapes at %s, best/chosen %.4f ok"
              % (name, len(shapes), ",".join("%s=%d" % kv for kv in sorted(size.items())),
                 ratio))


VOID = {"meta", "br", "hr", "img", "input", "link", "col", "area", "base",
        "wbr", "source", "track", "param", "embed"}


class Parser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.svgs, self.text, self.errors = [], 0, [], []
        self.external = []

    def handle_starttag(self, tag, attrs):
        for a, v in attrs:
            if a in ("src", "href") and v and not v.startswith("#"):
                self.external.append(v)
        if tag == "link" or tag == "script":
            self.external.append(tag)
        if tag == "svg":
            self.svgs += 1
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))

    def handle_startendtag(self, tag, attrs):
        if tag == "svg":
            self.svgs += 1

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            self.errors.append("</%s> at %r closes %r" % (
                tag, self.getpos(), self.stack[-1] if self.stack else None))
            return
        self.stack.pop()

    def handle_data(self, data):
        self.text.append(data)


def check_html(args):
    src = open(args.html, encoding="utf-8").read()
    p = Parser()
    p.feed(src)
    p.close()
    if p.errors:
        fail("unbalanced tags: " + "; ".join(p.errors[:3]))
    if p.stack:
        fail("unclosed tags: %r" % p.stack[:3])
    if p.external:
        fail("loads external resources: %r" % p.external)
    text = "".join(p.text)
    for n in args.name:
        if n not in text:
            fail("kernel %r not named" % n)
    sections = src.count('<section class="kernel"')
    if sections != len(args.name):
        fail("%d kernel sections, expected %d" % (sections, len(args.name)))
    want = args.svg_per_kernel * len(args.name)
    if p.svgs != want:
        fail("%d <svg> elements, expected %d" % (p.svgs, want))
    for field in ("database", "device", "backend", "klaraptor version", "date"):
        if field not in text:
            fail("header lacks %r" % field)
    print("html ok: %d kernels, %d svg, %d bytes" % (sections, p.svgs, len(src)))


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="cmd", required=True)
    j = sub.add_parser("json")
    j.add_argument("--db", required=True)
    j.add_argument("--json", required=True)
    j.add_argument("--text")
    j.add_argument("--size")
    h = sub.add_parser("html")
    h.add_argument("--html", required=True)
    h.add_argument("--name", action="append", default=[])
    h.add_argument("--svg-per-kernel", type=int, default=2)
    args = ap.parse_args()
    check_json(args) if args.cmd == "json" else check_html(args)


if __name__ == "__main__":
    main()
