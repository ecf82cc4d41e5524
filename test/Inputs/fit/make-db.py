#!/usr/bin/env python3
"""Writes a synthetic klaraptor profile database (schema version 1 of
docs/profile-db.md) whose metrics follow known formulas, for the tests of
`klaraptor fit`.

  make-db.py OUT.db [--kind saxpy|few|empty|nodevice|mixed|ceil|ratio|warp] [--device NAME]

saxpy: kernel _Z5saxpyPfPKffi with the spec of examples/saxpy's pragma
(data N, free bx, grid ceildiv(N, bx)); N in 1024..32768, bx in 32..1024;
per sample (warps = N/32 here):
  inst_executed         = 3*N/8 + 16*N/bx
  global_load_requests  = N/16,  global_load_sectors  = N/4  (coalesced)
  global_store_requests = N/32,  global_store_sectors = N    (uncoalesced)
  inst_barrier          = N/bx
  registers 16, shared_bytes 4*bx
plus one failed sample. ceil: kernel _Z4gridPfii (data R, C, free bx, by,
grid ceildiv(C, bx), ceildiv(R, by); a thread works when its row < R and
its column < C); sizes that blocks overhang, so the totals have ceil
effects, but per warp they follow known formulas (active = warps with a
working thread, counted by enumerating the threads; idle = warps - active):
  inst_executed         = (2*C + 30) * active + 9 * idle
  global_load_requests  = 2 * active,  global_load_sectors  = 8 * active
  global_store_requests = active,      global_store_sectors = 4 * active
  registers 20, shared 0.
warp: the grid kernel as a matrix product reads (per active warp C times
an element of its rows, one per row, and C times a row of its columns)
and writes its block: the sectors and lines of a request are those of the
warp's shape (wx = min(bx, 32) threads of a row, wy = min(by, 32 / wx)
rows):
  global_load_requests  = 2 * C * active
  global_load_sectors   = load requests * (wy + ceil(wx / 8)) / 2
  global_load_lines     = load requests * (wy + 1) / 2
  global_store_requests = active
  global_store_sectors  = active * wy * ceil(wx / 8)
the shapes profiled at most 128 wide (as `where(bx <= N)` at small sizes).
few: the same kernel with 3 samples. empty: no
kernels. nodevice: saxpy with an empty `device` meta value. mixed: saxpy and
a second kernel, _Z4tinyPfi (data N, free bx), with 2 samples only.
"""
import argparse
import json
import os
import sqlite3

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE runs (
  id INTEGER PRIMARY KEY, command_line TEXT NOT NULL, sizes TEXT NOT NULL,
  start_time TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  end_time TEXT, status TEXT NOT NULL DEFAULT 'running');
CREATE TABLE kernels (
  id INTEGER PRIMARY KEY, name TEXT NOT NULL, spec TEXT NOT NULL,
  spec_hash TEXT NOT NULL, UNIQUE (name, spec_hash));
CREATE TABLE launches (
  id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
  kernel_id INTEGER NOT NULL REFERENCES kernels(id), data TEXT NOT NULL,
  grid_x INTEGER NOT NULL, grid_y INTEGER NOT NULL, grid_z INTEGER NOT NULL,
  block_x INTEGER NOT NULL, block_y INTEGER NOT NULL, block_z INTEGER NOT NULL);
CREATE INDEX launches_kernel_data ON launches (kernel_id, data);
CREATE TABLE samples (
  id INTEGER PRIMARY KEY, launch_id INTEGER NOT NULL REFERENCES launches(id),
  block_x INTEGER NOT NULL, block_y INTEGER NOT NULL, block_z INTEGER NOT NULL,
  grid_x INTEGER NOT NULL, grid_y INTEGER NOT NULL, grid_z INTEGER NOT NULL,
  registers INTEGER NOT NULL, shared_bytes INTEGER NOT NULL,
  time_ns REAL NOT NULL, status TEXT NOT NULL);
CREATE INDEX samples_launch ON samples (launch_id);
CREATE TABLE metrics (
  sample_id INTEGER NOT NULL REFERENCES samples(id), key TEXT NOT NULL,
  value REAL NOT NULL, PRIMARY KEY (sample_id, key)) WITHOUT ROWID;
PRAGMA user_version = 1;
"""

SAXPY_NAME = "_Z5saxpyPfPKffi"
SAXPY_SPEC = """klaraptor v1
kernel saxpy
loc saxpy.cu:13:9
param 3 n i32
data N $3
block bx
grid ceildiv(N, bx)
grid 1
grid 1
candidates pow2
"""


def fnv1a(text):
    h = 0xcbf29ce484222325
    for b in text.encode():
        h ^= b
        h = (h * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return "%016x" % h


def saxpy_metrics(n, bx):
    blocks = -(-n // bx)
    warps = blocks * -(-bx // 32)
    return {
        "inst_executed": 3 * n / 8 + 16 * n / bx,
        "global_load_requests": n / 16,
        "global_load_sectors": n / 4,
        "global_store_requests": n / 32,
        "global_store_sectors": n,
        "global_atomic_requests": 0,
        "global_atomic_sectors": 0,
        "inst_barrier": n / bx,
        "blocks_launched": blocks,
        "threads_per_block": bx,
        "warps_launched": warps,
        "registers_per_thread": 16,
        "static_shared_bytes": 4 * bx,
        "dynamic_shared_bytes_per_block": 0,
    }


GRID_NAME = "_Z4gridPfii"
GRID_SPEC = """klaraptor v1
kernel grid
loc grid.cu:5:9
param 1 r i32
param 2 c i32
data R $1
data C $2
block bx by
grid ceildiv(C, bx)
grid ceildiv(R, by)
grid 1
candidates pow2
"""


def active_warps(r, c, bx, by):
    """Warps (of 32 consecutive threads x + bx*y of a block) with a thread
    whose global row is < r and column < c, by enumerating the threads."""
    gx, gy = -(-c // bx), -(-r // by)
    total = 0
    for ix in range(gx):
        for iy in range(gy):
            warps = set()
            for y in range(by):
                if iy * by + y >= r:
                    break
                for x in range(bx):
                    if ix * bx + x >= c:
                        break
                    warps.add((x + bx * y) // 32)
            total += len(warps)
    return total


def grid_metrics(r, c, bx, by):
    blocks = -(-c // bx) * -(-r // by)
    warps = blocks * -(-(bx * by) // 32)
    active = active_warps(r, c, bx, by)
    idle = warps - active
    return {
        "inst_executed": (2 * c + 30) * active + 9 * idle,
        "global_load_requests": 2 * active,
        "global_load_sectors": 8 * active,
        "global_store_requests": active,
        "global_store_sectors": 4 * active,
        "global_atomic_requests": 0,
        "global_atomic_sectors": 0,
        "inst_barrier": 0,
        "blocks_launched": blocks,
        "threads_per_block": bx * by,
        "warps_launched": warps,
        "registers_per_thread": 20,
        "static_shared_bytes": 0,
        "dynamic_shared_bytes_per_block": 0,
    }


def ratio_metrics(r, c, bx, by):
    """The grid kernel with stores that no rational function fits (a
    wobble of up to 1 % by shape) and exactly 7 loads per store, as in a
    7-point stencil."""
    m = grid_metrics(r, c, bx, by)
    stores = m["global_store_requests"] * (1 + 0.001 * ((7 * r + 3 * bx + by) % 11))
    m["global_store_requests"] = stores
    m["global_load_requests"] = 7 * stores
    return m


def warp_shape(bx, by):
    wx = min(bx, 32)
    return wx, min(by, -(-32 // wx))


def warp_metrics(r, c, bx, by):
    m = grid_metrics(r, c, bx, by)
    active = active_warps(r, c, bx, by)
    wx, wy = warp_shape(bx, by)
    loads = 2 * c * active
    m.update({
        "global_load_requests": loads,
        "global_load_sectors": loads * (wy + -(-wx // 8)) / 2,
        "global_load_lines": loads * (wy + 1) / 2,
        "global_store_requests": active,
        "global_store_sectors": active * wy * -(-wx // 8),
    })
    return m


def write_grid(db, metrics=None):
    metrics = metrics or grid_metrics
    db.execute("INSERT INTO runs (command_line, sizes, status) "
               "VALUES ('synthetic', '{}', 'ok')")
    db.execute("INSERT INTO kernels (name, spec, spec_hash) VALUES (?,?,?)",
               (GRID_NAME, GRID_SPEC, fnv1a(GRID_SPEC)))
    shapes = [(bx, by) for bx in [1, 2, 4, 8, 16, 32, 64, 128]
              for by in [1, 2, 4, 8, 16, 32] if 32 <= bx * by <= 256]
    for r, c in [(20, 36), (30, 50), (44, 70), (60, 100), (90, 150),
                 (130, 200)]:
        data = json.dumps({"R": r, "C": c}, separators=(",", ":"))
        cur = db.execute(
            "INSERT INTO launches (run_id, kernel_id, data, grid_x, grid_y,"
            " grid_z, block_x, block_y, block_z) "
            "VALUES (1, 1, ?, ?, ?, 1, 32, 8, 1)",
            (data, -(-c // 32), -(-r // 8)))
        launch = cur.lastrowid
        for bx, by in shapes:
            m = metrics(r, c, bx, by)
            t = 1500 + m["inst_executed"] / 50.0
            cur = db.execute(
                "INSERT INTO samples (launch_id, block_x, block_y, block_z,"
                " grid_x, grid_y, grid_z, registers, shared_bytes, time_ns,"
                " status) VALUES (?, ?, ?, 1, ?, ?, 1, 20, 0, ?, 'ok')",
                (launch, bx, by, -(-c // bx), -(-r // by), t))
            for key, v in m.items():
                db.execute("INSERT INTO metrics VALUES (?, ?, ?)",
                           (cur.lastrowid, key, float(v)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--kind", default="saxpy",
                    choices=["saxpy", "few", "empty", "nodevice", "mixed",
                             "ceil", "ratio", "warp"])
    ap.add_argument("--device", default="h100-sxm")
    a = ap.parse_args()
    if os.path.exists(a.out):
        os.remove(a.out)
    db = sqlite3.connect(a.out)
    db.executescript(SCHEMA)
    device = "" if a.kind == "nodevice" else a.device
    for k, v in [("schema_version", "1"), ("klaraptor_version", "test"),
                 ("device", device), ("backend", "emu")]:
        db.execute("INSERT INTO meta VALUES (?, ?)", (k, v))
    if a.kind == "ceil":
        write_grid(db)
    elif a.kind == "ratio":
        write_grid(db, ratio_metrics)
    elif a.kind == "warp":
        write_grid(db, warp_metrics)
    elif a.kind != "empty":  # saxpy, few, nodevice, mixed
        db.execute("INSERT INTO runs (command_line, sizes, status) "
                   "VALUES ('synthetic', '{}', 'ok')")
        db.execute("INSERT INTO kernels (name, spec, spec_hash) VALUES (?,?,?)",
                   (SAXPY_NAME, SAXPY_SPEC, fnv1a(SAXPY_SPEC)))
        sizes = [1024, 2048, 4096, 8192, 16384, 32768]
        blocks = [32, 64, 128, 256, 512, 1024]
        if a.kind == "few":
            sizes, blocks = [1024], [32, 64, 128]
        for n in sizes:
            data = json.dumps({"N": n}, separators=(",", ":"))
            cur = db.execute(
                "INSERT INTO launches (run_id, kernel_id, data, grid_x, grid_y,"
                " grid_z, block_x, block_y, block_z) "
                "VALUES (1, 1, ?, ?, 1, 1, 256, 1, 1)", (data, -(-n // 256)))
            launch = cur.lastrowid
            for bx in blocks:
                m = saxpy_metrics(n, bx)
                # A made-up time: smaller blocks cost more per element.
                t = 2000 + n * (1 + 64.0 / bx) / 10
                cur = db.execute(
                    "INSERT INTO samples (launch_id, block_x, block_y, block_z,"
                    " grid_x, grid_y, grid_z, registers, shared_bytes, time_ns,"
                    " status) VALUES (?, ?, 1, 1, ?, 1, 1, 16, ?, ?, 'ok')",
                    (launch, bx, -(-n // bx), 4 * bx, t))
                for key, v in m.items():
                    db.execute("INSERT INTO metrics VALUES (?, ?, ?)",
                               (cur.lastrowid, key, float(v)))
            if a.kind == "saxpy" and n == 1024:
                # A shape that failed: never used by the fit.
                db.execute(
                    "INSERT INTO samples (launch_id, block_x, block_y, block_z,"
                    " grid_x, grid_y, grid_z, registers, shared_bytes, time_ns,"
                    " status) VALUES (?, 2048, 1, 1, 1, 1, 1, 0, 0, 0,"
                    " 'too many threads per block')", (launch,))
    if a.kind == "mixed":
        spec = SAXPY_SPEC.replace("kernel saxpy", "kernel tiny")
        db.execute("INSERT INTO kernels (name, spec, spec_hash) VALUES (?,?,?)",
                   ("_Z4tinyPfi", spec, fnv1a(spec)))
        cur = db.execute(
            "INSERT INTO launches (run_id, kernel_id, data, grid_x, grid_y,"
            " grid_z, block_x, block_y, block_z) "
            "VALUES (1, 2, '{\"N\":64}', 1, 1, 1, 64, 1, 1)")
        for bx in [32, 64]:
            sample = db.execute(
                "INSERT INTO samples (launch_id, block_x, block_y, block_z,"
                " grid_x, grid_y, grid_z, registers, shared_bytes, time_ns,"
                " status) VALUES (?, ?, 1, 1, ?, 1, 1, 8, 0, 100, 'ok')",
                (cur.lastrowid, bx, 64 // bx))
            # A counted metric: the kernel has too few samples, it is not
            # times-only.
            db.execute("INSERT INTO metrics (sample_id, key, value) "
                       "VALUES (?, 'inst_executed', 64)", (sample.lastrowid,))
    db.commit()
    db.close()


if __name__ == "__main__":
    main()
