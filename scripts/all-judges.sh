#!/usr/bin/env bash
# Every real-hardware judge in one run, and the table of docs/results.md's
# "Where things stand": the PolyBench kernels against the times measured on
# the RTX 2070 SUPER, the H200 and the H100 (scripts/real-timings.sh), and the
# examples against the H200's and the H100's (scripts/examples-judge.sh), one
# after the other, each in its own folder under WORK. Times are MEASURED on
# those GPUs; every pick comes from programs profiled on the emulator, as a
# user without a GPU tunes them. About 55 minutes on two cores.
#
# Usage: scripts/all-judges.sh [OPTIONS]
#   --work DIR          where the judges' folders and the table go
#                       (default: ./all-judges; emptied first)
#   --build DIR         klaraptor's build folder (default: build/ of this tree;
#                       it must be built: the judges run with --no-build)
#   --judges LIST       which, in this order: rtx,h200,h100,ex-h200,ex-h100
#                       (default: all five)
#   --only-polybench LIST, --only-examples LIST
#                       programs of each kind (the judges' --only)
#   --train-sizes LIST, --sizes LIST
#                       the PolyBench judges' profiled and judged sizes
#
# Writes WORK/table.md and prints it: per judge the launches and, as
# best/chosen geometric mean / worst, the lines model (the default), MWP-CWP,
# top-3 (online refinement), the programs' own shapes, the emulator's estimate and
# the roofline model; then the estimator's Spearman median and its
# estimated/measured geometric mean. Each judge's own output is in
# WORK/<judge>.log, its tables and JSON in WORK/<judge>/.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
die() { echo "all-judges: error: $*" >&2; exit 1; }

work=all-judges
build=$root/build
judges=rtx,h200,h100,ex-h200,ex-h100
only_polybench="" only_examples="" train_sizes="" sizes=""
while [ $# -gt 0 ]; do
  case $1 in
    --work) work=${2:?--work needs a folder}; shift 2 ;;
    --build) build=$(cd "${2:?--build needs a folder}" && pwd); shift 2 ;;
    --judges) judges=${2:?--judges needs a list}; shift 2 ;;
    --only-polybench) only_polybench=${2:?--only-polybench needs a list}; shift 2 ;;
    --only-examples) only_examples=${2:?--only-examples needs a list}; shift 2 ;;
    --train-sizes) train_sizes=${2:?--train-sizes needs a list}; shift 2 ;;
    --sizes) sizes=${2:?--sizes needs a list}; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
    *) die "unknown option '$1' (scripts/all-judges.sh --help)" ;;
  esac
done
[ -x "$build/bin/klaraptor" ] || die "no klaraptor in $build/bin (build it, or give --build)"

IFS=, read -r -a selected <<< "$judges"
[ ${#selected[@]} -gt 0 ] || die "--judges: empty list"
for j in "${selected[@]}"; do
  case $j in
    rtx|h200|h100|ex-h200|ex-h100) ;;
    *) die "--judges: no judge '$j' (rtx, h200, h100, ex-h200, ex-h100)" ;;
  esac
done

rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
start=$(date +%s)
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=""
[ -z "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ] || dirty=" (with local changes)"

# One judge: its script, its folder, its log; the summary lines keep the
# script's label (real-timings: / examples-judge:).
run() {
  local j=$1 t0 args
  t0=$(date +%s)
  case $j in
    rtx|h200|h100)
      args=(--no-build --build "$build" --work "$work/$j")
      [ "$j" = rtx ] || args+=(--gpu "$j")
      [ -z "$only_polybench" ] || args+=(--only "$only_polybench")
      [ -z "$train_sizes" ] || args+=(--train-sizes "$train_sizes")
      [ -z "$sizes" ] || args+=(--sizes "$sizes")
      bash "$root/scripts/real-timings.sh" "${args[@]}" > "$work/$j.log" 2>&1 ;;
    ex-h200|ex-h100)
      args=(--build "$build" --work "$work/$j" --gpu "${j#ex-}")
      [ -z "$only_examples" ] || args+=(--only "$only_examples")
      bash "$root/scripts/examples-judge.sh" "${args[@]}" > "$work/$j.log" 2>&1 ;;
  esac || { echo "all-judges: $j failed; see $work/$j.log" >&2; return 1; }
  echo "all-judges: $j judged in $(( $(date +%s) - t0 )) s"
}

failed=0
for j in "${selected[@]}"; do run "$j" || failed=1; done

# The table, from the summary lines each judge printed.
{
  echo "Best/chosen geometric mean / worst over the judged launches (1 = the best"
  echo "measured shape); times MEASURED on the GPUs named, picks from programs"
  echo "profiled on the emulator. Commit $commit$dirty, $(date -u +%Y-%m-%d),"
  echo "$(nproc) CPUs, \`scripts/all-judges.sh\`."
  echo
  echo "| judge (launches) | lines model (the default) | MWP-CWP | top-3 (refinement) | the programs' own shapes | estimate (emulator) | roofline | estimator Spearman median | estimated/measured |"
  echo "|---|---|---|---|---|---|---|---|---|"
  for j in "${selected[@]}"; do
    [ -f "$work/$j.log" ] || continue
    case $j in
      rtx) name="RTX 2070 SUPER, PolyBench" ;;
      h200) name="H200, PolyBench" ;;
      h100) name="H100, PolyBench" ;;
      ex-h200) name="H200, the examples" ;;
      ex-h100) name="H100, the examples" ;;
    esac
    awk -v name="$name" '
      / best\/chosen geomean / {
        m = $2; g = $5; w = $7; n = $9
        fig[m] = (g == "-") ? "-" : g " / " w
        if (m == "mwp-cwp") launches = n
      }
      / estimator Spearman median / { spear = $5 }
      / estimator estimated\/measured geomean / { ratio = $5 }
      END {
        if (launches == "") { print "| " name " | (no figures; see its log) | | | | | | | |"; exit }
        printf "| %s (%s) | %s | %s | %s | %s | %s | %s | %s | %s |\n", name, launches,
          (fig["mwp-cwp-lines"] == "" ? "-" : fig["mwp-cwp-lines"]),
          fig["mwp-cwp"], fig["top-3"], fig["requested"], fig["estimate"],
          (fig["roofline"] == "" ? "-" : fig["roofline"]),
          (spear == "" ? "-" : spear), (ratio == "" ? "-" : ratio)
      }' "$work/$j.log"
  done
} > "$work/table.md"
cat "$work/table.md"
echo "all-judges: done in $(( $(date +%s) - start )) s; table in $work/table.md"
exit $failed
