#!/usr/bin/env bash
# The main job, end to end: build klaraptor, then run the self-tuning loop on
# the annotated gemm example: compile it with klaraptor-clang++, profile it at
# small sizes (every admissible block shape of every launch), fit rational
# programs, rebuild with them, run the tuned program at sizes never profiled
# (results checked against the CPU), and benchmark its choices against an
# exhaustive search. Without a GPU every kernel runs on klaraptor's PTX
# emulator and times are its abstract-emulation estimates (docs/timing.md).
# Usage: scripts/demo.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
bash "$root/scripts/setup.sh"
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
ninja -C "$build" >/dev/null

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
cxx="$build/bin/klaraptor-clang++"
kl="$build/bin/klaraptor"
if command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q GPU; then
  echo "== a GPU is present, but the demo runs the loop on the PTX emulator (the same"
  echo "   everywhere); docs/user-guide.md shows the loop on the GPU (cupti backend)"
else
  echo "== no GPU here: programs are built with --klaraptor-emulate and their"
  echo "   kernels run on klaraptor's PTX emulator, on the CPU"
fi
src="$root/examples/gemm/gemm.cu"
step() { echo; echo "== $*"; }

step "1. klaraptor-clang++ --klaraptor-emulate -O2 examples/gemm/gemm.cu -o gemm"
"$cxx" --klaraptor-emulate -O2 "$src" -I"$root/examples" -o gemm

step "2. klaraptor profile --sizes 16,32,48,64,96,128 -- ./gemm {N} {N} {N} --no-check"
"$kl" profile --quiet --sizes 16,32,48,64,96,128 --db gemm.db -- ./gemm {N} {N} {N} --no-check

step "3. klaraptor fit --db gemm.db --out models"
"$kl" fit --db gemm.db --out models

step "4. klaraptor-clang++ --klaraptor-emulate --klaraptor-models models -O2 examples/gemm/gemm.cu -o gemm-tuned"
"$cxx" --klaraptor-emulate --klaraptor-models models -O2 "$src" -I"$root/examples" -o gemm-tuned

step "5. ./gemm-tuned 200 200 200; ./gemm-tuned 320 320 320   (sizes never profiled; checked against the CPU)"
echo "   (profiled with NI = NJ = NK, so the fit holds for square products: klaraptor fit said so)"
KLARAPTOR_LOG=decisions.jsonl ./gemm-tuned 200 200 200
KLARAPTOR_LOG=decisions.jsonl ./gemm-tuned 320 320 320
echo "   the runtime's decisions (KLARAPTOR_LOG):"
python3 - decisions.jsonl <<'PY'
import json, sys
for line in open(sys.argv[1]):
    d = json.loads(line)
    data = ",".join("%s=%d" % kv for kv in d["data"].items())
    print("   %-6s %-22s requested %-8s chosen %-8s (%s %s, %d candidates)" % (
        d["kernel"], data, "x".join(map(str, d["requested"]["block"])),
        "x".join(map(str, d["block"])), d["source"], d.get("model", ""),
        d.get("candidates", 0)))
PY

step "6. klaraptor bench --only gemm --train-sizes 16,32,48,64,96,128 --test-sizes 256,512"
echo "   (chosen shape against the best of every admissible shape, at larger sizes)"
"$kl" bench --only gemm --train-sizes 16,32,48,64,96,128 --test-sizes 256,512 --work bench
