#!/usr/bin/env bash
# The papers' applications as a benchmark (issue 6, bench/README.md).
#
#   scripts/pregenerate.sh .gpu-carry/generated   # here (Clang), before the device call
#   OUT=... scripts/bench.sh run                  # on the GPU machine: build, test, tune, summarize
#                                                 # (BENCH_EXHAUSTIVE_AGAIN=1: exhaustive twice)
#   scripts/bench.sh summarize RAW_DIR PREFIX     # anywhere: RAW_DIR's reports -> PREFIX.{md,json}
#   OUT=... scripts/bench.sh corpus [PART]         # on the GPU: the tests/corpus kernels, tuned pruned
#                                                 # and --exhaustive at their tune() sizes (PART 1 or
#                                                 # 2 of 2: half the kernels, for calls of 10 min)
#   OUT=... scripts/bench.sh pageable [NAME...]   # on the GPU: issue 25, each application (default:
#                                                 # all) with pageable arrays (staged, cached, registered per
#                                                 # call, Explicit) against pinned; small saxpy calls
#   OUT=... scripts/bench.sh corpus-pageable [PART] # on the GPU: issue 25, the corpus kernels tuned
#                                                 # on pinned and on pageable memory
#   OUT=... scripts/bench.sh registered [NAME...] # on the GPU: issue 25, applications tuned
#                                                 # --exhaustive on pinned and on registered
#                                                 # memory: does the pinned winner hold there
#   OUT=... scripts/bench.sh outofcore [BUDGET]   # on the GPU: issue 22, saxpy, sepia and buoydiff
#                                                 # with arrays 4x the budget (default 1GiB), out
#                                                 # of core against full buffers and the link
#   OUT=... scripts/bench.sh multigpu [TRAFFIC]   # on a multi-GPU kind: issue 24, saxpy, sepia,
#                                                 # pop-state, buoydiff (default 4GiB a call) on
#                                                 # one GPU and split across all
#   OUT=... scripts/bench.sh frameloop [FRAMES]   # on the GPU: issue 23, the frame loop example
#                                                 # (sync against async calls, per variant)
#   OUT=... scripts/bench.sh asyncloop            # on the GPU: issue 23, loops of 100 calls of
#                                                 # saxpy, sepia, buoydiff: sync, async, graph
#   OUT=... scripts/bench.sh graphs               # on the GPU: issue 23, the 14 applications'
#                                                 # Streams and Hybrid (4, 16 streams) against
#                                                 # their graph forms: issue and wall time
#   OUT=... scripts/bench.sh trace APP [--detail "Streams 6 depth"]   # on the GPU: APP's runs,
#                                                 # operation by operation (bench/trace)
#                                                 # (OVERLAP_MODEL_CLI=path/overlap-model: + paper 000's estimate)
#   OUT=... scripts/bench.sh sizes [NAME...]      # on the GPU (one device call, build included):
#                                                 # the dispatch's overhead, then K_tuned across
#                                                 # call sizes for the SIZES_KERNELS (issue 19)
#
# `run` builds the benchmark's tuner, checks every variant of every application against its CPU
# reference (bench_apps_gpu_tests), then tunes each application and size twice, pruned and
# --exhaustive, with the profile of this GPU. Everything comes back as $OUT/bench.tar.gz (the raw
# reports) with the summary beside it when python3 is there.
set -uo pipefail
cd "$(dirname "$0")/.."

# app | kernel | --arg list (space separated NAME=VALUE)
APPS=(
  "scalar-add-1|scalar_add|n=33554432 iterations=1"
  "scalar-add-256|scalar_add|n=33554432 iterations=256"
  "scalar-add-4096|scalar_add|n=33554432 iterations=4096"
  "histogram-176x144|frame_histogram|frames=64 pixels=25344"
  "histogram-352x288|frame_histogram|frames=64 pixels=101376"
  "histogram-704x576|frame_histogram|frames=64 pixels=405504"
  "gray-histogram-176x144|gray_histogram|frames=32 pixels=25344"
  "gray-histogram-352x288|gray_histogram|frames=32 pixels=101376"
  "gray-histogram-704x576|gray_histogram|frames=32 pixels=405504"
  "pop-state|pop_state|levels=42 plane=1048576"
  "pop-buoydiff|buoydiff|levels=42 plane=1048576"
  "sepia-8k|sepia|pixels=33554432"
  "saxpy-64M|saxpy|n=67108864"
  "matmul-4096|matmul|m=4096 n=1024 k=1024"
)

# The benchmark's build, shared by `run` and `trace` so a trace reuses a run's objects.
BENCH_BUILD=build-bench

# build_targets BUILD_DIR LOG_DIR TARGET...: configured for the lent Hopper GPUs with the
# generated sources that came along (scripts/pregenerate.sh), since the GPU machine has no Clang.
build_targets() {
  local build=$1 logs=$2
  shift 2
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90 \
    -DOVERLAP_PREGENERATED_DIR="$PWD/.gpu-carry/generated" >"$logs/configure.log" 2>&1 &&
    cmake --build "$build" -j "$(nproc)" --target "$@" >"$logs/build.log" 2>&1 || {
    tail -40 "$logs/configure.log" "$logs/build.log"
    return 1
  }
}

# build_or_pack TARGET...: build_targets into the caller's $raw, running the caller's ${pack[@]}
# (what comes back from the device) when the build fails.
build_or_pack() {
  echo "== build"
  build_targets $BENCH_BUILD "$raw" "$@" || {
    "${pack[@]}"
    return 1
  }
}

# The --kernel and --arg flags of application NAME, in the array app_flags.
application_flags() {
  local entry name kernel args
  app_flags=()
  for entry in "${APPS[@]}"; do
    IFS='|' read -r name kernel args <<<"$entry"
    [ "$name" = "$1" ] || continue
    app_flags=(--kernel "$kernel")
    for a in $args; do app_flags+=(--arg "$a"); done
    return 0
  done
  echo "bench.sh: no application $1 (they are: ${APPS[*]%%|*})" >&2
  return 1
}

# trace NAME [timeline.py flags]: NAME's every candidate (--exhaustive) run once more under the
# CUPTI tracer (bench/trace), and timeline.py's tables of what each kind of run did on the GPU.
# Writes $OUT/NAME.trace.csv.gz, NAME.timeline.md and the tuner's report under $OUT/NAME/.
trace_application() {
  local name=${1:?application}
  shift
  local out=${OUT:-$PWD/out}
  mkdir -p "$out"
  application_flags "$name" || return 1
  build_targets $BENCH_BUILD "$out" bench_apps_gpu_tests_tune overlap-cupti-trace || return 1
  local tracer
  tracer=$(find $BENCH_BUILD -name 'liboverlap-cupti-trace.so' | head -1)
  echo "== $name under the tracer"
  # One process (--no-supervise), so that one trace holds every run.
  OVERLAP_TRACE_FILE="$out/$name.trace.csv" CUDA_INJECTION64_PATH=$PWD/$tracer \
    $BENCH_BUILD/bench/bench_apps_gpu_tests_tune "${app_flags[@]}" --exhaustive --no-cache \
    --no-supervise --quiet ${BENCH_PROFILE:+--profile "$BENCH_PROFILE"} --output-dir "$out/$name" \
    >"$out/$name.tune.log" 2>&1
  echo "tuner: rc $?"
  tail -3 "$out/$name.tune.log"
  python3 bench/trace/timeline.py "$out/$name.trace.csv" "$@" >"$out/$name.timeline.md"
  echo "timeline.py: rc $?"
  gzip -f "$out/$name.trace.csv"
}

# tune_twice RAW NAME TUNER FLAGS...: TUNER's pruned and --exhaustive runs into RAW/NAME/{pruned,
# exhaustive}, with their logs and times in RAW/summary.txt. BENCH_EXHAUSTIVE_AGAIN=1 adds a second
# --exhaustive run (RAW/NAME/exhaustive-again): whether two exhaustive tunings agree (issue 21).
tune_twice() {
  local raw=$1 name=$2 mode modes=(pruned exhaustive)
  shift 2
  [ "${BENCH_EXHAUSTIVE_AGAIN:-0}" = 1 ] && modes+=(exhaustive-again)
  mkdir -p "$raw/$name"
  for mode in "${modes[@]}"; do
    local extra=() start=$SECONDS rc
    [ $mode != pruned ] && extra=(--exhaustive)
    "$@" --no-cache --quiet "${extra[@]}" --output-dir "$raw/$name/$mode" \
      >"$raw/$name/$mode.log" 2>&1 </dev/null
    rc=$?
    echo "$name $mode: rc $rc, $((SECONDS - start)) s" | tee -a "$raw/summary.txt"
  done
}

# start_reports NAME: a device call's folders, in the caller's locals final_out and raw: $OUT
# (made; ./out when unset) where what comes back goes, and a fresh $raw (a folder NAME in a new
# temporary one) for the raw reports, with the GPU's description in $raw/device.txt.
start_reports() {
  final_out=${OUT:-$PWD/out}
  mkdir -p "$final_out"
  raw=$(mktemp -d)/$1
  mkdir -p "$raw"
  nvidia-smi --query-gpu=name,driver_version,pcie.link.gen.max,pcie.link.width.max --format=csv \
    >"$raw/device.txt" 2>&1
}

run_benchmark() {
  local final_out raw
  start_reports bench
  local build=$BENCH_BUILD
  # It decides the order the copy engine serves streams in (docs/model.md, the traces of session 6).
  echo "CUDA_DEVICE_MAX_CONNECTIONS=${CUDA_DEVICE_MAX_CONNECTIONS:-unset: the driver default, 8}" >>"$raw/device.txt"
  cat "$raw/device.txt"
  echo "== build"
  build_targets "$build" "$raw" bench_apps_gpu_tests bench_apps_gpu_tests_tune overlap-model \
    overlap-calibrate || {
    tar -czf "$final_out/bench.tar.gz" -C "$(dirname "$raw")" bench
    return 1
  }
  echo "== every variant of every application against its CPU reference"
  $build/bench/bench_apps_gpu_tests --gtest_brief=1 >"$raw/apps-test.log" 2>&1
  echo "bench_apps_gpu_tests: rc $?" | tee -a "$raw/summary.txt"
  tail -3 "$raw/apps-test.log"

  # The profile of this GPU, measured in this same call (BENCH_PROFILE=calibrate, the default), so
  # the model is judged on the machine it describes; the fits the tool judges poor are named in
  # calibrate.log, and the profile is written anyway (--force) since the benchmark shows what the
  # model makes of it. BENCH_PROFILE=<file or name> takes a given profile instead.
  local profile=()
  if [ "${BENCH_PROFILE:-calibrate}" = calibrate ]; then
    echo "== calibrate"
    $build/calibrate/overlap-calibrate --force --output "$raw/profile.json" \
      >"$raw/calibrate.log" 2>&1
    echo "overlap-calibrate: rc $?" | tee -a "$raw/summary.txt"
    tail -12 "$raw/calibrate.log"
    [ -f "$raw/profile.json" ] && profile=(--profile "$raw/profile.json")
  else
    profile=(--profile "$BENCH_PROFILE")
  fi
  echo "profile: ${profile[*]:-the tuner chooses}" | tee -a "$raw/summary.txt"
  local entry name mode app_flags
  for entry in "${APPS[@]}"; do
    name=${entry%%|*}
    application_flags "$name"
    tune_twice "$raw" "$name" $build/bench/bench_apps_gpu_tests_tune "${app_flags[@]}" \
      "${profile[@]}"
    # Packed after every application: a run cut short by the time limit still brings back its part.
    tar -czf "$final_out/bench.tar.gz" -C "$(dirname "$raw")" bench
  done
  if command -v python3 >/dev/null; then
    OVERLAP_MODEL_CLI=$build/tuner/overlap-model summarize "$raw" "$raw/summary" && cp "$raw/summary.md" "$raw/summary.json" "$final_out/"
  fi
  cp "$raw/summary.txt" "$final_out/"
  tar -czf "$final_out/bench.tar.gz" -C "$(dirname "$raw")" bench
}

# The corpus kernels whose random inputs are invalid (indices that must stay in range): the
# tuner fills arrays at random, so they are checked by the corpus tests, not tuned here.
CORPUS_UNTUNABLE="findK spmv_kernel pnpoly_multi gpt2::encoder_forward_kernel3 at::native::index_select_float_int64 at::native::index_select_double_int32"

# The corpus groups' tuners (one per folder of tests/corpus).
CORPUS_TUNERS=()
for corpus_group in blog_style community_style framework_style kerneltuner_style multigpu_style \
                    rodinia_style samples_style; do
  CORPUS_TUNERS+=("overlap_corpus_${corpus_group}_gpu_tests_tune")
done

# corpus_kernels [PART]: "TUNER KERNEL" per tunable corpus kernel (every other one for PART 1 or
# 2, so that two device calls share the work); the untunable ones noted in $raw/summary.txt.
corpus_kernels() {
  local index=0 target tuner kernel
  for target in "${CORPUS_TUNERS[@]}"; do
    tuner=$BENCH_BUILD/tests/corpus/$target
    for kernel in $($tuner --list | cut -d' ' -f1); do
      index=$((index + 1))
      [ -n "${1:-}" ] && [ $(((index + ${1}) % 2)) != 0 ] && continue
      if [[ " $CORPUS_UNTUNABLE " == *" $kernel "* ]]; then
        echo "$kernel: not tuned (needs valid indices)" >>"$raw/summary.txt"
        continue
      fi
      echo "$tuner $kernel"
    done
  done
}

# corpus [PART]: every corpus kernel (tests/corpus), tuned pruned and --exhaustive at its tune()
# defaults with the profile given (BENCH_PROFILE, default the embedded one of this device), into
# $OUT/corpus.tar.gz; PART 1 or 2 takes every other kernel.
run_corpus() {
  local final_out raw
  start_reports corpus
  echo "== build"
  build_targets $BENCH_BUILD "$raw" "${CORPUS_TUNERS[@]}" || return 1
  local profile=()
  [ -n "${BENCH_PROFILE:-}" ] && profile=(--profile "$BENCH_PROFILE")
  local tuner kernel
  while read -r tuner kernel; do
    tune_twice "$raw" "${kernel//::/__}" $tuner --kernel "$kernel" "${profile[@]}"
    tar -czf "$final_out/corpus${1:-}.tar.gz" -C "$(dirname "$raw")" corpus
  done < <(corpus_kernels "${1:-}")
  cp "$raw/summary.txt" "$final_out/corpus${1:-}-summary.txt"
  tar -czf "$final_out/corpus${1:-}.tar.gz" -C "$(dirname "$raw")" corpus
}

# corpus-pageable [PART]: issue 25 on the corpus kernels: each tuned (pruned) on pinned and then on
# pageable arrays in one tuner process, and bench/pageable/summarize_memory.py's table of each way
# of handling pageable arrays against the pinned winner, into $OUT/corpus-pageable${PART}.*. No
# kernel is started after BENCH_DEADLINE_S seconds (default 480) of tuning.
run_corpus_pageable() {
  local final_out raw
  start_reports corpus-pageable
  cat "$raw/device.txt"
  local pack=(tar -czf "$final_out/corpus-pageable${1:-}.tar.gz" -C "$(dirname "$raw")"
              corpus-pageable)
  build_or_pack "${CORPUS_TUNERS[@]}" || return 1
  local tuner kernel name names=() start=$SECONDS
  while read -r tuner kernel; do
    if [ $((SECONDS - start)) -ge "${BENCH_DEADLINE_S:-480}" ]; then
      echo "$kernel: not started (${BENCH_DEADLINE_S:-480} s of tuning spent)" |
        tee -a "$raw/summary.txt"
      continue
    fi
    name=${kernel//::/__}
    names+=("$name")
    echo "== $name ($((SECONDS - start)) s in)"
    timeout 240 $tuner --kernel "$kernel" --no-cache --quiet --memory "pinned,${BENCH_MEMORY:-pageable}" \
      --output-dir "$raw/$name" >"$raw/$name.tune.log" 2>&1 </dev/null
    echo "$name: rc $?" | tee -a "$raw/summary.txt"
    "${pack[@]}" # a run cut short by the time limit still brings back its part
  done < <(corpus_kernels "${1:-}")
  local list
  list=$(IFS=,; echo "${names[*]}")
  python3 bench/pageable/summarize_memory.py "$raw" "$raw/summary-corpus-pageable${1:-}" \
    --memory "${BENCH_MEMORY:-pageable}" --apps "$list" \
    --title "The corpus kernels on pinned and ${BENCH_MEMORY:-pageable} memory on $(head -2 "$raw/device.txt" | tail -1 | cut -d, -f1), $(date -u +%F)" \
    --command "OUT=... ${BENCH_MEMORY:+BENCH_MEMORY=$BENCH_MEMORY }scripts/bench.sh corpus-pageable ${1:-}" &&
    cp "$raw"/summary-corpus-pageable*.{md,json} "$final_out/"
  "${pack[@]}"
  echo "== done in $((SECONDS - start)) s after the build"
}

# What issue 19 measures, per kernel: name | kernel | swept argument | the other arguments.
# Traffic is what Explicit moves (inputs in, outputs out); calls run from about 1 KB to 1 GB of it
# where the kernel's shape allows: matmul's B (n x k) and a histogram frame set the smallest call.
SIZES_KERNELS=(
  "saxpy|saxpy|n|"
  "matmul|matmul|m|n=32 k=32"
  "histogram|frame_histogram|frames|pixels=1024"
  "vector-add|vectorAdd|numElements|"
  "sepia|rgba_to_sepia|numPixels|"
)
# The sweep each kernel is tuned over (bytes of traffic; log-spaced, then bisected), and the call
# sizes it is measured at: 20, between and beyond the tuned ones.
SIZES_SWEEP_TRAFFIC=16384..268435456
SIZES_SWEEP="6"
SIZES_REFINE=8
SIZES_CALL_TRAFFIC=1100..1073741824:20
# Seconds of the device call after which no further kernel is started (the call has 600 s).
SIZES_BUDGET=${SIZES_BUDGET:-480}

# sizes: builds the size benchmark (bench/sizes) and the dispatch benchmark (bench/dispatch),
# runs the latter, then per kernel of SIZES_KERNELS: tunes a sweep into a results file, bakes it
# with overlap-bake (the table K_tuned would be built with), tunes once at the annotation's tune()
# size (the size-blind choice of before), and measures K_tuned, the best of Explicit, Mapped and a
# grid of Streams and Hybrid configurations, and the size-blind choice at 20 call sizes. Writes
# $OUT/sizes-summary.{md,json} (geometric mean and worst ratio to the best, issue 19's targets),
# $OUT/dispatch.txt and the raw data as $OUT/sizes.tar.gz, packed after every kernel. With NAMEs
# (of SIZES_KERNELS), those kernels only.
run_sizes() {
  local final_out raw start=$SECONDS
  start_reports sizes
  cat "$raw/device.txt"
  echo "== build ($((SECONDS - start)) s)"
  build_targets $BENCH_BUILD "$raw" overlap_size_bench overlap_dispatch_bench overlap-bake || {
    tar -czf "$final_out/sizes.tar.gz" -C "$(dirname "$raw")" sizes
    return 1
  }
  local bench=$BENCH_BUILD/bench/overlap_size_bench bake=$BENCH_BUILD/tuner/tune/overlap-bake
  echo "== the dispatch's overhead ($((SECONDS - start)) s)"
  $BENCH_BUILD/bench/overlap_dispatch_bench >"$raw/dispatch.txt" 2>&1
  echo "overlap_dispatch_bench: rc $?" | tee -a "$raw/summary.txt"
  cat "$raw/dispatch.txt"
  cp "$raw/dispatch.txt" "$final_out/"
  local profile=()
  [ -n "${BENCH_PROFILE:-}" ] && profile=(--profile "$BENCH_PROFILE")
  local entry name kernel param fixed
  for entry in "${SIZES_KERNELS[@]}"; do
    IFS='|' read -r name kernel param fixed <<<"$entry"
    # Named kernels only, when any are named (a call's 600 s hold about three).
    [ $# -eq 0 ] || [[ " $* " == *" $name "* ]] || continue
    if [ $((SECONDS - start)) -gt "$SIZES_BUDGET" ]; then
      echo "$name: not measured, the time budget ($SIZES_BUDGET s) is spent" | tee -a "$raw/summary.txt"
      continue
    fi
    local dir=$raw/$name args=(--kernel "$kernel") a
    mkdir -p "$dir"
    for a in $fixed; do args+=(--arg "$a"); done
    echo "== $name ($((SECONDS - start)) s)"
    local ends sweep values rc
    ends=$($bench values "${args[@]}" --param "$param" --traffic "$SIZES_SWEEP_TRAFFIC:2")
    sweep="$param=${ends/,/..}:$SIZES_SWEEP"
    $bench "${args[@]}" "${profile[@]}" --sweep "$sweep" --refine $SIZES_REFINE \
      --repeats 3:10 --results-file "$dir/results.json" --output-dir "$dir/sweep" \
      --cache-dir "$raw/cache" --quiet >"$dir/sweep.log" 2>&1
    rc=$?
    echo "$name: sweep $sweep: rc $rc, $((SECONDS - start)) s" | tee -a "$raw/summary.txt"
    sed -n '/the winner against/,$p' "$dir/sweep.log"
    $bake --results "$dir/results.json" --output "$dir/overlap_tuning_results.cpp" \
      --origin "scripts/bench.sh sizes" >"$dir/bake.log" 2>&1
    echo "$name: overlap-bake: rc $?" | tee -a "$raw/summary.txt"
    $bench "${args[@]}" "${profile[@]}" --repeats 3:10 --results-file "$dir/size-blind.json" \
      --output-dir "$dir/size-blind" --cache-dir "$raw/cache" --quiet >"$dir/size-blind.log" 2>&1
    echo "$name: one size (the size-blind choice): rc $?" | tee -a "$raw/summary.txt"
    values=$($bench values "${args[@]}" --param "$param" --traffic "$SIZES_CALL_TRAFFIC")
    echo "$name: $param = $values" >>"$raw/summary.txt"
    $bench measure "${args[@]}" --param "$param" --values "$values" \
      --results "$dir/results.json" --old-results "$dir/size-blind.json" \
      --output "$dir/measure.json" 2>&1 | tee "$dir/measure.log"
    echo "$name: measured: rc ${PIPESTATUS[0]}, $((SECONDS - start)) s" | tee -a "$raw/summary.txt"
    # The summary of every kernel measured so far, and the raw data: a call cut short by the time
    # limit still brings back what it finished.
    $bench summarize --output-prefix "$raw/sizes-summary" \
      --title "K_tuned across call sizes ($(head -2 "$raw/device.txt" | tail -1 | cut -d, -f1), $(date -u +%F))" \
      "$raw"/*/measure.json && cp "$raw/sizes-summary.md" "$raw/sizes-summary.json" "$final_out/"
    cp "$raw/summary.txt" "$final_out/sizes-log.txt"
    tar -czf "$final_out/sizes.tar.gz" -C "$(dirname "$raw")" sizes
  done
  echo "== done in $((SECONDS - start)) s"
}

# pageable [NAME...]: issue 25's benchmark (bench/pageable/PageableBench.cpp). Each application
# (default: every one of APPS, saxpy-64M among them) with pageable arrays: a one-off call staged
# against the fastest pinned configuration, a loop of 100 calls with the registration cache
# against the pinned loop, each against pageable Explicit and per-call registration, and the
# host's copies of its bytes alone (what bounds a staged call); then saxpy's calls of 2 KiB ..
# 1 MiB. First, how fast arrays cross the link by where they start (bench_host_alignment).
# $raw/host-alignment.{txt,json}
# Results are checked against pinned Explicit's. $OUT/pageable-summary.{md,json}
# (bench/pageable/summarize_pageable.py) and the raw reports in $OUT/pageable.tar.gz. One device
# call of 10 minutes: the build takes 2-4 of them on 16 cores, each application 5-30 s.
run_pageable() {
  local final_out raw
  start_reports pageable
  {
    # Staging copies through host memory: its speed is the host's.
    lscpu | grep -E '^(Model name|Socket|Core|Thread|NUMA node\(s\))' || true
    free -g | head -2
    echo "OVERLAP_PIN_CACHE=${OVERLAP_PIN_CACHE:-unset}"
  } >>"$raw/device.txt" 2>&1
  cat "$raw/device.txt"
  local pack=(tar -czf "$final_out/pageable.tar.gz" -C "$(dirname "$raw")" pageable)
  build_or_pack bench_pageable bench_host_alignment || return 1
  local bench=$BENCH_BUILD/bench/bench_pageable start=$SECONDS
  echo "== where host arrays start (bench_host_alignment)"
  timeout 120 $BENCH_BUILD/bench/bench_host_alignment 128 9 --json "$raw/host-alignment.json" 2>&1 |
    tee "$raw/host-alignment.txt"
  echo "== small calls (saxpy, 2 KiB .. 1 MiB)"
  timeout 120 "$bench" --small --output "$raw/small.json" 2>&1 | tee -a "$raw/bench.log"
  local name names=("$@")
  [ ${#names[@]} -eq 0 ] && names=("${APPS[@]%%|*}")
  for name in "${names[@]}"; do
    application_flags "$name" || continue
    echo "== $name ($((SECONDS - start)) s in)"
    timeout 120 "$bench" "${app_flags[@]}" --name "$name" --output "$raw/$name.json" 2>&1 |
      tee -a "$raw/bench.log"
    echo "$name: rc ${PIPESTATUS[0]}" >>"$raw/summary.txt"
    "${pack[@]}" # a run cut short by the time limit still brings back its part
  done
  local app_list
  app_list=$(IFS=,; echo "${names[*]}")
  python3 bench/pageable/summarize_pageable.py "$raw" "$raw/pageable-summary" --apps "$app_list" \
    --title "Pageable memory on $(head -2 "$raw/device.txt" | tail -1 | cut -d, -f1), $(date -u +%F)" \
    --command "OUT=... scripts/bench.sh pageable" &&
    cp "$raw/pageable-summary.md" "$raw/pageable-summary.json" "$final_out/"
  "${pack[@]}"
  echo "== done in $((SECONDS - start)) s after the build"
}

# registered [NAME...]: each application (default: all) tuned --exhaustive on pinned and then on
# registered memory in one tuner process, and bench/pageable/summarize_memory.py's table of
# how each memory's winner does on registered pages.
run_registered() {
  local final_out raw
  start_reports registered
  cat "$raw/device.txt"
  local pack=(tar -czf "$final_out/registered.tar.gz" -C "$(dirname "$raw")" registered)
  build_or_pack bench_apps_gpu_tests_tune || return 1
  local names=("$@") name start=$SECONDS
  [ ${#names[@]} -eq 0 ] && names=("${APPS[@]%%|*}")
  for name in "${names[@]}"; do
    application_flags "$name" || continue
    echo "== $name ($((SECONDS - start)) s in)"
    timeout 300 $BENCH_BUILD/bench/bench_apps_gpu_tests_tune "${app_flags[@]}" --exhaustive \
      --no-cache --quiet --memory pinned,registered --output-dir "$raw/$name" \
      >"$raw/$name.tune.log" 2>&1
    echo "$name: rc $?" | tee -a "$raw/summary.txt"
    "${pack[@]}" # a run cut short by the time limit still brings back its part
  done
  local app_list
  app_list=$(IFS=,; echo "${names[*]}")
  python3 bench/pageable/summarize_memory.py "$raw" "$raw/registered-summary" \
    --apps "$app_list" \
    --title "Pinned and registered memory on $(head -2 "$raw/device.txt" | tail -1 | cut -d, -f1), $(date -u +%F)" \
    --command "OUT=... scripts/bench.sh registered ${*:-}" &&
    cp "$raw/registered-summary.md" "$raw/registered-summary.json" "$final_out/"
  "${pack[@]}"
  echo "== done in $((SECONDS - start)) s after the build"
}

# RAW_DIR/<app>/{pruned,exhaustive}/<kernel>.tuning.json -> PREFIX.md and PREFIX.json, the
# applications in the order of APPS (bench/summarize.py; its definitions are in bench/README.md).
# OVERLAP_MODEL_CLI=<overlap-model> adds paper 000's closed-form stream count, which the reports
# lack.
summarize() {
  local names=() entry
  for entry in "${APPS[@]}"; do names+=("${entry%%|*}"); done
  local app_list model=()
  app_list=$(IFS=,; echo "${names[*]}")
  [ -x "${OVERLAP_MODEL_CLI:-}" ] && model=(--model-cli "$OVERLAP_MODEL_CLI")
  python3 bench/summarize.py "$1" "$2" --apps "$app_list" "${model[@]}" \
    --command "${OVERLAP_MODEL_CLI:+OVERLAP_MODEL_CLI=$OVERLAP_MODEL_CLI }scripts/bench.sh summarize $1 $2"
}

case "${1:-}" in
run) run_benchmark ;;
pageable)
  shift
  run_pageable "$@"
  ;;
outofcore)
  mkdir -p "${OUT:?set OUT}"
  build_targets $BENCH_BUILD "$OUT" bench_out_of_core &&
    $BENCH_BUILD/bench/bench_out_of_core --budget "${2:-1GiB}" --output "$OUT"
  ;;
multigpu)
  mkdir -p "${OUT:?set OUT}"
  build_targets $BENCH_BUILD "$OUT" bench_multi_gpu &&
    $BENCH_BUILD/bench/bench_multi_gpu --traffic "${2:-4GiB}" --output "$OUT"
  ;;
frameloop)
  mkdir -p "${OUT:?set OUT}"
  build_targets $BENCH_BUILD "$OUT" frameloop_example || exit 1
  for variant in explicit mapped hybrid:1 streams:1 graph-hybrid:1 graph-streams:1; do
    for in_flight in 2 8; do
      echo "== OVERLAP_VARIANT=$variant, $in_flight frames in flight"
      OVERLAP_VARIANT=$variant timeout 120 $BENCH_BUILD/examples/frameloop/frameloop_example \
        --in-flight $in_flight --json "$OUT/frameloop-${variant/:/}-$in_flight.json" "${2:-1000}"
    done
  done
  ;;
asyncloop)
  mkdir -p "${OUT:?set OUT}"
  build_targets $BENCH_BUILD "$OUT" bench_async_loop &&
    timeout 300 $BENCH_BUILD/bench/bench_async_loop --output "$OUT"
  ;;
graphs)
  mkdir -p "${OUT:?set OUT}"
  app_args=()
  for entry in "${APPS[@]}"; do app_args+=(--app "$entry"); done
  build_targets $BENCH_BUILD "$OUT" bench_graph_apps &&
    timeout 540 $BENCH_BUILD/bench/bench_graph_apps --output "$OUT" "${app_args[@]}"
  ;;
sizes)
  shift
  run_sizes "$@"
  ;;
corpus) run_corpus "${2:-}" ;;
corpus-pageable) run_corpus_pageable "${2:-}" ;;
registered)
  shift
  run_registered "$@"
  ;;
summarize) summarize "${2:?raw dir}" "${3:?output prefix}" ;;
trace)
  shift
  trace_application "$@"
  ;;
*)
  echo "usage: $0 run | pageable [NAME...] | registered [NAME...] | outofcore [BUDGET] | multigpu [TRAFFIC] | frameloop [FRAMES] | asyncloop | graphs | corpus [PART] | corpus-pageable [PART] | sizes [NAME...] | summarize RAW_DIR OUTPUT_PREFIX | trace APPLICATION [flags]" >&2
  exit 2
  ;;
esac
