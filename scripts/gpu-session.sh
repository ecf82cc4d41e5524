#!/usr/bin/env bash
# Everything a session with a lent GPU should run, prepared here and run
# there in one device call (docs/dataset.md, "A GPU session").
#
#   scripts/gpu-session.sh --prepare BUNDLE [--build DIR]
#       here (no GPU needed): the dataset bundle of scripts/make-dataset.sh
#       for the examples (programs/) and the PolyBench kernels
#       (programs-polybench/), built for the GPU, with klaraptor and its
#       libraries; the device probe; the hook benchmark; CUPTI (the
#       toolkit's libcupti and libnvperf, compressed); the five validation
#       examples built for the emulator; the comparison scripts.
#   scripts/gpu-session.sh --run BUNDLE OUTDIR [--steps LIST] [--time-limit S]
#       on the GPU machine, from the bundle, the steps of LIST in this order
#       (default env,smoke,probe,hook,dropin,polybench,examples):
#         env        nvidia-smi, driver, the CUPTI used
#         smoke      saxpy and PolyBench gemm profiled with their results
#                    checked (memory restored) and CUPTI metrics; if the
#                    metrics fail, the later steps record times only
#         probe      klaraptor device probe -> OUTDIR/probe.device
#         hook       klaraptor-hook-bench on the real CUDA runtime (1-D, 6
#                    candidates; 2-D, 51 candidates)
#         dropin     test/Inputs/gpu-drop-in/graph.cu (what test/Runtime/
#                    drop-in-gpu.test runs): a static kernel and constant,
#                    a template with sizes in a struct, launches captured
#                    into a CUDA graph during refinement -> OUTDIR/dropin.log
#                    and OUTDIR/dropin.json (the decision log)
#         polybench  scripts/make-dataset.sh on examples/polybench: metrics at
#                    the training sizes, times at the judged sizes
#                    -> OUTDIR/polybench/
#         examples   the same for examples/bench.manifest -> OUTDIR/examples/
#         cache-metrics (not by default) PolyBench's CUPTI metrics at judged
#                    sizes (examples/polybench/polybench-metrics.manifest)
#                    -> OUTDIR/cache-metrics/
#         validate   (not by default) five examples timed at two large sizes
#                    and estimated on the emulator here, compared
#         refine     (not by default) online refinement on the real GPU:
#                    jacobi2d and heat3d built with rational programs fitted
#                    here from emulator profiles (h100-sxm), run with
#                    KLARAPTOR_REFINE=0 and 3 (decision logs), and every
#                    admissible shape timed at the same sizes (a times-only
#                    sweep, OUTDIR/refine/sweep.jsonl) -> OUTDIR/refine/
#                    (scripts/refine-report.py)
#       --resume DIR: a GPU's datasets from an earlier session (DIR/polybench/,
#       DIR/examples/, e.g. test/data/nvidia-h200): the sizes measured there
#       are not profiled again and the new datasets are DIR's merged with the
#       new runs (make-dataset.sh --resume).
#       --time-limit S (default 480) bounds the whole run: the dataset steps
#       share what the others leave (polybench 55 %, examples the rest).
#       Each step's output in OUTDIR/<step>.log; everything packed into
#       OUTDIR/gpu-session.tgz.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "gpu-session.sh: error: $*" >&2; exit 1; }

mode="" bundle="" out="" build=$root/build
default_steps=env,smoke,probe,hook,dropin,polybench,examples
steps=$default_steps time_limit=480 resume=""
while [ $# -gt 0 ]; do
  case "$1" in
    --prepare) mode=prepare; bundle=$2; shift 2 ;;
    --run) mode=run; bundle=$2; out=${3:-}; shift 3 || die "--run BUNDLE OUTDIR" ;;
    --build) build=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    --time-limit) time_limit=$2; shift 2 ;;
    --resume) resume=$2; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown argument '$1' (--help)" ;;
  esac
done
[ -n "$mode" ] || die "--prepare BUNDLE or --run BUNDLE OUTDIR (--help)"
[[ $time_limit =~ ^[1-9][0-9]*$ ]] || die "--time-limit: expected seconds, got '$time_limit'"
for s in ${steps//,/ }; do
  case "$s" in env|smoke|probe|hook|dropin|polybench|examples|cache-metrics|validate|refine) ;;
    *) die "--steps: unknown step '$s' (env,smoke,probe,hook,dropin,polybench,examples,cache-metrics,validate,refine)" ;;
  esac
done

# The validation examples: NAME ARGS SIZES (NAME's args with {N}).
validation=(
  "saxpy|{N} --no-check|1048576,16777216"
  "matrix2d|{N} {N} --no-check|512,2048"
  "gemm|{N} {N} {N} --no-check|512,1024"
  "jacobi2d|{N} 1 --no-check|1024,2048"
  "correlation|{N} {N} --no-check|512,1024"
)
# The refinement examples: NAME TRAINING-SIZES JUDGED-SIZES (args: {N} T
# --no-check; T = 2 when profiling, 10 when refining).
refinement=(
  "jacobi2d|16,32,64,96,128,192,256|1024,2048,4096"
  "heat3d|8,12,16,24,32,48,64|128,192,256"
)

if [ "$mode" = prepare ]; then
  for t in klaraptor-device-probe klaraptor-hook-bench; do
    [ -x "$build/bin/$t" ] || die "no $build/bin/$t: build klaraptor first"
  done
  bash "$root/scripts/make-dataset.sh" --prepare "$bundle" --build "$build"
  MANIFEST=$root/examples/polybench/polybench.manifest \
    bash "$root/scripts/make-dataset.sh" --prepare "$bundle" --build "$build" \
    --programs-dir programs-polybench
  cp "$root/examples/polybench/polybench-metrics.manifest" "$bundle/"
  bundle=$(cd "$bundle" && pwd)
  cp "$build/bin/klaraptor-hook-bench" "$bundle/bin/"
  # CUPTI is loaded at run time (dlopen), so ldd does not list it; it loads
  # libnvperf_host/target from its own folder. The GPU machine's toolkit
  # may lack it or differ from the headers this build used.
  cupti=$(sed -n "s/^CUDA_cupti_LIBRARY:[^=]*=//p" "$build/CMakeCache.txt" 2>/dev/null || true)
  [ -n "$cupti" ] && [ -e "$cupti" ] || cupti=/usr/local/cuda/lib64/libcupti.so
  cdir=$(dirname "$(readlink -f "$cupti")")
  if [ -e "$cdir/libnvperf_host.so" ]; then
    tar cJf "$bundle/cupti.txz" -C "$cdir" "$(basename "$(readlink -f "$cupti")")" libnvperf_host.so libnvperf_target.so
  else
    echo "gpu-session.sh: warning: no CUPTI next to $cupti: the GPU machine's own is used" >&2
  fi
  mkdir -p "$bundle/programs-emu" "$bundle/scripts"
  cp "$build/bin/klaraptor-device-probe" "$bundle/bin/"
  cp "$build/lib/libklaraptor_emu_cudart.so" "$bundle/lib/"
  for v in "${validation[@]}"; do
    name=${v%%|*}
    echo "== building $name for the emulator"
    "$build/bin/klaraptor-clang++" --klaraptor-emulate -O2 \
      "$root/examples/$name/$name.cu" -I"$root/examples" -o "$bundle/programs-emu/$name"
  done
  # The refinement's programs: rational programs fitted from emulator
  # profiles (what a user without a GPU makes), linked into GPU builds.
  mkdir -p "$bundle/programs-tuned"
  rw=$(mktemp -d)
  for v in "${refinement[@]}"; do
    IFS='|' read -r name train judged <<<"$v"
    echo "== fitting $name on the emulator for the refinement step"
    "$build/bin/klaraptor-clang++" --klaraptor-emulate -O2 \
      "$root/examples/$name/$name.cu" -I"$root/examples" -o "$rw/$name-emu"
    "$build/bin/klaraptor" profile --quiet --device h100-sxm --sizes "$train" \
      --db "$rw/refine.db" -- "$rw/$name-emu" '{N}' 2 --no-check
  done
  "$build/bin/klaraptor" fit --db "$rw/refine.db" --out "$rw/models" >/dev/null
  for v in "${refinement[@]}"; do
    name=${v%%|*}
    "$build/bin/klaraptor-clang++" --klaraptor-models "$rw/models" -O2 \
      "$root/examples/$name/$name.cu" -I"$root/examples" -o "$bundle/programs-tuned/$name"
  done
  cp -r "$rw/models" "$bundle/models-tuned"
  rm -rf "$rw"
  # The drop-in program, for a GPU, with the toy model that moves the shape.
  mkdir -p "$bundle/programs-dropin"
  "$build/bin/klaraptor-clang++" -O2 "$root/test/Inputs/gpu-drop-in/graph.cu" \
    "$root/test/Inputs/models/TargetShapeModel.c" -I"$build/include" \
    -o "$bundle/programs-dropin/graph"
  cp "$root/test/Timing/Inputs/compare-dbs.py" "$root/test/Timing/Inputs/emulate-as-this-gpu.py" \
     "$root/scripts/make-dataset.sh" "$root/scripts/dataset-drop-runs.py" "$bundle/scripts/"
  for f in "$bundle"/bin/klaraptor-device-probe "$bundle"/bin/klaraptor-hook-bench "$bundle"/lib/libklaraptor_emu_cudart.so "$bundle"/programs-emu/* "$bundle"/programs-tuned/* "$bundle"/programs-dropin/*; do
    ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
  done | sort -u | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libcuda.so*|libklaraptor*) ;;
      *) [ -e "$bundle/lib/$(basename "$lib")" ] || cp -L "$lib" "$bundle/lib/" ;;
    esac
  done
  # Debug information is most of the size; the dynamic symbols (dlsym) stay.
  for f in "$bundle"/bin/* "$bundle"/lib/* "$bundle"/programs*/*; do
    [ -L "$f" ] || strip --strip-debug "$f" 2>/dev/null || true
  done
  size=$(du -sm "$bundle" | cut -f1)
  echo "== GPU-session bundle ready: $bundle (${size} MiB; the device tool carries 64 MiB at most)"
  [ "$size" -le 64 ] || echo "gpu-session.sh: warning: the bundle is larger than 64 MiB" >&2
  echo "   on the GPU machine: scripts/gpu-session.sh --run $(basename "$bundle") \$OUT"
  exit 0
fi

# --run
[ -d "$bundle" ] || die "no bundle '$bundle' (make it with --prepare)"
[ -z "$resume" ] || [ -d "$resume" ] || die "--resume: no folder '$resume'"
[ -z "$resume" ] || resume=$(cd "$resume" && pwd)
[ -n "$out" ] || die "--run BUNDLE OUTDIR"
bundle=$(cd "$bundle" && pwd)
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L 2>/dev/null | grep -q '^GPU' ||
  die "no NVIDIA GPU here (nvidia-smi lists none)"
mkdir -p "$out"
out=$(cd "$out" && pwd)
export LD_LIBRARY_PATH=$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
kl=$bundle/bin/klaraptor
"$kl" --version >/dev/null 2>&1 ||
  die "the bundle's klaraptor does not start here (an older glibc than the build machine's?)"
# The bundle's CUPTI (the headers' version), unless KLARAPTOR_CUPTI_LIB names one.
if [ -z "${KLARAPTOR_CUPTI_LIB:-}" ] && [ -e "$bundle/cupti.txz" ]; then
  mkdir -p "$out/.cupti"
  tar xJf "$bundle/cupti.txz" -C "$out/.cupti"
  export KLARAPTOR_CUPTI_LIB=$(ls "$out"/.cupti/libcupti.so* | head -1)
  export LD_LIBRARY_PATH=$out/.cupti:$LD_LIBRARY_PATH
fi
export out bundle kl
start=$SECONDS
status=0
step() { [[ ",$steps," == *",$1,"* ]]; }
left() { echo $((time_limit - (SECONDS - start))); }
run_step() { # NAME SECONDS COMMAND...: output to OUTDIR/NAME.log, bounded
  local name=$1 limit=$2; shift 2
  local l; l=$(left)
  if [ "$l" -le 5 ]; then
    echo "== $name: skipped (the time limit is reached)"; status=1; return 0
  fi
  [ "$limit" -le "$l" ] || limit=$l
  echo "== $name (at most $limit s)"
  local t0=$SECONDS rc=0 cmd=("$@")
  # timeout runs programs, not shell functions: a function runs in a bash
  # that is given its definition (and the validation list).
  if declare -F "$1" >/dev/null; then
    cmd=(bash -c "set -o pipefail; $(declare -f "$1"); $(declare -p validation refinement); \"\$@\"" run_step "$@")
  fi
  timeout -k 10 "$limit" "${cmd[@]}" > "$out/$name.log" 2>&1 || rc=$?
  if [ $rc = 0 ]; then
    echo "   ok in $((SECONDS - t0)) s"
  elif [ $rc = 124 ] || [ $rc = 137 ]; then
    echo "   STOPPED at its limit after $((SECONDS - t0)) s (see $name.log)"; status=1
  else
    echo "   FAILED (exit $rc) in $((SECONDS - t0)) s (see $name.log):"
    tail -5 "$out/$name.log" | sed 's/^/   | /'; status=1
  fi
}

if step env; then
  envinfo() {
    nvidia-smi
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total,power.limit --format=csv
    echo "KLARAPTOR_CUPTI_LIB=${KLARAPTOR_CUPTI_LIB:-}"
    ls /usr/local/cuda*/extras/CUPTI/lib64/libcupti.so* /usr/local/cuda*/lib64/libcupti.so* 2>/dev/null || true
    ls /usr/local/nvidia 2>/dev/null || true
    cat /proc/driver/nvidia/version 2>/dev/null || true
    uname -a; nproc
    "$kl" --version
  }
  run_step env 20 envinfo
fi

if step smoke; then
  # Metrics are worth their time only if they work: a first, small, checked
  # run tells (saxpy and PolyBench gemm with their own result checks, so the
  # memory restore is tested too).
  smoke() {
    local d=$out/smoke rc=0; mkdir -p "$d"
    KLARAPTOR_CUPTI_REPEATS=3 "$kl" profile --fresh --sizes 65536 --db "$d/saxpy.db" -- \
      "$bundle/programs/saxpy" '{N}' || rc=1
    KLARAPTOR_CUPTI_REPEATS=3 "$kl" profile --fresh --sizes 64 --db "$d/gemm.db" -- \
      "$bundle/programs-polybench/gemm" '{N}' || rc=1
    "$kl" dataset export --db "$d/saxpy.db" --out "$d" --program saxpy || rc=1
    "$kl" dataset export --db "$d/gemm.db" --out "$d" --program pb-gemm || rc=1
    local bad keys
    bad=$(cat "$d"/*.jsonl 2>/dev/null | grep -c '"status":"no metrics' || true)
    keys=$(cat "$d"/*.jsonl 2>/dev/null | grep -c '"global_load_sectors"' || true)
    echo "smoke: samples without metrics: $bad; samples with global_load_sectors: $keys"
    [ "$keys" -gt 0 ] && echo "smoke: the CUPTI metrics work"
    return $rc
  }
  run_step smoke 60 smoke
  if ! grep -q "smoke: the CUPTI metrics work" "$out/smoke.log" 2>/dev/null; then
    echo "   the CUPTI metrics failed: the dataset steps record times only"
    export KLARAPTOR_CUPTI_METRICS=0
    smoke_times() {
      "$kl" profile --fresh --sizes 65536 --db "$out/smoke/saxpy-times.db" -- "$bundle/programs/saxpy" '{N}'
    }
    run_step smoke-times 30 smoke_times
  fi
fi

if step probe; then
  run_step probe 75 "$kl" device probe --out "$out/probe.device" --probe "$bundle/bin/klaraptor-device-probe"
fi

if step hook; then
  hook() {
    # The runtime finds cudaGetDevice in the process: preload the CUDA
    # runtime, as a program built with klaraptor-clang++ links it.
    local rt; rt=$(ls "$bundle"/lib/libcudart.so* | head -1)
    LD_PRELOAD=$rt "$bundle/bin/klaraptor-hook-bench" --hits 2000000 --misses 100000 --dims 1
    LD_PRELOAD=$rt "$bundle/bin/klaraptor-hook-bench" --hits 2000000 --misses 50000 --dims 2
    "$bundle/bin/klaraptor-hook-bench" --hits 2000000 --misses 50000 --dims 2 --fake-device
  }
  run_step hook 40 hook
fi

if step dropin; then
  dropin() {
    rm -f "$out/dropin.json"
    KLARAPTOR_LOG=$out/dropin.json KLARAPTOR_TEST_MODEL_KERNELS='step,twice<float>' \
      KLARAPTOR_TEST_MODEL_BLOCK=128,1,1 "$bundle/programs-dropin/graph" 100000
  }
  run_step dropin 30 dropin
fi

if step refine; then
  refine() {
    local d=$out/refine name train judged n r; mkdir -p "$d"
    for v in "${refinement[@]}"; do
      IFS='|' read -r name train judged <<<"$v"
      # Every admissible shape at the judged sizes, times only (the judge).
      KLARAPTOR_CUPTI_METRICS=0 KLARAPTOR_CUPTI_REPEATS=5 "$kl" profile --quiet \
        --sizes "$judged" --db "$d/sweep.db" -- "$bundle/programs/$name" '{N}' 2 --no-check
      for n in ${judged//,/ }; do
        for r in 0 3; do
          KLARAPTOR_REFINE=$r KLARAPTOR_LOG=$d/$name-$n-refine$r.json \
            "$bundle/programs-tuned/$name" "$n" 10 --no-check
        done
      done
    done
    # The sweep as a dataset, what scripts/refine-report.py reads.
    "$kl" dataset export --db "$d/sweep.db" --out "$d" --program sweep && rm -f "$d/sweep.db"
  }
  run_step refine 90 refine
fi

datasets() { # STEP PROGRAMS-DIR SHARE% TEST%: make-dataset.sh within SHARE% of the time left
  local l; l=$(left)
  local mine=$((l * $3 / 100 - 15)) manifest=$bundle/$2.manifest
  [ "$2" != programs ] || manifest=$bundle/bench.manifest
  [ "$mine" -gt 20 ] || mine=20
  local more=()
  [ -z "$resume" ] || [ ! -d "$resume/$1" ] || more=(--resume "$resume/$1")
  run_step "$1" $((mine + 30)) env MANIFEST="$manifest" bash "$bundle/scripts/make-dataset.sh" \
    --bundle "$bundle" --programs-dir "$2" --test-times-only --test-repeats 3 \
    --time-limit "$mine" --test-share "$4" "${more[@]}" "$out/$1"
}
if step polybench; then
  # The judged sizes are what the real-timings judge needs most: 75 % of
  # the step's time is kept for them.
  share=55; step examples || share=100
  datasets polybench programs-polybench $share 75
fi
if step examples; then
  datasets examples programs 100 50
fi

if step cache-metrics; then
  # CUPTI's L1, L2 and DRAM counters at judged sizes, for the cache model.
  limit=$(( $(left) - 20 ))
  [ "$limit" -gt 10 ] || limit=10
  run_step cache-metrics "$(left)" env MANIFEST="$bundle/polybench-metrics.manifest" \
    bash "$bundle/scripts/make-dataset.sh" --bundle "$bundle" \
    --programs-dir programs-polybench --time-limit "$limit" "$out/cache-metrics"
fi
if step validate; then
  validate() {
    local profile
    profile=$(python3 "$bundle/scripts/emulate-as-this-gpu.py" --this-gpu)
    for v in "${validation[@]}"; do
      IFS='|' read -r name args sizes <<<"$v"
      read -r -a argv <<<"$args"
      KLARAPTOR_CUPTI_METRICS=0 "$kl" profile --quiet --sizes "$sizes" \
        --db "$out/gpu-times.db" -- "$bundle/programs/$name" "${argv[@]}"
      KLARAPTOR_PROFILE_TIMES_ONLY=1 KLARAPTOR_EMU_EXECUTE=0 \
        KLARAPTOR_PROFILE_LIB=$bundle/lib/libklaraptor_profile.so \
        "$kl" profile --quiet --device "$profile" --sizes "$sizes" \
        --db "$out/emu-times.db" -- "$bundle/programs-emu/$name" "${argv[@]}"
    done
    python3 "$bundle/scripts/compare-dbs.py" "$out/gpu-times.db" "$out/emu-times.db" | tee "$out/compare.txt"
  }
  run_step validate "$(left)" validate
fi
rm -rf "$out/.cupti"
tar czf "$out/gpu-session.tgz" -C "$out" --exclude gpu-session.tgz . 2>/dev/null || true
echo "== done in $((SECONDS - start)) s; results in $out/gpu-session.tgz"
# The default steps this call left out: a session that picks steps should
# not forget one (the probe measures the profiles' newest keys).
missing=""
for s in ${default_steps//,/ }; do
  step "$s" || missing+="${missing:+, }$s"
done
[ -z "$missing" ] || echo "== not run by this call (default steps): $missing"
exit $status
