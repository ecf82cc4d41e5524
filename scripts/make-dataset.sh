#!/usr/bin/env bash
# Makes the validation dataset of docs/dataset.md on a real GPU: every
# program of examples/bench.manifest, built for the GPU (no
# --klaraptor-emulate), profiled with `klaraptor profile` (cupti backend:
# CUDA-event medians and CUPTI metrics, every admissible block shape) at the
# manifest's training AND test sizes, exported with `klaraptor dataset
# export` to OUTDIR/<program>.jsonl (default test/data/<gpu-name>/).
#
# Usage:
#   scripts/make-dataset.sh [--build DIR] [--bundle DIR] [--only A,B] [OUTDIR]
#       on the GPU machine. Without --bundle the programs are built here with
#       DIR/bin/klaraptor-clang++ (default DIR: build/), which needs clang-19
#       and the CUDA toolkit; with --bundle the programs and tools come from
#       a bundle made by --prepare.
#   scripts/make-dataset.sh --emulate [--device NAME] [--build DIR] OUTDIR
#       no GPU needed: the same programs and sizes profiled on the PTX
#       emulator (abstract-emulation estimates of device NAME, default
#       h100-sxm; at the test sizes estimates only, no metrics): the
#       emulator-estimate dataset `klaraptor dataset bench
#       --emu` compares with a GPU's.
#   scripts/make-dataset.sh --prepare BUNDLE [--build DIR] [--only A,B]
#       on a build machine (no GPU needed): builds the programs for the GPU
#       and copies them, the klaraptor tool, its runtime libraries and every
#       shared library they need (ldd, glibc excepted) into BUNDLE, to carry
#       to a GPU machine that has the CUDA driver but none of our packages.
#
# Options of the GPU run: --time-limit SECONDS (runs not started by then are
# skipped, the one running is stopped; both listed at the end),
# --test-times-only (no CUPTI metrics at the test sizes), --test-repeats N
# (KLARAPTOR_CUPTI_REPEATS at the test sizes), --test-share PCT (with
# --time-limit: the training sizes stop starting once 100-PCT % of the time
# is spent, so that the test sizes keep PCT %; with --resume, only while a
# test size is left to measure). The runs go size by size:
# every program's first training size, then every program's second, ...,
# then each test size (smallest first) of every program.
# Each program's log goes beside its dataset (OUTDIR/<program>.log).
# --resume DIR: DIR holds this GPU's datasets from an earlier run
# (<program>.jsonl): a program's size with a run of status ok there is not
# profiled again, and each exported dataset is DIR's merged with the new
# runs (a size measured again replaces DIR's run of it). OUTDIR may be DIR.
# --programs-dir NAME (with --prepare and --bundle): the bundle's folder for
# this manifest's programs (default programs; the manifest is copied beside
# as bench.manifest, or NAME.manifest).
#
# Environment: KLARAPTOR_CUPTI_REPEATS (timing repeats per shape, default 5),
# KLARAPTOR_CUPTI_METRICS=0 (times only, much faster), MANIFEST (default
# examples/bench.manifest).
#
# Run on an NVIDIA H200 on 2026-11-26 (test/data/nvidia-h200/, through
# scripts/gpu-session.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
bundle=""
prepare=""
emulate=""
device=""
only=""
out=""
time_limit=""
test_times_only=""
test_repeats=""
test_share=""
progdir=programs
resume=""
manifest=${MANIFEST:-$root/examples/bench.manifest}
while [ $# -gt 0 ]; do
  case "$1" in
    --build) build=$(cd "$2" && pwd); shift 2 ;;
    --bundle) bundle=$(cd "$2" && pwd); shift 2 ;;
    --prepare) prepare=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --emulate) emulate=--klaraptor-emulate; shift ;;
    --time-limit) time_limit=$2; shift 2 ;;
    --test-times-only) test_times_only=1; shift ;;
    --test-repeats) test_repeats=$2; shift 2 ;;
    --test-share) test_share=$2; shift 2 ;;
    --programs-dir) progdir=$2; shift 2 ;;
    --resume) resume=$2; shift 2 ;;
    --device) device=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "make-dataset.sh: error: unknown option '$1'" >&2; exit 1 ;;
    *) out=$1; shift ;;
  esac
done
die() { echo "make-dataset.sh: error: $*" >&2; exit 1; }
[ -r "$manifest" ] || die "cannot read the manifest '$manifest'"
[ -z "$resume" ] || [ -d "$resume" ] || die "--resume: no folder '$resume'"
[ -z "$resume" ] || resume=$(cd "$resume" && pwd)
[[ $progdir =~ ^[A-Za-z0-9][A-Za-z0-9._-]*$ ]] || die "--programs-dir: expected a folder name, got '$progdir'"
[ -z "$test_share" ] || [[ $test_share =~ ^[0-9]$|^[1-9][0-9]$ ]] || die "--test-share: expected a percentage from 0 to 99, got '$test_share'"
for v in "$time_limit" "$test_repeats"; do
  [ -z "$v" ] || [[ $v =~ ^[1-9][0-9]*$ ]] || die "expected a positive number of seconds or repeats, got '$v'"
done

# The manifest's programs: NAME SOURCE [train=LIST] [test=LIST] -- ARGS.
names=() ; sources=() ; trains=() ; tests=() ; argss=()
while read -r line; do
  line=${line%%#*}
  [ -z "${line// }" ] && continue
  read -r -a w <<<"$line"
  name=${w[0]} src=${w[1]} train="32,64,128,256" test="512,1024,2048" args=""
  for ((i = 2; i < ${#w[@]}; ++i)); do
    case "${w[i]}" in
      train=*) train=${w[i]#train=} ;;
      test=*) test=${w[i]#test=} ;;
      --) args="${w[*]:i+1}"; break ;;
    esac
  done
  if [ -n "$only" ] && [[ ",$only," != *",$name,"* ]]; then continue; fi
  names+=("$name"); sources+=("$src"); trains+=("$train"); tests+=("$test")
  argss+=("$args")
done <"$manifest"
[ ${#names[@]} -gt 0 ] || die "no program selected from $manifest"
mdir=$(cd "$(dirname "$manifest")" && pwd)
# A bundle holds programs in programs/ (--programs-dir: another folder, for
# a second manifest whose names repeat the first's), and the manifest
# beside them (bench.manifest, or <folder>.manifest).
mcopy=bench.manifest
[ "$progdir" = programs ] || mcopy=$progdir.manifest

build_programs() { # DEST: the programs, built for the GPU
  local dest=$1 cxx=$build/bin/klaraptor-clang++
  [ -x "$cxx" ] || die "no $cxx: build klaraptor first (cmake + ninja), or use --bundle"
  mkdir -p "$dest"
  for i in "${!names[@]}"; do
    echo "== building ${names[i]} for the $([ -n "$emulate" ] && echo emulator || echo GPU)"
    "$cxx" $emulate -O2 "$mdir/${sources[i]}" -I"$mdir" -o "$dest/${names[i]}"
  done
}

if [ -n "$prepare" ]; then
  mkdir -p "$prepare"/{bin,lib,$progdir}
  prepare=$(cd "$prepare" && pwd)
  build_programs "$prepare/$progdir"
  cp "$build/bin/klaraptor" "$prepare/bin/"
  cp -P "$build"/lib/libklaraptor_rt.so* "$build/lib/libklaraptor_profile.so" "$prepare/lib/"
  cp "$manifest" "$prepare/$mcopy"
  # Shared libraries the tool and the programs need, glibc's own excepted
  # (the GPU machine's are used); libcuda is the machine's driver.
  for f in "$prepare"/bin/* "$prepare"/lib/*.so "$prepare/$progdir"/*; do
    ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
  done | sort -u | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libcuda.so*|libklaraptor*) ;;
      *) cp -L "$lib" "$prepare/lib/" ;;
    esac
  done
  # Debug information is most of the size; the dynamic symbols (dlsym) stay.
  for f in "$prepare"/bin/* "$prepare"/lib/* "$prepare/$progdir"/*; do
    [ -L "$f" ] || strip --strip-debug "$f" 2>/dev/null || true
  done
  echo "== bundle ready: $prepare ($(du -sh "$prepare" | cut -f1))"
  echo "   on the GPU machine: scripts/make-dataset.sh --bundle $prepare [OUTDIR]"
  exit 0
fi

if [ -n "$emulate" ]; then
  [ -n "$out" ] || die "--emulate needs OUTDIR (test/data/ holds GPU measurements only)"
  [ -z "$bundle" ] || die "--emulate builds its programs: no --bundle"
  gpu="emulator${device:+ ($device)}" driver=none slug=unused
  echo "== --emulate: estimates only at the test sizes (KLARAPTOR_PROFILE_TIMES_ONLY=1)"
# From here on: a GPU must be present.
elif ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  die "no NVIDIA GPU here (nvidia-smi lists none): the dataset is real GPU measurements; on a machine without a GPU use 'klaraptor dataset bench' on an existing dataset (docs/dataset.md)"
else
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
  driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)
  slug=$(echo "$gpu" | tr 'A-Z' 'a-z' | sed 's/[^a-z0-9]\{1,\}/-/g; s/^-//; s/-$//')
fi
out=${out:-$root/test/data/$slug}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "$bundle" ]; then
  kl=$bundle/bin/klaraptor
  progs=$bundle/$progdir
  export LD_LIBRARY_PATH=$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  if [ -z "${KLARAPTOR_CUPTI_LIB:-}" ] && [ -e "$bundle/lib/libcupti.so" ]; then
    export KLARAPTOR_CUPTI_LIB=$bundle/lib/libcupti.so
  fi
else
  kl=$build/bin/klaraptor
  progs=$work/programs
  build_programs "$progs"
fi
[ -x "$kl" ] || die "no klaraptor tool at $kl"
"$kl" --version >/dev/null || die "$kl does not run here (missing shared libraries? see docs/dataset.md)"

runs=0 ntrain=0 ntest=0
for i in "${!names[@]}"; do
  a=$(tr ',' '\n' <<<"${trains[i]}" | wc -l) t=$(tr ',' '\n' <<<"${tests[i]}" | wc -l)
  runs=$((runs + a + t))
  [ "$a" -le "$ntrain" ] || ntrain=$a
  [ "$t" -le "$ntest" ] || ntest=$t
done
phases=$((ntrain + ntest))
echo "== GPU: $gpu (driver $driver); ${#names[@]} programs, $runs profiled runs"
if [ -n "$emulate" ]; then
  echo "   estimate: about 4 minutes for the whole manifest on one core (gemm, 2mm and"
  echo "   correlation take most of it)"
else
echo "   estimate: a few seconds per run at the training sizes, 10-60 s per run at the"
echo "   test sizes (every admissible shape, ${KLARAPTOR_CUPTI_REPEATS:-5} timed repeats plus the CUPTI"
echo "   metric passes): about $((runs / 4))-$((runs)) minutes in all; KLARAPTOR_CUPTI_METRICS=0 is faster"
fi
[ -z "$test_times_only" ] || echo "   test sizes: times only${test_repeats:+, $test_repeats repeats}"
[ -z "$time_limit" ] || echo "   time limit: $time_limit s (runs not started by then are skipped and listed)${test_share:+; the test sizes keep $test_share % of it}"
echo "   output: $out"
start=$(date +%s)
failed=0 skipped=() before=0
# Phase k < (most training sizes) profiles every program's k-th training
# size, the phases after it each test size: with a time limit, what is cut
# is the largest runs, not whole programs. Every run is one `klaraptor
# profile` into the program's database.
measured_before() { # NAME SIZE: --resume's dataset has an ok run of NAME at SIZE
  [ -n "$resume" ] && [ -s "$resume/$1.jsonl" ] &&
    python3 -c 'import json,sys
sys.exit(0 if any(o.get("type") == "run" and o.get("status") == "ok" and
                  list(o.get("sizes", {}).values()) == [int(sys.argv[2])]
                  for o in map(json.loads, open(sys.argv[1]))) else 1)' \
      "$resume/$1.jsonl" "$2"
}
train_limit=""
if [ -n "$time_limit" ]; then
  train_limit=$((time_limit * (100 - ${test_share:-0}) / 100))
  # The test sizes keep their share only if --resume left one to measure.
  if [ -n "$resume" ] && [ -n "$test_share" ]; then
    tests_left=0
    for i in "${!names[@]}"; do
      for size in ${tests[i]//,/ }; do
        measured_before "${names[i]}" "$size" || { tests_left=1; break 2; }
      done
    done
    if [ "$tests_left" = 0 ]; then
      train_limit=$time_limit
      echo "   every test size was measured before ($resume): the training sizes get the whole time limit"
    fi
  fi
fi
for ((phase = 0; phase < phases; ++phase)); do
  for i in "${!names[@]}"; do
    name=${names[i]}
    if [ "$phase" -lt "$ntrain" ]; then
      sizes=$(tr ',' '\n' <<<"${trains[i]}" | sed -n "$((phase + 1))p")
      what="train N=$sizes" fresh="" limit=$train_limit
      [ "$phase" != 0 ] || fresh=--fresh
    else
      sizes=$(tr ',' '\n' <<<"${tests[i]}" | sed -n "$((phase - ntrain + 1))p")
      what="test N=$sizes" fresh="" limit=$time_limit
    fi
    [ -n "$sizes" ] || continue
    if measured_before "$name" "$sizes"; then
      echo "== $name: $what: measured before ($resume/$name.jsonl)"
      before=$((before + 1))
      continue
    fi
    left=""
    if [ -n "$limit" ]; then
      left=$((limit - ($(date +%s) - start)))
      if [ "$left" -le 0 ]; then
        skipped+=("$name $what")
        continue
      fi
    fi
    runenv=()
    if [ "$phase" -ge "$ntrain" ] && [ -n "$emulate" ]; then
      # The emulator runs whole kernels to count metrics: at the test sizes
      # only the estimates are recorded (one SM's wave per shape).
      runenv=(KLARAPTOR_PROFILE_TIMES_ONLY=1 KLARAPTOR_EMU_EXECUTE=0)
    elif [ "$phase" -ge "$ntrain" ] && [ -n "$test_times_only" ]; then
      runenv=(KLARAPTOR_CUPTI_METRICS=0)
    fi
    if [ "$phase" -ge "$ntrain" ] && [ -n "$test_repeats" ]; then
      runenv+=(KLARAPTOR_CUPTI_REPEATS="$test_repeats")
    fi
    t0=$(date +%s)
    echo "== $name: $what"
    # shellcheck disable=SC2086 # ARGS are split as the manifest wrote them.
    rc=0
    env "${runenv[@]}" ${left:+timeout -k 10 "$left"} "$kl" profile $fresh --quiet --sizes "$sizes" \
      ${device:+--device "$device"} --db "$work/$name.db" -- "$progs/$name" ${argss[i]} \
      >>"$work/$name.log" 2>&1 || rc=$?
    if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
      echo "   cut by the time limit after $(( $(date +%s) - t0 )) s (sweeps finished before are kept)"
      skipped+=("$name $what (cut)")
    elif [ "$rc" != 0 ]; then
      echo "   profiling failed (log below); continuing"; tail -20 "$work/$name.log"
      failed=$((failed + 1))
    else
      echo "   $(( $(date +%s) - t0 )) s (total $(( $(date +%s) - start )) s)"
    fi
  done
done
for name in "${names[@]}"; do
  if [ -n "$resume" ] && [ -s "$resume/$name.jsonl" ] && [ -s "$work/$name.db" ]; then
    # DIR's dataset without the sizes measured again, then the new runs.
    "$kl" dataset export --db "$work/$name.db" --out "$work/new" --program "$name" >/dev/null &&
    again=$(python3 -c 'import json,sys
print(",".join(sorted({str(list(o["sizes"].values())[0]) for o in map(json.loads, open(sys.argv[1]))
                       if o.get("type") == "run" and len(o.get("sizes", {})) == 1})))' "$work/new/$name.jsonl") &&
    python3 "$root/scripts/dataset-drop-runs.py" --sizes "${again:-0}" "$resume/$name.jsonl" "$work/old-$name.jsonl" >/dev/null &&
    "$kl" dataset import --in "$work/old-$name.jsonl" "$work/new/$name.jsonl" --db "$work/merged-$name.db" >/dev/null &&
    "$kl" dataset export --db "$work/merged-$name.db" --out "$out" --program "$name" ||
      failed=$((failed + 1))
  elif [ -s "$work/$name.db" ]; then
    "$kl" dataset export --db "$work/$name.db" --out "$out" --program "$name" ||
      failed=$((failed + 1))
  elif [ -n "$resume" ] && [ -s "$resume/$name.jsonl" ] && [ "$resume" != "$out" ]; then
    cp "$resume/$name.jsonl" "$out/$name.jsonl"
  fi
  [ ! -s "$work/$name.log" ] || cp "$work/$name.log" "$out/$name.log"
done
echo "== done in $(( $(date +%s) - start )) s: $out"
[ "$before" = 0 ] || echo "== $before runs measured before ($resume) were not profiled again"
if [ ${#skipped[@]} -gt 0 ]; then
  echo "== incomplete: ${#skipped[@]} runs skipped or cut by the time limit:"
  printf '   %s\n' "${skipped[@]}"
fi
[ "$failed" -eq 0 ] || die "$failed runs failed to profile or export"
