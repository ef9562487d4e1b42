#!/usr/bin/env bash
# One call on the GPU machine: build (with sources pregenerated here, since the GPU node has no
# Clang headers), run every test, compute-sanitizer (memcheck, racecheck, synccheck) on every
# variant, the examples, and the benchmarks that exist. Logs go to $OUT (the device tool brings
# them back).
#
#   scripts/pregenerate.sh .gpu-carry/generated      # here, before the call
#   OUT=... scripts/gpu-check.sh [phase...]          # there; phases: build test sanitize examples tune
#                                                     # (and ringcheck: the sanitizers on the
#                                                     # out-of-core ring alone; asynccheck: on
#                                                     # the asynchronous calls alone; splitcheck:
#                                                     # on calls split across GPUs; outofcore:
#                                                     # issue 22's benchmark)
#
# The device tool brings back at most 8 files: everything lands in $OUT/gpu-check.tar.gz, with
# summary.txt beside it.
#
# A call stops at the device's 10-minute limit, before the whole test and sanitize phases can
# finish. RESUME=1 in the next call on the same (warm) machine carries on: the test phase runs only
# the tests that the last test log did not finish, and the sanitize phase skips the runs recorded
# ok (the state stays in the build folder, which the machine keeps between calls).
set -uo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
final_out=$OUT
OUT=$(mktemp -d)/gpu-check
mkdir -p "$OUT"
phases=${*:-build test sanitize examples tune}
build=build-gpu
status=0
resume=${RESUME:-0}
done_file=$build/gpu-check-done.txt
step() { echo "== $1"; }
record() { # name rc
  echo "$1: $([ "$2" = 0 ] && echo ok || echo "FAILED (rc $2)")" | tee -a "$OUT/summary.txt"
  [ "$2" = 0 ] || status=1
  [ "$2" != 0 ] || echo "$1" >>"$done_file"
  # Packed after every step: a call cut short by the device's time limit still brings back what
  # ran.
  cp "$OUT/summary.txt" "$final_out/"
  tar -czf "$final_out/gpu-check.tar.gz" -C "$(dirname "$OUT")" gpu-check
}

nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv \
  >"$OUT/device.txt" 2>&1
cat "$OUT/device.txt"

if [[ " $phases " == *" build "* ]]; then
  step "configure + build"
  cmake -S . -B $build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DOVERLAP_PREGENERATED_DIR="$PWD/.gpu-carry/generated" -DOVERLAP_FAULT_INJECTION=ON \
    >"$OUT/configure.log" 2>&1 &&
    cmake --build $build -j "$(nproc)" >"$OUT/build.log" 2>&1
  rc=$?
  [ "$resume" = 1 ] || : >"$done_file"
  record build $rc
  [ $rc = 0 ] || { tail -50 "$OUT/build.log"; exit 1; }
fi

if [[ " $phases " == *" test "* ]]; then
  step "ctest"
  # Parallel: the GPU tests are mostly host-side data preparation; tests that need the whole
  # device (out-of-memory faults) are RUN_SERIAL in their CMakeLists.
  # The log also goes straight to $final_out, so a call cut short by the device's time limit
  # still brings back what ran.
  # CTEST_ARGS narrows the run (-LE cmake: the CMake build-step tests, which need no GPU).
  selection=()
  if [ "$resume" = 1 ] && [ -f $build/ctest-last.log ]; then
    # The tests of the full list that the last log shows no result for (name after "Test #N: ").
    ctest --test-dir $build -N | sed -n 's/^ *Test *#[0-9]*: //p' | sort >"$OUT/all-tests.txt"
    sed -n 's/^.*Test *#[0-9]*: \([^ ]*\) .*\(Passed\|Failed\|Not Run\|Skipped\|\*\*\*\).*$/\1/p' \
      $build/ctest-earlier.log $build/ctest-last.log | sort -u >"$OUT/finished-tests.txt"
    comm -23 "$OUT/all-tests.txt" "$OUT/finished-tests.txt" >"$OUT/rest-tests.txt"
    echo "resuming: $(wc -l <"$OUT/rest-tests.txt") of $(wc -l <"$OUT/all-tests.txt") tests left"
    selection=(--tests-from-file "$OUT/rest-tests.txt")
    cat $build/ctest-last.log >>$build/ctest-earlier.log
  else
    : >$build/ctest-earlier.log
  fi
  [ -f $build/ctest-earlier.log ] || : >$build/ctest-earlier.log
  # shellcheck disable=SC2086
  ctest --test-dir $build --output-on-failure --timeout 600 -j "${CTEST_JOBS:-8}" "${selection[@]}" \
    ${CTEST_ARGS:-} 2>&1 | tee "$final_out/ctest.log" $build/ctest-last.log >"$OUT/ctest.log"
  rc=${PIPESTATUS[0]}; record ctest $rc
  tail -15 "$OUT/ctest.log"
fi

label() { echo "$([ "$1" != sanitizer ] && echo "$1 ")$2 $3"; }
# sanitize LOG_PREFIX TOOL TEST_BINARY FILTER: one compute-sanitizer run over a GoogleTest binary
# of the build at small sizes, bounded by SANITIZER_TIMEOUT, recorded in the summary.
sanitize() {
  local prefix=$1 tool=$2 name=$3 filter=$4 binary log
  binary=$(find $build -name "$name" -type f -perm -u+x | head -1)
  [ -n "$binary" ] || return 0
  if [ "$resume" = 1 ] && grep -qxF "$(label "$prefix" "$tool" "$name")" "$done_file" 2>/dev/null; then
    return 0
  fi
  log="$OUT/$prefix-$tool-$name.log"
  OVERLAP_TEST_MAX_EXTENT=1009 timeout "${SANITIZER_TIMEOUT:-150}" compute-sanitizer \
    --tool "$tool" --error-exitcode 3 "$binary" --gtest_brief=1 --gtest_filter="$filter" \
    >"$log" 2>&1
  local rc=$?
  record "$(label "$prefix" "$tool" "$name")" $rc
  grep -E "ERROR SUMMARY|RACECHECK SUMMARY|tests? ran|PASSED|FAILED" "$log" | tail -3
}

if [[ " $phases " == *" sanitize "* ]]; then
  step "compute-sanitizer memcheck, racecheck, synccheck on every variant (small sizes)"
  # memcheck: the examples' generated variants (every variant, both issue orders, N in
  # {1,2,3,7,16,64}), the strategy templates over hand-written bindings, and the benchmark
  # applications. racecheck and synccheck: the examples and the applications (the histograms use
  # shared memory and barriers, which they watch), every variant, both orders, N in {1,2,3,16},
  # and every pageable mode (staged copies share pinned slots between host threads and streams).
  # Left out: tests that make CUDA calls fail on purpose (the tools count those as API errors) and
  # the 2^31-element test (too slow to instrument). Each run is bounded (SANITIZER_TIMEOUT).
  memcheck_filter=-StrategyEdges.AFailedLaunch*:GridStrideGrid.*
  few_streams='*/Explicit:*/Mapped:*Streams1*:*Streams2*:*Streams3*:*Streams16*:*Hybrid1*:*Hybrid2*:*Hybrid3*:*Hybrid16*:*PageableModes*'
  for run in "memcheck overlap_example_gpu_tests $memcheck_filter" \
    "memcheck overlap_strategy_gpu_tests $memcheck_filter" \
    "memcheck bench_apps_gpu_tests $memcheck_filter" \
    "racecheck overlap_example_gpu_tests $few_streams" "racecheck bench_apps_gpu_tests $few_streams" \
    "synccheck overlap_example_gpu_tests $few_streams" "synccheck bench_apps_gpu_tests $few_streams"; do
    read -r tool name filter <<<"$run"
    sanitize sanitizer "$tool" "$name" "$filter"
  done
  # The corpus (tests/corpus): memcheck on every case's small calls, fewer stream counts.
  for binary in $(find $build/tests/corpus -maxdepth 1 -name 'overlap_corpus_*_gpu_tests' -type f); do
    name=$(basename "$binary")
    if [ "$resume" = 1 ] && grep -qxF "memcheck $name" "$done_file" 2>/dev/null; then continue; fi
    log="$OUT/sanitizer-memcheck-$name.log"
    OVERLAP_CORPUS_SMALL_ONLY=1 timeout "${SANITIZER_TIMEOUT:-150}" compute-sanitizer \
      --tool memcheck --error-exitcode 3 "$binary" --gtest_brief=1 >"$log" 2>&1
    rc=$?; record "memcheck $name" $rc
    grep -E "ERROR SUMMARY|tests? ran|PASSED|FAILED" "$log" | tail -3
  done
fi

if [[ " $phases " == *" ringcheck "* ]]; then
  step "compute-sanitizer memcheck and racecheck on the out-of-core ring (small sizes)"
  # The ring's cases (DeviceBuffers::Ring: windows, paged arrays, slots reused by each stream's
  # next chunk) of the strategy tests, the examples and the applications: the quick subset of
  # the sanitize phase for a change to the ring.
  for run in "memcheck overlap_strategy_gpu_tests *Ring*" "memcheck overlap_example_gpu_tests *Ring*" \
    "memcheck bench_apps_gpu_tests *Ring*" "racecheck overlap_example_gpu_tests *Ring*" \
    "racecheck bench_apps_gpu_tests *Ring*"; do
    read -r tool name filter <<<"$run"
    sanitize ring "$tool" "$name" "$filter"
  done
fi

if [[ " $phases " == *" asynccheck "* ]]; then
  step "compute-sanitizer memcheck, racecheck and synccheck on the asynchronous entry points"
  # The quick subset of the sanitize phase for a change to the asynchronous calls: the caller's
  # stream forked to the pool's and joined back, stream-ordered buffers, host steps on the stream.
  # And the graph forms: captured calls, replays, in-place updates.
  for tool in memcheck racecheck synccheck; do
    sanitize async "$tool" overlap_example_gpu_tests '*Async*:*Graph*'
  done
fi

if [[ " $phases " == *" splitcheck "* ]]; then
  step "compute-sanitizer memcheck and racecheck on calls split across GPUs (needs 2+ devices)"
  # One call's partition over several devices: a pool, streams and buffers per device, the
  # device switched per range.
  for tool in memcheck racecheck; do
    sanitize split "$tool" overlap_example_gpu_tests 'Split*'
  done
fi

if [[ " $phases " == *" examples "* ]]; then
  step "examples"
  {
    $build/examples/saxpy/saxpy_example 67108864
    $build/examples/matmul/matmul_example 4096 1024 1024
    $build/examples/buoydiff/buoydiff_example 42 1048576
    $build/examples/frameloop/frameloop_example 200
  } >"$OUT/examples.log" 2>&1
  rc=$?; record examples $rc
  cat "$OUT/examples.log"
fi
if [[ " $phases " == *" tune "* ]]; then
  step "tuner on saxpy (64 M floats): calibrate, pruned and exhaustive"
  tuner=$build/examples/saxpy/saxpy_example_tune
  {
    $build/calibrate/overlap-calibrate --output "$OUT/profile.json" ||
      $build/calibrate/overlap-calibrate --force --output "$OUT/profile.json"
    TIMEFORMAT="pruned tuning: %R s wall"
    time $tuner --profile "$OUT/profile.json" --no-cache --output-dir "$OUT/tune-pruned"
    TIMEFORMAT="exhaustive tuning: %R s wall"
    time $tuner --profile "$OUT/profile.json" --no-cache --exhaustive \
      --output-dir "$OUT/tune-exhaustive"
  } >"$OUT/tune.log" 2>&1
  rc=$?; record tune $rc
  tail -40 "$OUT/tune.log"
fi
if [[ " $phases " == *" outofcore "* ]]; then
  step "out of core: saxpy, sepia, buoydiff at 4x the device-memory budget (issue 22)"
  $build/bench/bench_out_of_core --budget "${OUTOFCORE_BUDGET:-1GiB}" --output "$OUT" \
    >"$OUT/outofcore.log" 2>&1
  rc=$?; record outofcore $rc
  cat "$OUT/outofcore.log"
  cp "$OUT"/outofcore.md "$OUT"/outofcore.json "$final_out/" 2>/dev/null
fi
cat "$OUT/summary.txt"
cp "$OUT/summary.txt" "$final_out/"
tar -czf "$final_out/gpu-check.tar.gz" -C "$(dirname "$OUT")" gpu-check
exit $status
