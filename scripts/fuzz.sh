#!/usr/bin/env bash
# Builds klaraptor's libFuzzer targets (test/Fuzz/) with clang-19,
# AddressSanitizer and UndefinedBehaviorSanitizer, in a build folder of their
# own, and runs each on its seed corpus (test/Fuzz/seeds/) plus the corpus it
# grew before. Prints one line per target: runs, new corpus entries, crashes
# (sanitizer reports, aborts), timeouts and out-of-memory; exits 1 when a
# target found any, leaving the reproducer next to its corpus. docs/fuzzing.md.
#
# Usage: scripts/fuzz.sh [OPTIONS]
#   --seconds N     run each target N seconds (default 60)
#   --runs N        instead: stop each target after N runs
#   --targets LIST  which: spec,ptx,cache,dataset,pragma (default all)
#   --build DIR     the fuzz build folder (default: build-fuzz in the tree)
#   --jobs N        processes per target (libFuzzer -fork; default 1)
#   --seed N        libFuzzer's seed (default: a new one each run); with
#                   --runs and a fresh corpus the run is reproducible
#   --fresh         start from the seeds only (an empty corpus folder)
#   --no-build      use the build as it is
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build-fuzz
seconds=60
runs=""
targets=spec,ptx,cache,dataset,pragma
jobs=1
seed=""
fresh=0
do_build=1
die() { echo "fuzz: error: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=${2:?--seconds needs a number}; shift 2 ;;
    --runs) runs=${2:?--runs needs a number}; shift 2 ;;
    --targets) targets=${2:?--targets needs a list}; shift 2 ;;
    --build) build=${2:?--build needs a folder}; shift 2 ;;
    --jobs) jobs=${2:?--jobs needs a number}; shift 2 ;;
    --seed) seed=${2:?--seed needs a number}; shift 2 ;;
    --fresh) fresh=1; shift ;;
    --no-build) do_build=0; shift ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (scripts/fuzz.sh --help)" ;;
  esac
done
for n in "$seconds" "$jobs" ${runs:+"$runs"} ${seed:+"$seed"}; do
  [[ $n =~ ^[1-9][0-9]*$ ]] || die "expected a positive number, got '$n'"
done
# Absolute: the targets run from their findings folder.
mkdir -p "$build"
build=$(cd "$build" && pwd)
IFS=, read -r -a selected <<< "$targets"
for t in "${selected[@]}"; do
  case "$t" in spec|ptx|cache|dataset|pragma) ;; *) die "--targets: no target '$t' (spec, ptx, cache, dataset, pragma)" ;; esac
done

if [ "$do_build" = 1 ]; then
  bash "$root/scripts/setup.sh"
  flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g -O1"
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
    -DCMAKE_C_COMPILER=clang-19 -DCMAKE_CXX_COMPILER=clang++-19 \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags" \
    -DKLARAPTOR_FUZZ=ON >/dev/null
  ninja -C "$build" $(printf 'klaraptor-fuzz-%s ' "${selected[@]}") >/dev/null
fi

status=0
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export ASAN_OPTIONS=detect_leaks=0
for t in "${selected[@]}"; do
  bin=$build/fuzz/klaraptor-fuzz-$t
  [ -x "$bin" ] || die "$bin is not built (run without --no-build)"
  corpus=$build/fuzz/corpus-$t
  findings=$build/fuzz/findings-$t
  [ "$fresh" = 0 ] || rm -rf "$corpus"
  mkdir -p "$corpus" "$findings"
  log=$build/fuzz/$t.log
  limit=(-max_total_time="$seconds")
  [ -n "$runs" ] && limit=(-runs="$runs")
  before=$(find "$corpus" -type f | wc -l)
  # Findings of earlier runs stay in $findings: only what this run writes
  # counts, and the older ones are named after the figures.
  start=$build/fuzz/.start-$t
  touch "$start"
  older=$(find "$findings" -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  extra=""
  [ "$jobs" = 1 ] || extra=-fork=$jobs
  [ -z "$seed" ] || extra="$extra -seed=$seed"
  rc=0
  (cd "$findings" && "$bin" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 \
     -max_len=16384 -print_final_stats=1 $extra \
     -artifact_prefix="$findings/" "$corpus" "$root/test/Fuzz/seeds/$t") \
     > "$log" 2>&1 || rc=$?
  after=$(find "$corpus" -type f | wc -l)
  done_runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | tail -1 | grep -o '[0-9]*$' || true)
  [ -n "$done_runs" ] || done_runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1 | grep -o '[0-9]*' || echo 0)
  crashes=$(find "$findings" -name 'crash-*' -newer "$start" | wc -l)
  timeouts=$(find "$findings" -name 'timeout-*' -newer "$start" | wc -l)
  ooms=$(find "$findings" -name 'oom-*' -newer "$start" | wc -l)
  rm -f "$start"
  printf 'fuzz: %-8s %10s runs  %5d new corpus entries  %d crashes  %d timeouts  %d out-of-memory\n' \
    "$t" "$done_runs" $((after - before)) "$crashes" "$timeouts" "$ooms"
  [ "$older" = 0 ] ||
    echo "fuzz: $t: $older findings of earlier runs in $findings (not counted; replay them with $bin FILE)"
  if [ "$rc" != 0 ] || [ "$crashes" != 0 ] || [ "$timeouts" != 0 ] || [ "$ooms" != 0 ]; then
    status=1
    echo "fuzz: $t: see $log and $findings" >&2
    grep -m3 -E 'ERROR: |runtime error: |SUMMARY' "$log" >&2 || true
  fi
done
exit $status
