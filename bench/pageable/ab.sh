#!/usr/bin/env bash
# A/B of bench_pageable on the device: the tree in $BASE (a `git archive` of the commit before a
# change, exported here and carried) against the work tree, application by application in turn,
# alternating which goes first. Names may repeat (rounds). Needs .gpu-carry/generated
# (scripts/pregenerate.sh). Prints each run's staged and host-copy lines; $OUT/{base,new}-summary.*
# come from summarize_pageable.py, the raw reports are in $OUT/raw.tar.gz.
#   git archive REV | tar -x -C .gpu-carry/base
#   OUT=$OUT BASE=.gpu-carry/base bash bench/pageable/ab.sh NAME...
set -u
cd "$(dirname "$0")/../.." || exit 1
BASE=${BASE:-.gpu-carry/base}
OUT=${OUT:?set OUT}
cfg=(-G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90
  "-DOVERLAP_PREGENERATED_DIR=$PWD/.gpu-carry/generated")
(cmake -S "$BASE" -B build-base "${cfg[@]}" &&
  cmake --build build-base -j8 --target bench_pageable) >"$OUT/build-base.log" 2>&1 &
(cmake -S . -B build-bench "${cfg[@]}" &&
  cmake --build build-bench -j8 --target bench_pageable) >"$OUT/build-new.log" 2>&1 &
wait
ls build-base/bench/bench_pageable build-bench/bench/bench_pageable || {
  tail -30 "$OUT"/build-*.log
  exit 1
}
# The applications' flags, as scripts/bench.sh defines them.
# shellcheck disable=SC1090
source <(sed -n '/^APPS=(/,/^)/p;/^application_flags()/,/^}/p' scripts/bench.sh)
mkdir -p "$OUT/base" "$OUT/new"
nvidia-smi --query-gpu=name,driver_version --format=csv >"$OUT/base/device.txt"
cp "$OUT/base/device.txt" "$OUT/new/"
i=0
for n in "$@"; do
  application_flags "$n" || continue
  if [ $((i % 2)) = 0 ]; then order="base new"; else order="new base"; fi
  for which in $order; do
    b=build-bench
    [ "$which" = base ] && b=build-base
    echo "== $n $which ($SECONDS s)"
    # shellcheck disable=SC2154
    timeout 100 "$b/bench/bench_pageable" "${app_flags[@]}" --name "$n" \
      --output "$OUT/$which/$n.json" 2>&1 | grep -E "staged|host copies" | tee -a "$OUT/ab.log"
  done
  i=$((i + 1))
done
list=$(
  IFS=,
  echo "$*"
)
for which in base new; do
  python3 bench/pageable/summarize_pageable.py "$OUT/$which" "$OUT/$which-summary" --apps "$list" \
    --title "$which" --command ab
done
tar -czf "$OUT/raw.tar.gz" -C "$OUT" base new
rm -rf "$OUT/base" "$OUT/new"
