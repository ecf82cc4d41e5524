#!/usr/bin/env bash
# Builds klaraptor and runs every test (lit: frontend, pass, driver, runtime,
# examples; GoogleTest suites run from lit), then a minute of fuzzing
# (scripts/fuzz.sh, in BUILD_DIR-fuzz). Usage: scripts/test.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build"
status=0
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv -o "$build/lit-results.json" "$build/test" || status=$?
# The libFuzzer targets in a sanitizer build of their own, a fixed number of
# inputs each (about 15 seconds here) from the seeds with a fixed seed, so
# that the run is the same on every machine (scripts/fuzz.sh; docs/fuzzing.md
# has the long run, which explores).
fuzz_status=0
# Each fuzz target on inputs from its seeds alone, seed 1 (docs/fuzzing.md):
# 100,000 for the fast readers, 20,000 for the pragma target (a clang
# frontend per input); about a minute in all.
bash "$root/scripts/fuzz.sh" --build "$build-fuzz" --fresh --seed 1 --runs 100000 \
  --targets spec,ptx,cache,dataset || fuzz_status=$?
bash "$root/scripts/fuzz.sh" --build "$build-fuzz" --fresh --seed 1 --runs 20000 \
  --targets pragma || fuzz_status=$?
[ "$fuzz_status" = 0 ] || status=$fuzz_status
# One closing line that any CI reads: N passed, N failed, N skipped.
python3 - "$build/lit-results.json" <<'PY'
import json, sys
tests = json.load(open(sys.argv[1]))["tests"]
codes = [t["code"] for t in tests]
passed = sum(c in ("PASS", "XFAIL") for c in codes)
skipped = sum(c == "UNSUPPORTED" for c in codes)
failed = len(codes) - passed - skipped
print("lit: %d passed, %d failed, %d skipped" % (passed, failed, skipped))
PY
exit $status
