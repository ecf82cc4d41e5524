#!/usr/bin/env bash
# Everything a session with a lent GPU should run, prepared here and run
# there in one device call (docs/dataset.md, "A GPU session").
#
#   scripts/gpu-session.sh --prepare BUNDLE [--build DIR]
#       here (no GPU needed): the dataset bundle of scripts/make-dataset.sh
#       (programs built for the GPU, klaraptor, its libraries), plus the
#       device probe, the five validation examples built for the emulator
#       with the emulated runtime, and the comparison script.
#   scripts/gpu-session.sh --run BUNDLE OUTDIR [--steps probe,validate,dataset]
#       on the GPU machine, from the bundle: probe the GPU into
#       OUTDIR/probe.device; time every block shape of saxpy, matrix2d,
#       gemm, jacobi2d and correlation at two large sizes (cupti backend,
#       times only) and estimate the same launches on the emulator with the
#       built-in profile of this GPU, compared in OUTDIR/compare.txt (issue
#       5); make the dataset into OUTDIR/ds (issue 7). Each step's output in
#       OUTDIR/<step>.log; everything packed into OUTDIR/gpu-session.tgz.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "gpu-session.sh: error: $*" >&2; exit 1; }

mode="" bundle="" out="" build=$root/build steps=probe,validate,dataset
while [ $# -gt 0 ]; do
  case "$1" in
    --prepare) mode=prepare; bundle=$2; shift 2 ;;
    --run) mode=run; bundle=$2; out=${3:-}; shift 3 || die "--run BUNDLE OUTDIR" ;;
    --build) build=$2; shift 2 ;;
    --steps) steps=$2; shift 2 ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    *) die "unknown argument '$1' (--help)" ;;
  esac
done
[ -n "$mode" ] || die "--prepare BUNDLE or --run BUNDLE OUTDIR (--help)"

# The validation examples: NAME ARGS SIZES (NAME's args with {N}).
validation=(
  "saxpy|{N} --no-check|1048576,16777216"
  "matrix2d|{N} {N} --no-check|512,2048"
  "gemm|{N} {N} {N} --no-check|512,1024"
  "jacobi2d|{N} 1 --no-check|1024,2048"
  "correlation|{N} {N} --no-check|512,1024"
)

if [ "$mode" = prepare ]; then
  [ -x "$build/bin/klaraptor-device-probe" ] || die "no $build/bin/klaraptor-device-probe: build klaraptor first"
  bash "$root/scripts/make-dataset.sh" --prepare "$bundle" --build "$build"
  bundle=$(cd "$bundle" && pwd)
  mkdir -p "$bundle/programs-emu" "$bundle/scripts"
  cp "$build/bin/klaraptor-device-probe" "$bundle/bin/"
  cp "$build/lib/libklaraptor_emu_cudart.so" "$bundle/lib/"
  for v in "${validation[@]}"; do
    name=${v%%|*}
    echo "== building $name for the emulator"
    "$build/bin/klaraptor-clang++" --klaraptor-emulate -O2 \
      "$root/examples/$name/$name.cu" -I"$root/examples" -o "$bundle/programs-emu/$name"
  done
  cp "$root/test/Timing/Inputs/compare-dbs.py" "$root/test/Timing/Inputs/emulate-as-this-gpu.py" \
     "$root/scripts/make-dataset.sh" "$bundle/scripts/"
  for f in "$bundle"/bin/klaraptor-device-probe "$bundle"/lib/libklaraptor_emu_cudart.so "$bundle"/programs-emu/*; do
    ldd "$f" 2>/dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}'
  done | sort -u | while read -r lib; do
    case "$(basename "$lib")" in
      libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|ld-linux*|libcuda.so*|libklaraptor*) ;;
      *) [ -e "$bundle/lib/$(basename "$lib")" ] || cp -L "$lib" "$bundle/lib/" ;;
    esac
  done
  # Debug information is most of the size; the dynamic symbols (dlsym) stay.
  for f in "$bundle"/bin/* "$bundle"/lib/* "$bundle"/programs/* "$bundle"/programs-emu/*; do
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
nvidia-smi > "$out/nvidia-smi.txt" 2>&1 || true
status=0
step() { [[ ",$steps," == *",$1,"* ]]; }
run_step() { # NAME COMMAND...: output to OUTDIR/NAME.log, timed
  local name=$1; shift
  echo "== $name"
  local t0=$SECONDS
  if "$@" > "$out/$name.log" 2>&1; then
    echo "   ok in $((SECONDS - t0)) s"
  else
    echo "   FAILED in $((SECONDS - t0)) s (see $name.log)"; status=1
  fi
}
if step probe; then
  run_step probe "$kl" device probe --out "$out/probe.device" --probe "$bundle/bin/klaraptor-device-probe"
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
  run_step validate validate
fi
if step dataset; then
  run_step dataset env MANIFEST="$bundle/bench.manifest" bash "$bundle/scripts/make-dataset.sh" --bundle "$bundle" "$out/ds"
fi
tar czf "$out/gpu-session.tgz" -C "$out" --exclude gpu-session.tgz . 2>/dev/null || true
echo "== results in $out/gpu-session.tgz"
exit $status
