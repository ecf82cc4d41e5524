#!/usr/bin/env python3
"""Compares the predictions of a rational program (harness.c output) with
`klaraptor fit --eval` (KernelFit::predictNs) and with MWP-CWP on the known
inputs, for test/Fit.

  compare.py HARNESS_OUT EVAL_OUT [--rel TOL]

The program and predictNs must agree exactly (the same text of %.17g); the
program and the direct MWP-CWP evaluation within TOL (relative). Every point
of EVAL_OUT must be in HARNESS_OUT. Prints one line per point."""
import sys


def main():
    args = sys.argv[1:]
    tol = 1e-12
    if "--rel" in args:
        i = args.index("--rel")
        tol = float(args[i + 1])
        del args[i:i + 2]
    harness, evals = {}, {}
    for line in open(args[0]):
        # "<point>: <program> <direct>" lines; a point names variables.
        if ": " not in line:
            continue
        point, rest = line.split(": ", 1)
        fields = rest.split()
        if "=" in point and " " not in point and len(fields) == 2:
            harness[point] = (fields[0], fields[1])
    for line in open(args[1]):
        name, rest = line.split(" ", 1)
        point, value = rest.split(": ")
        evals[point] = value.strip()
    if not evals:
        print("no points")
        return 1
    bad = 0
    for point, value in evals.items():
        if point not in harness:
            print("%s: not in the harness output" % point)
            bad += 1
            continue
        prog, direct = harness[point]
        p, d = float(prog), float(direct)
        ok_cpp = prog == value
        ok_direct = abs(p - d) <= tol * max(abs(d), 1e-300)
        if not (ok_cpp and ok_direct) or not p > 0:
            bad += 1
        print("%s: program %s predictNs %s direct %s: %s" % (
            point, prog, value, direct,
            "ok" if ok_cpp and ok_direct and p > 0 else "MISMATCH"))
    print("%d points, %d mismatches" % (len(evals), bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
