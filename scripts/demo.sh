#!/usr/bin/env bash
# The main job on a bundled example (examples/saxpy/saxpy.cu): generate the four host-code
# variants, calibrate this machine's GPU (without a GPU: take an embedded profile and say so),
# predict and prune, tune on the GPU with every candidate verified against Explicit, write the
# reports and print where they are. Without a GPU only the model's report is written, and it says
# that nothing was run. Extra arguments go to the tuner (e.g. --exhaustive, --arg n=16777216).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
overlap_ensure_packages
build=${OVERLAP_BUILD_DIR:-$OVERLAP_ROOT/build}
reports="$build/overlap-tuning/saxpy_example"
echo "== configuring $build"
overlap_configure "$build" >/dev/null
echo "== generating the variants of examples/saxpy/saxpy.cu and building the tuner"
targets=(saxpy_example saxpy_example_tune)
[ -n "$(ninja -C "$build" -t targets all 2>/dev/null | grep '^overlap-calibrate:')" ] &&
  targets+=(overlap-calibrate)
cmake --build "$build" -j "$(overlap_jobs)" --target "${targets[@]}"
generated="$build/examples/saxpy/overlap_generated/saxpy_example"
echo "== generated: $generated/saxpy.overlap.h (declarations) and saxpy.overlap.cu (host code)"
grep -E '^overlap::Status saxpy_' "$generated/saxpy.overlap.h" | sed 's/^/   /'

profile_args=()
if nvidia-smi -L >/dev/null 2>&1 && [ -x "$build/calibrate/overlap-calibrate" ]; then
  profile="$build/overlap-profile.json"
  if [ ! -f "$profile" ]; then
    echo "== calibrating this GPU's link into $profile (once; delete it to recalibrate)"
    "$build/calibrate/overlap-calibrate" --force --output "$profile"
  fi
  profile_args=(--profile "$profile")
else
  echo "== no GPU here: the model uses an embedded profile; NOTHING WILL BE RUN"
fi
echo "== predicting, pruning, tuning and verifying (reports in $reports)"
"$build/examples/saxpy/saxpy_example_tune" --output-dir "$reports" "${profile_args[@]}" "$@"
echo "== reports: $reports/saxpy.tuning.md (table and plot), saxpy.tuning.json, saxpy.tuning.svg"
