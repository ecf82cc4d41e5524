#!/usr/bin/env python3
"""check-close.py FILE TOLERANCE EXPECTED...: FILE holds one number per line;
each must be within TOLERANCE (relative) of the EXPECTED value at its
position. Prints the largest relative error; exits 1 when one is too large."""
import sys

values = [float(l) for l in open(sys.argv[1]) if l.strip()]
tol = float(sys.argv[2])
expected = [float(v) for v in sys.argv[3:]]
if len(values) != len(expected):
    print("FAIL: %d values, %d expected" % (len(values), len(expected)))
    sys.exit(1)
worst = max(abs(v - e) / abs(e) for v, e in zip(values, expected))
print("max relative error %.4f (tolerance %g): %s" % (worst, tol, "ok" if worst <= tol else "FAIL"))
sys.exit(0 if worst <= tol else 1)
