#!/usr/bin/env bash
# Builds klaraptor and runs every test (lit: frontend, pass, driver, runtime,
# examples; GoogleTest suites run from lit). Usage: scripts/test.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build"
status=0
python3 /usr/lib/llvm-19/build/utils/lit/lit.py -sv -o "$build/lit-results.json" "$build/test" || status=$?
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
