#!/usr/bin/env bash
# The real-timings judge: klaraptor's choices against times measured on a real
# NVIDIA GeForce RTX 2070 SUPER (test/data/rtx-2070-super/, imported from
# shared/data/rtx2070s-polybench/times.csv), or on another GPU whose
# PolyBench dataset is in the project (--gpu h200: test/data/nvidia-h200/,
# --gpu h100: test/data/nvidia-h100/, both measured with the cupti backend),
# without a GPU.
#
# It builds the 14 annotated PolyBench/GPU kernels (examples/polybench/) for
# the emulator, profiles them at small sizes only (N <= 128) with the built-in
# rtx-2070-super device profile, has the emulator estimate every shape at the
# judged sizes, and runs `klaraptor dataset judge`: for each kernel and size it
# compares the MEASURED time of the shape each method picks (the rational
# program, the emulator's estimate, the program's own shape, the best measured
# shape at N = 128 carried over) with the best measured time, and how well the
# estimator ranks the shapes, then the same with the roofline model (not the
# default; WORK/roofline.md). With a dataset measured by the cupti backend
# (--gpu h200, h100) it also compares the emulator's metrics at the profiled sizes
# with CUPTI's (scripts/compare-metrics.py -> WORK/metrics.md), and, where the
# GPU's counters at judged sizes are kept (cache-metrics/), the counts the
# fitted programs compute there with them (WORK/counts.md).
# docs/results.md records the runs.
#
# Usage: scripts/real-timings.sh [OPTIONS]
#   --gpu NAME         whose measured times judge: rtx-2070-super (default),
#                      h200 or h100 (the datasets and the device profile the
#                      emulator profiles with: rtx-2070-super, h200,
#                      h100-sxm; default sizes 1024,2048,4096,8192 for all;
#                      a size a dataset lacks is left out of the judge)
#   --device PROFILE   another device profile for the emulator (e.g. h200-probed)
#   --build DIR        klaraptor's build folder (default: build/ of this tree)
#   --no-build         use the build as it is (no cmake, no ninja)
#   --work DIR         where programs, databases and results go
#                      (default: ./real-timings; emptied first)
#   --only LIST        programs to judge, e.g. gemm,atax (default: all eight)
#   --train-sizes LIST profiled sizes (default 32,48,64,96,128)
#   --sizes LIST       judged sizes (default 1024,2048,4096,8192)
#   --jobs N           programs profiled at once (default: the CPUs)
#   --import CSV       instead: (re)make test/data/rtx-2070-super/ from the CSV
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
work=$PWD/real-timings
only=""
train=32,48,64,96,128
sizes=1024,2048,4096,8192
jobs=$(nproc 2>/dev/null || echo 2)
do_build=1
import=""
gpu=rtx-2070-super
device=""
die() { echo "real-timings: error: $*" >&2; exit 1; }
while [ $# -gt 0 ]; do
  case "$1" in
    --gpu) gpu=${2:?--gpu needs a name}; shift 2 ;;
    --device) device=${2:?--device needs a profile}; shift 2 ;;
    --build) build=$(cd "${2:?--build needs a folder}" && pwd); shift 2 ;;
    --no-build) do_build=0; shift ;;
    --work) work=${2:?--work needs a folder}; shift 2 ;;
    --only) only=${2:?--only needs a list}; shift 2 ;;
    --train-sizes) train=${2:?--train-sizes needs a list}; shift 2 ;;
    --sizes) sizes=${2:?--sizes needs a list}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --import) import=${2:?--import needs the CSV}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (scripts/real-timings.sh --help)" ;;
  esac
done
# The measured datasets and the emulator's device profile and architecture.
case "$gpu" in
  rtx-2070-super) data=$root/test/data/rtx-2070-super; arch=sm_75 ;;
  h200) data=$root/test/data/nvidia-h200/polybench; arch=sm_90 ;;
  h100) data=$root/test/data/nvidia-h100/polybench; arch=sm_90 ;;
  *) die "--gpu: no PolyBench dataset for '$gpu' (rtx-2070-super, h200, h100)" ;;
esac
# The built-in device profile of each GPU (klaraptor device profiles).
case "$gpu" in h100) device=${device:-h100-sxm} ;; *) device=${device:-$gpu} ;; esac
if [[ $device == */* || $device == *.device ]]; then
  [ -f "$device" ] || die "--device: no device profile file '$device'"
  device=$(cd "$(dirname "$device")" && pwd)/$(basename "$device")
fi
for list in "$train" "$sizes"; do
  [[ $list =~ ^[0-9]+(,[0-9]+)*$ ]] || die "expected sizes like 32,64, got '$list'"
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || die "--jobs: expected a positive number, got '$jobs'"

if [ "$do_build" = 1 ]; then
  bash "$root/scripts/setup.sh"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
  ninja -C "$build" klaraptor klaraptor-clang++ >/dev/null
fi
kl=$build/bin/klaraptor
cxx=$build/bin/klaraptor-clang++
[ -x "$kl" ] && [ -x "$cxx" ] || die "no klaraptor in $build/bin (build it, or give --build)"

if [ -n "$import" ]; then
  # The provenance travels in each dataset's header (docs/dataset.md,
  # "Times-only datasets"; test/data/rtx-2070-super/README.md).
  sum=$(sha256sum "$import" | cut -d' ' -f1)
  [ "$gpu" = rtx-2070-super ] || die "--import makes the rtx-2070-super dataset only"
  "$kl" dataset import-csv --csv "$import" --out "$data" \
    --requested 256 --requested 32x8 --launches-per-time FDTD_2D=500 \
    --source "public KLARAPTOR repository (github orcca-uwo/KLARAPTOR, commit 0e635fc6), files tests/results/polybench_*/cuda_results_geforcertx2070super*.txt, collected in klaraptor's shared/data/rtx2070s-polybench/times.csv (sha256 $sum); only the measured figures, no code" \
    --timing "NVIDIA GeForce RTX 2070 SUPER (Turing TU104, CC 7.5, 40 SMs, 8 GB GDDR6 448 GB/s, 4 MB L2); one CUDA-event-timed launch per (n, bx, by) and program run, no warm-up; time_ns is the median over the repeated sweeps (repeats), min and max kept; only runs whose output check passed" \
    --note "PolyBench/GPU programs as measured; what each kernel computes: examples/polybench/ and the source's README; requested shapes are PolyBench/GPU's DIM_THREAD_BLOCK: 32x8 for 2-D kernels, 256 for 1-D; 1-D kernels keep only by = 1 (the originals ignore threadIdx.y)"
  exit 0
fi

# NAME SOURCE DATASET ARGS...: the programs of examples/polybench/ and their
# measured datasets. {N} is the size; fdtd2d runs one time step per run (the
# measured times are per launch already).
programs=(
  "2dconv 2dconv.cu 2dconv.jsonl {N}"
  "2mm 2mm.cu 2mm.jsonl {N}"
  "atax atax.cu atax.jsonl {N}"
  "bicg bicg.cu bicg.jsonl {N}"
  "fdtd2d fdtd2d.cu fdtd-2d.jsonl {N} 1"
  "gemm gemm.cu gemm.jsonl {N}"
  "mvt mvt.cu mvt.jsonl {N}"
  "syrk syrk.cu syrk.jsonl {N}"
)
selected=()
for p in "${programs[@]}"; do
  name=${p%% *}
  if [ -z "$only" ] || [[ ",$only," == *",$name,"* ]]; then selected+=("$p"); fi
done
if [ -n "$only" ]; then
  for want in ${only//,/ }; do
    found=0
    for p in "${selected[@]}"; do [ "${p%% *}" = "$want" ] && found=1; done
    [ $found = 1 ] || die "--only: no program '$want' (2dconv 2mm atax bicg fdtd2d gemm mvt syrk)"
  done
fi

rm -rf "$work"
mkdir -p "$work"/bin "$work"/profile "$work"/estimate "$work"/logs
work=$(cd "$work" && pwd)
start=$(date +%s)
echo "real-timings: ${#selected[@]} programs, profiled at N = $train ($device profile," \
     "emulator), judged at N = $sizes against $data"

# One program: build, profile at the training sizes (metrics), estimate every
# shape at the judged sizes (estimate only; kernels not executed).
one() {
  local name=$1 src=$2 args=("${@:4}")
  local log=$work/logs/$name.log t0=$(date +%s)
  {
    "$cxx" --klaraptor-emulate --klaraptor-arch=$arch -O2 \
      "$root/examples/polybench/$src" -I"$root/examples" -o "$work/bin/$name" &&
    "$kl" profile --fresh --quiet --device "$device" --sizes "N=$train" \
      --db "$work/profile/$name.db" -- "$work/bin/$name" "${args[@]}" &&
    KLARAPTOR_PROFILE_TIMES_ONLY=1 KLARAPTOR_EMU_EXECUTE=0 \
    "$kl" profile --fresh --quiet --device "$device" --sizes "N=$sizes" \
      --db "$work/estimate/$name.db" -- "$work/bin/$name" "${args[@]}" --no-check
  } >"$log" 2>&1 || { echo "real-timings: $name failed; see $log" >&2; return 1; }
  echo "real-timings: $name profiled and estimated in $(( $(date +%s) - t0 )) s"
}

pids=()
failed=0
for p in "${selected[@]}"; do
  # shellcheck disable=SC2086
  set -- $p
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n || failed=1; done
  one "$@" &
done
while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || failed=1; done
wait || failed=1
[ $failed = 0 ] || die "a program failed (logs in $work/logs)"

measured=()
fits=()
estimates=()
for p in "${selected[@]}"; do
  # shellcheck disable=SC2086
  set -- $p
  # The CSV import names fdtd-2d as the CSV did; the GPU datasets use the
  # program's name.
  if [ -e "$data/$3" ]; then measured+=("$data/$3"); else measured+=("$data/$1.jsonl"); fi
  fits+=("$work/profile/$1.db")
  estimates+=("$work/estimate/$1.db")
done
echo
"$kl" dataset judge --measured "${measured[@]}" --fit "${fits[@]}" \
  --estimates "${estimates[@]}" --sizes "$sizes" --label real-timings \
  --markdown "$work/real-timings.md" --json "$work/real-timings.json"
# The roofline model side by side (docs/models.md; not the default): the same
# programs evaluated with it, by the same rule (its table and JSON in
# WORK/roofline.*).
"$kl" dataset judge --measured "${measured[@]}" --fit "${fits[@]}" \
  --sizes "$sizes" --label real-timings --model roofline \
  --markdown "$work/roofline.md" --json "$work/roofline.json" |
  grep '^real-timings: roofline best/chosen' ||
  die "the roofline judge failed"
# Datasets measured by the cupti backend carry CUPTI's metrics at the
# training sizes: the emulator's metrics of the same launches against them.
if grep -q '"backend":"cupti"' "${measured[0]}" 2>/dev/null; then
  mkdir -p "$work/emu-datasets"
  for p in "${selected[@]}"; do
    # shellcheck disable=SC2086
    set -- $p
    "$kl" dataset export --db "$work/profile/$1.db" --out "$work/emu-datasets" --program "$1" >/dev/null
  done
  echo
  python3 "$root/scripts/compare-metrics.py" --gpu "${measured[@]}" --emu "$work"/emu-datasets/*.jsonl \
    --per kernel --markdown "$work/metrics.md" > "$work/metrics.txt" ||
    die "the metrics comparison failed (see $work/metrics.txt)"
  sed -n '1,/^$/p' "$work/metrics.txt"
  echo "real-timings: the emulator's metrics against CUPTI's: $work/metrics.md"
fi
# The GPU's counters at judged sizes (cache-metrics/, beside the dataset):
# the counts the fitted programs compute there against them (docs/dataset.md,
# "Fitted counts against measured ones").
counted=() counted_fits=()
for p in "${selected[@]}"; do
  # shellcheck disable=SC2086
  set -- $p
  if [ -e "$data/../cache-metrics/$1.jsonl" ]; then
    counted+=("$data/../cache-metrics/$1.jsonl")
    counted_fits+=("$work/profile/$1.db")
  fi
done
if [ ${#counted[@]} -gt 0 ]; then
  "$kl" dataset judge --measured "${counted[@]}" --fit "${counted_fits[@]}" \
    --label real-timings --markdown "$work/counts.md" > "$work/counts.txt" ||
    die "the counts comparison failed (see $work/counts.txt)"
  echo
  sed -n '/^fitted counts against/,/^$/p' "$work/counts.txt"
  grep '^real-timings: fitted/measured counts' "$work/counts.txt"
fi
echo
echo "real-timings: done in $(( $(date +%s) - start )) s; table in $work/real-timings.md and $work/real-timings.json"
estimator="$device profile"
case "${KLARAPTOR_EMU_CACHE:-}" in 0|off) estimator="$estimator, cache model off (KLARAPTOR_EMU_CACHE)" ;; esac
[ -n "${KLARAPTOR_EMU_TIMING_PARAMS:-}" ] && estimator="$estimator, timing parameters from $KLARAPTOR_EMU_TIMING_PARAMS"
echo "real-timings: times are MEASURED on the GPU of $data; the picks come from programs profiled on the emulator ($estimator)"
