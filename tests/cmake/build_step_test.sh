#!/usr/bin/env bash
# Installs this build, then builds examples/saxpy as a user's project against the installed
# package from a clean build dir, and checks that the generation step re-runs exactly when its
# inputs change (the annotated file, a header it includes, the generator) and never otherwise, and
# that a bad annotation fails the build with a located error and leaves no generated file.
set -euo pipefail
build=$1 source=$2 nvcc=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$work/prefix" >/dev/null
mkdir -p "$work/src"
cp -r "$source/examples/saxpy" "$source/examples/common" "$work/src/"
project=$work/src/saxpy
generated=$work/b/overlap_generated/saxpy_example

configure() {
  cmake -S "$project" -B "$work/b" -G Ninja -DOverlap_DIR="$work/prefix/lib/cmake/Overlap" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=75 >"$work/configure.log" ||
    { cat "$work/configure.log"; fail "configure"; }
}
build() { ninja -C "$work/b" >"$work/build.log" 2>&1; }
generated_again() { grep -q "Overlap: generating host code for saxpy.cu" "$work/build.log"; }

echo "== clean build"
configure
build || { cat "$work/build.log"; fail "first build"; }
generated_again || fail "the first build did not run the generator"
grep -q "baking the tuning results of saxpy_example" "$work/build.log" ||
  fail "the installed overlap-bake did not bake the (empty) table"
[ -f "$generated/saxpy.overlap.h" ] && [ -f "$generated/saxpy.overlap.cu" ] ||
  fail "no generated files in $generated"
grep -q "saxpy_streams" "$generated/saxpy.overlap.h" || fail "header declares no saxpy_streams"
"$work/b/saxpy_example" 1000 >"$work/run.log" || { cat "$work/run.log"; fail "example run"; }

echo "== nothing changed: nothing runs"
build
grep -q "no work to do" "$work/build.log" || { cat "$work/build.log"; fail "second build did work"; }

echo "== main.cpp changed: no regeneration"
touch "$project/main.cpp"
build
generated_again && fail "touching main.cpp re-ran the generator"

echo "== the annotated file changed: regeneration"
touch "$project/saxpy.cu"
build
generated_again || fail "touching saxpy.cu did not re-run the generator"

echo "== a header it includes changed: regeneration (DEPFILE)"
echo '#define SAXPY_BLOCK 256' >"$project/saxpy_config.h"
sed -i 's|#include <overlap/annotate.h>|#include <overlap/annotate.h>\n#include "saxpy_config.h"|' "$project/saxpy.cu"
build || { cat "$work/build.log"; fail "build with saxpy_config.h"; }
build
generated_again && fail "an unchanged tree re-ran the generator"
touch "$project/saxpy_config.h"
build
generated_again || fail "touching an included header did not re-run the generator"

echo "== a prebuilt generator (OVERLAP_GENERATOR_EXECUTABLE) and pregenerated sources"
cp -r "$generated" "$work/pregenerated-saxpy"
for mode in "-DOVERLAP_GENERATOR_EXECUTABLE=$work/prefix/bin/overlap-gen" \
            "-DOVERLAP_PREGENERATED_DIR=$work/pregenerated"; do
  rm -rf "$work/pregenerated" "$work/b2"
  mkdir -p "$work/pregenerated" && cp -r "$work/pregenerated-saxpy" "$work/pregenerated/saxpy_example"
  cmake -S "$project" -B "$work/b2" -G Ninja -DOverlap_DIR="$work/prefix/lib/cmake/Overlap" \
    -DCMAKE_CUDA_COMPILER="$nvcc" -DCMAKE_CUDA_ARCHITECTURES=75 "$mode" >"$work/configure.log" ||
    { cat "$work/configure.log"; fail "configure with $mode"; }
  ninja -C "$work/b2" >"$work/build2.log" 2>&1 || { cat "$work/build2.log"; fail "build with $mode"; }
  case $mode in
  *PREGENERATED*) grep -q "using pregenerated host code for saxpy.cu" "$work/build2.log" ||
                    fail "pregenerated sources were not used" ;;
  *) grep -q "generating host code for saxpy.cu" "$work/build2.log" || fail "prebuilt generator did not run" ;;
  esac
done

echo "== a bad annotation: located error, non-zero exit, no generated file left"
sed -i 's/copyin(x\[lo:hi\])/copyinn(x[lo:hi])/' "$project/saxpy.cu"
if build; then fail "a bad annotation built"; fi
grep -E "saxpy.cu:[0-9]+:[0-9]+: error: .*copyinn" "$work/build.log" ||
  { cat "$work/build.log"; fail "no file:line:col error for the bad clause"; }
[ ! -e "$generated/saxpy.overlap.cu" ] || fail "a stale generated source survived the error"
echo "== overlap_tune() from the installed package: a tuning executable that runs (model-only here)"
sed -i 's/copyinn(x\[lo:hi\])/copyin(x[lo:hi])/' "$project/saxpy.cu"
configure
grep -q "tuner is not part of this Overlap installation" "$work/configure.log" &&
  fail "the installed package has no tuner"
ninja -C "$work/b" saxpy_example_tune >"$work/build.log" 2>&1 ||
  { cat "$work/build.log"; fail "build saxpy_example_tune"; }
"$work/b/saxpy_example_tune" --model-only --arg n=4096 --output-dir "$work/tuning" >"$work/tune.log" 2>&1 ||
  { cat "$work/tune.log"; fail "saxpy_example_tune --model-only"; }
grep -q '"schema": "overlap-tuning-report"' "$work/tuning/saxpy.tuning.json" ||
  fail "no tuning report from the installed tuner"
"$work/b/saxpy_example_tune" --model-only --sweep n=4096..1048576:3 --output-dir "$work/sweep" \
  >"$work/sweep.log" 2>&1 || { cat "$work/sweep.log"; fail "saxpy_example_tune --sweep --model-only"; }
grep -q '"schema": "overlap-sweep-report"' "$work/sweep/saxpy.sweep.json" ||
  { cat "$work/sweep.log"; fail "no sweep report from the installed tuner"; }
echo "PASS"
