#!/usr/bin/env bash
# The examples judged by a real GPU's measured times: klaraptor's loop as a
# user without a GPU runs it (the examples of examples/bench.manifest built
# for the emulator and profiled at the manifest's training sizes with the
# GPU's built-in device profile; the emulator's estimate of every shape at
# the test sizes), then `klaraptor dataset judge` against the times that
# GPU measured for every shape at the test sizes (test/data/nvidia-h200/
# examples/ or test/data/nvidia-h100/examples/, the cupti backend). The
# PolyBench counterpart is scripts/real-timings.sh; docs/results.md records
# the runs.
#
# Usage: scripts/examples-judge.sh [OPTIONS]
#   --gpu NAME      h200 (default) or h100: the measured datasets and the
#                   device profile (h200, h100-sxm)
#   --device PROFILE  another device profile for the emulator and the judge
#                   (a built-in name or a file, e.g. test/data/nvidia-h200/
#                   probe-2026-11-28.device; default the GPU's built-in)
#   --only LIST     programs of the manifest, e.g. saxpy,matrix2d (default:
#                   all that the GPU's folder has a dataset of)
#   --build DIR     klaraptor's build folder (default: build/ of this tree)
#   --work DIR      where datasets, databases and results go (default:
#                   ./examples-judge; emptied first)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build work=$PWD/examples-judge gpu=h200 only="" profile=""
die() { echo "examples-judge: error: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu=${2:?--gpu needs a name}; shift 2 ;;
    --only) only=${2:?--only needs a list}; shift 2 ;;
    --device) profile=${2:?--device needs a profile}; shift 2 ;;
    --build) build=$(cd "${2:?--build needs a folder}" && pwd); shift 2 ;;
    --work) work=${2:?--work needs a folder}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (scripts/examples-judge.sh --help)" ;;
  esac
done
case "$gpu" in
  h200) measured=$root/test/data/nvidia-h200/examples device=h200 ;;
  h100) measured=$root/test/data/nvidia-h100/examples device=h100-sxm ;;
  *) die "--gpu: no examples dataset for '$gpu' (h200, h100)" ;;
esac
if [ -n "$profile" ]; then
  # A file is named by its absolute path: make-dataset.sh runs elsewhere.
  if [[ $profile == */* || $profile == *.device ]]; then
    [ -f "$profile" ] || die "--device: no device profile file '$profile'"
    profile=$(cd "$(dirname "$profile")" && pwd)/$(basename "$profile")
  fi
  device=$profile
fi
kl=$build/bin/klaraptor
[ -x "$kl" ] || die "no klaraptor in $build/bin (build it, or give --build)"

# The manifest's programs that the GPU measured (and --only chose).
manifest=$root/examples/bench.manifest
names=()
while read -r name _; do
  case "$name" in ''|\#*) continue ;; esac
  [ -s "$measured/$name.jsonl" ] || continue
  if [ -z "$only" ] || [[ ",$only," == *",$name,"* ]]; then names+=("$name"); fi
done <"$manifest"
for want in ${only//,/ }; do
  [[ " ${names[*]} " == *" $want "* ]] || die "--only: no measured program '$want' in $measured"
done
[ ${#names[@]} -gt 0 ] || die "no program of $manifest is measured in $measured"

rm -rf "$work"
mkdir -p "$work"/fit "$work"/estimate
work=$(cd "$work" && pwd)
start=$(date +%s)
echo "examples-judge: ${#names[@]} programs profiled on the emulator ($device profile), judged against $measured"
grep -E "^($(IFS='|'; echo "${names[*]}"))[[:space:]]" "$manifest" >"$work/bench.manifest"
MANIFEST=$manifest bash "$root/scripts/make-dataset.sh" --build "$build" \
  --only "$(IFS=,; echo "${names[*]}")" --emulate --device "$device" \
  "$work/emulated" >"$work/make-dataset.log" 2>&1 ||
  { tail -20 "$work/make-dataset.log"; die "make-dataset.sh --emulate failed ($work/make-dataset.log)"; }
# Per program: the training runs (metrics) are what the rational program is
# fitted from, the test runs (estimates) what the emulator's estimate picks from.
while read -r name _ rest; do
  tests=$(sed -n 's/.*test=\([0-9,]*\).*/\1/p' <<<"$rest")
  python3 "$root/scripts/dataset-drop-runs.py" --sizes "$tests" \
    "$work/emulated/$name.jsonl" "$work/fit/$name.jsonl" >/dev/null
  "$kl" dataset import --in "$work/fit/$name.jsonl" --db "$work/fit/$name.db" >/dev/null
  "$kl" dataset import --in "$work/emulated/$name.jsonl" --db "$work/estimate/$name.db" >/dev/null
done <"$work/bench.manifest"
measured_files=() fits=() estimates=()
for name in "${names[@]}"; do
  measured_files+=("$measured/$name.jsonl")
  fits+=("$work/fit/$name.db")
  estimates+=("$work/estimate/$name.db")
done
"$kl" dataset judge --measured "${measured_files[@]}" --fit "${fits[@]}" \
  --estimates "${estimates[@]}" --device "$device" --label examples-judge \
  --markdown "$work/examples-judge.md" --json "$work/examples-judge.json"
# The roofline model side by side (docs/models.md; not the default).
"$kl" dataset judge --measured "${measured_files[@]}" --fit "${fits[@]}" \
  --device "$device" --label examples-judge --model roofline \
  --markdown "$work/roofline.md" --json "$work/roofline.json" |
  grep '^examples-judge: roofline best/chosen' ||
  die "the roofline judge failed"
echo "examples-judge: done in $(( $(date +%s) - start )) s; table in $work/examples-judge.md and $work/examples-judge.json"
# Name the estimator a saved output came from (as real-timings.sh does).
estimator="$device profile"
case "${KLARAPTOR_EMU_CACHE:-}" in 0|off) estimator="$estimator, cache model off (KLARAPTOR_EMU_CACHE)" ;; esac
[ -n "${KLARAPTOR_EMU_TIMING_PARAMS:-}" ] && estimator="$estimator, timing parameters from $KLARAPTOR_EMU_TIMING_PARAMS"
echo "examples-judge: times are MEASURED on the GPU of $measured; the picks come from programs profiled on the emulator ($estimator)"
