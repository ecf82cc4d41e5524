#!/usr/bin/env bash
# The second device call of the 2026-11-26 session: what the first left
# (test/data/nvidia-h200/README.md). OUT given as $1.
set -uo pipefail
b=$(cd "$(dirname "$0")" && pwd); out=$1; w=/tmp/c2; mkdir -p $w
export LD_LIBRARY_PATH=$b/lib
mkdir -p $w/.cupti && tar xJf $b/cupti.txz -C $w/.cupti
export KLARAPTOR_CUPTI_LIB=$w/.cupti/libcupti.so.13 LD_LIBRARY_PATH=$w/.cupti:$LD_LIBRARY_PATH
pack() { tar czf $out/cont.tgz -C $w --exclude .cupti . ; }
ds() { # STEM LIMIT REPEATS
  echo "== $1 (limit $2 s) $(date +%T)"
  MANIFEST=$b/$1.manifest timeout -k 10 $(($2 + 30)) bash $b/scripts/make-dataset.sh --bundle $b \
    --test-times-only --test-repeats $3 --time-limit $2 $w/$1 > $w/$1.log 2>&1; echo "   rc=$? $(date +%T)"
  tail -3 $w/$1.log; pack
}
ds pbq 40 3
echo "== hook $(date +%T)"
rt=$(ls $b/lib/libcudart.so* | head -1)
{ LD_PRELOAD=$rt timeout 60 $b/bin/klaraptor-hook-bench --api --hits 1000000
  LD_PRELOAD=$rt timeout 60 $b/bin/klaraptor-hook-bench --hits 2000000 --misses 50000 --dims 2 --threads 4; } > $w/hook2.log 2>&1
cat $w/hook2.log; pack
ds pbt 95 3
ds pbc 100 1
ds ext 60 3
echo "== done $(date +%T)"
