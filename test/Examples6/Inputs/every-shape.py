#!/usr/bin/env python3
"""every-shape.py - run an annotated program once per admissible block shape.

Usage:
  every-shape.py --dims 1|2 --n N --kernels K1[,K2...] -- PROGRAM ARGS...

PROGRAM must be built for the emulator with test/Inputs/models/TargetShapeModel.c.
The admissible shapes are enumerated here, independently of klaraptor, for
the pragmas of examples/polybench/:
  2-D  block(bx, by) where(bx <= N, by <= N): bx, by powers of two,
       32 <= bx*by <= 1024;
  1-D  block(bx) where(bx <= N): bx a power of two, 32 <= bx <= min(N, 1024).
For each shape the program runs with KLARAPTOR_TEST_MODEL_KERNELS=KERNELS,
KLARAPTOR_TEST_MODEL_BLOCK=bx,by,1 and a fresh KLARAPTOR_LOG, and this script
asserts that it exits with status 0 and prints "...: ok", and that the log
holds exactly one decision per kernel, each a model decision for data N among
exactly as many candidates as enumerated here, launching block (bx, by, 1)
and grid (ceil(N/bx), ceil(N/by), 1) (1-D: (ceil(N/bx), 1, 1)), for the request PolyBench/GPU makes
(32x8 blocks, or 256 threads in 1-D). Then it prints one line per kernel:
  KERNEL N=N: COUNT shapes ok
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile


def fail(msg):
    print("every-shape: error: " + msg, file=sys.stderr)
    sys.exit(1)


def ceildiv(a, b):
    return -(-a // b)


def shapes(dims, n):
    pow2 = [1 << e for e in range(11)]  # 1..1024
    if dims == 1:
        return [(bx, 1) for bx in pow2 if 32 <= bx <= n]
    return [(bx, by) for bx in pow2 for by in pow2
            if bx <= n and by <= n and 32 <= bx * by <= 1024]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--dims", type=int, choices=(1, 2), required=True)
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--kernels", required=True)
    ap.add_argument("command", nargs="+")
    args = ap.parse_args()
    n, kernels = args.n, args.kernels.split(",")
    todo = shapes(args.dims, n)
    if not todo:
        fail("no admissible shape for N=%d" % n)
    if args.dims == 2:
        requested = {"block": [32, 8, 1], "grid": [ceildiv(n, 32), ceildiv(n, 8), 1]}
    else:
        requested = {"block": [256, 1, 1], "grid": [ceildiv(n, 256), 1, 1]}

    with tempfile.TemporaryDirectory() as tmp:
        for bx, by in todo:
            shape = "%dx%d" % (bx, by)
            log = os.path.join(tmp, "log-%s.json" % shape)
            env = dict(os.environ)
            env.update(KLARAPTOR_TEST_MODEL_KERNELS=",".join(kernels),
                       KLARAPTOR_TEST_MODEL_BLOCK="%d,%d,1" % (bx, by),
                       KLARAPTOR_LOG=log)
            p = subprocess.run(args.command, env=env, capture_output=True, text=True)
            what = "%s with block %s" % (" ".join(args.command), shape)
            if p.returncode != 0:
                fail("%s: exit status %d\n%s%s" % (what, p.returncode, p.stdout, p.stderr))
            if not re.search(r"^\S+ N=%d\b.*: ok$" % n, p.stdout, re.M):
                fail("%s: no 'N=%d ...: ok' line\n%s%s" % (what, n, p.stdout, p.stderr))
            if not os.path.exists(log):
                fail("%s: no decision log" % what)
            with open(log) as f:
                decisions = [json.loads(line) for line in f if line.strip()]
            want = {"block": [bx, by, 1],
                    "grid": [ceildiv(n, bx), ceildiv(n, by) if args.dims == 2 else 1, 1],
                    "source": "model", "candidates": len(todo),
                    "data": {"N": n}, "requested": requested}
            for d in decisions:
                if d.get("kernel") not in kernels:
                    fail("%s: decision for another kernel: %s" % (what, json.dumps(d)))
                for key, value in want.items():
                    if d.get(key) != value:
                        fail("%s: %s: %s is %s, expected %s" %
                             (what, d.get("kernel"), key, json.dumps(d.get(key)),
                              json.dumps(value)))
            for k in kernels:
                count = sum(1 for d in decisions if d["kernel"] == k)
                if count != 1:
                    fail("%s: %d decisions for %s, expected 1" % (what, count, k))
    for k in kernels:
        print("%s N=%d: %d shapes ok" % (k, n, len(todo)))


if __name__ == "__main__":
    main()
