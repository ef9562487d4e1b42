#!/usr/bin/env bash
# How the h100-pcie5 profile (calibrate/profile/builtin) was produced: on a machine with the GPU, from the repository
# root, build the calibration with optimization, run its tests, then calibrate and check the
# model's accuracy. Writes everything under $1 (default ./calibration-out).
#   build-dir: $2 (default build-calibration); CMake source: $3 (default .; any tree that
#   includes runtime/, calibrate/ and tests/calibration the way the top-level CMakeLists.txt does, e.g.
#   calibrate/standalone, which builds nothing else).
set -u -o pipefail
out=${1:-calibration-out}
build=${2:-build-calibration}
source_dir=${3:-.}
mkdir -p "$out"

{
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max,clocks.sm,temperature.gpu --format=csv
  nproc
} >"$out/calibrate.log" 2>&1

cmake -S "$source_dir" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DOVERLAP_BUILD_EXAMPLES=OFF >"$out/build.log" 2>&1 &&
  cmake --build "$build" -j "$(nproc)" --target overlap-calibrate overlap_calibration_tests \
    overlap_calibration_gpu_tests >>"$out/build.log" 2>&1 || {
  tail -40 "$out/build.log"
  exit 1
}
tool=$(find "$build" -name overlap-calibrate -type f | head -1)
cpu_tests=$(find "$build" -name overlap_calibration_tests -type f | head -1)
gpu_tests=$(find "$build" -name overlap_calibration_gpu_tests -type f | head -1)

{
  "$cpu_tests" 2>&1 | tail -3
  "$gpu_tests" 2>&1
} >"$out/tests.log"
grep -E "^\[  (PASSED|FAILED|SKIPPED) +\] [0-9]+ tests?" "$out/tests.log"

# The calibration itself (timed), the profile, the raw measurements, then the accuracy table.
start=$(date +%s.%N)
"$tool" --name h100-pcie5 --output "$out/h100-pcie5.json" --raw "$out/h100-pcie5.raw.json" \
  --accuracy --markdown "$out/h100-pcie5-accuracy.md" --json "$out/h100-pcie5-accuracy.json" \
  >>"$out/calibrate.log" 2>&1
status=$?
echo "overlap-calibrate exit $status, $(awk "BEGIN { print $(date +%s.%N) - $start }") s with the accuracy check" \
  >>"$out/calibrate.log"
cat "$out/calibrate.log"
