#!/usr/bin/env bash
# The main job, end to end: build klaraptor, compile the annotated saxpy and
# matrix2d examples with klaraptor-clang++, run them, and show the runtime's
# decisions. Usage: scripts/demo.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build" >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cxx="$build/bin/klaraptor-clang++"
flags=()
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; then
  echo "== a GPU is present: kernels run on it"
else
  echo "== no GPU here: the programs are built with --klaraptor-emulate and their"
  echo "   kernels run on klaraptor's PTX emulator, on the CPU"
  flags=(--klaraptor-emulate)
fi
echo "== klaraptor-clang++ ${flags[*]} -O2 examples/saxpy/saxpy.cu -o saxpy"
"$cxx" "${flags[@]}" -O2 "$root/examples/saxpy/saxpy.cu" -o "$work/saxpy"
echo "== klaraptor-clang++ ${flags[*]} -O2 examples/matrix2d/matrix2d.cu (+ a toy model) -o matrix2d"
"$cxx" "${flags[@]}" -O2 "$root/examples/matrix2d/matrix2d.cu" "$root/test/Inputs/models/TargetShapeModel.c" \
  -I"$root/runtime/include" -o "$work/matrix2d"

echo "== ./saxpy 1000 1000000 1000   (no model: the program's own 256-thread launch is kept)"
KLARAPTOR_LOG="$work/saxpy.json" "$work/saxpy" 1000 1000000 1000
echo "== ./matrix2d 300 70 1024 4096   (toy model preferring 64x4 blocks; results still checked)"
KLARAPTOR_LOG="$work/matrix2d.json" KLARAPTOR_TEST_MODEL_KERNELS=matrix_scale \
  KLARAPTOR_TEST_MODEL_BLOCK=64,4,1 KLARAPTOR_EMU_REPORT="$work/report.json" \
  "$work/matrix2d" 300 70 1024 4096

echo "== the runtime's decisions (KLARAPTOR_LOG, one JSON object per new decision)"
python3 - "$work/saxpy.json" "$work/matrix2d.json" <<'PY'
import json, sys
for path in sys.argv[1:]:
    for line in open(path):
        d = json.loads(line)
        data = ", ".join("%s=%d" % kv for kv in d["data"].items())
        print("  %-13s %-18s block %-12s grid %-14s %s" % (
            d["kernel"], data, "x".join(map(str, d["block"])),
            "x".join(map(str, d["grid"])), d["source"]))
PY
if [ -s "$work/report.json" ]; then
  echo "== what the emulator counted for matrix2d's launches (KLARAPTOR_EMU_REPORT)"
  python3 - "$work/report.json" <<'PY'
import json, sys
for line in open(sys.argv[1]):
    r = json.loads(line)
    print("  grid %-10s block %-8s warp insts %-9d global ld sectors/request %.1f  regs %d" % (
        "x".join(map(str, r["grid"])), "x".join(map(str, r["block"])), r["inst_executed"],
        r["global_load_sectors"] / max(1, r["global_load_requests"]), r["registers_per_thread"]))
PY
fi
