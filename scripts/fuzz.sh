#!/usr/bin/env bash
# Builds the annotation fuzzer (fuzz/AnnotationFuzzer.cpp) with clang-19 and libFuzzer, ASan and
# UBSan, and runs it from the committed seed corpus.
#   scripts/fuzz.sh [runs] [build-dir] [extra libFuzzer flags...]
# runs: executions (default 1000000), or `build` to build the fuzzer and run nothing. New inputs go to <build-dir>/corpus, not to the committed
# seeds; a crash leaves its input in <build-dir>/ and a non-zero exit. Exit status 77 (ctest's
# skip) when clang-19 or its libFuzzer runtime (libclang-rt-19-dev) is missing.
set -euo pipefail
OVERLAP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
runs=${1:-1000000}
build=${2:-$OVERLAP_ROOT/build-fuzz}
shift $(($# > 2 ? 2 : $#))
CXX=${FUZZ_CXX:-clang++-19}

if ! command -v "$CXX" >/dev/null; then
  echo "fuzz.sh: skipped: $CXX not found (apt-get install clang-19 libclang-rt-19-dev)" >&2
  exit 77
fi
# A link probe rather than a path guess: where the runtime lives differs between packagings.
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
     "$CXX" -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "fuzz.sh: skipped: $CXX cannot link libFuzzer (apt-get install libclang-rt-19-dev)" >&2
  exit 77
fi
mkdir -p "$build/corpus"
build=$(cd "$build" && pwd)
binary=$build/annotation-fuzzer
sources=("$OVERLAP_ROOT"/generator/ir/*.cpp "$OVERLAP_ROOT"/generator/annotation/*.cpp
         "$OVERLAP_ROOT"/fuzz/AnnotationFuzzer.cpp)
# Rebuild only when a source or header changed since the last build.
if [ ! -x "$binary" ] || [ -n "$(find "$OVERLAP_ROOT/generator/ir" "$OVERLAP_ROOT/generator/annotation" \
     "$OVERLAP_ROOT/fuzz" "$OVERLAP_ROOT/tests/generator/SignatureBuilder.h" \
     "$OVERLAP_ROOT/runtime/include/overlap/KernelTypes.h" -newer "$binary" \
     -name '*.[ch]*' -print -quit)" ]; then
  echo "== building $binary"
  "$CXX" -std=c++17 -g -O1 -fno-omit-frame-pointer -Wno-deprecated-declarations \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -I"$OVERLAP_ROOT/generator" -I"$OVERLAP_ROOT/runtime/include" -I"$OVERLAP_ROOT/tests/generator" \
    "${sources[@]}" -o "$binary"
fi
[ "$runs" = build ] && exit 0
# The seeds (fuzz/seeds.txt) become one input file each: the signature's index as the first byte,
# then the text with its \n and \\ escapes undone (printf %b; the file escapes every backslash).
rm -rf "$build/seeds"
mkdir -p "$build/seeds"
count=0
while IFS= read -r line; do
  case $line in '' | '#'*) continue ;; esac
  count=$((count + 1))
  { printf "\\$(printf %03o "${line%% *}")"; printf '%b' "${line#* }"; } >"$build/seeds/seed-$count"
done <"$OVERLAP_ROOT/fuzz/seeds.txt"
echo "== fuzzing: $runs executions from $count seeds, the regression inputs and $build/corpus"
cd "$build"
# Every UBSan finding aborts so libFuzzer records it as a crash with its input.
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1:print_stacktrace=1}
exec "$binary" -runs="$runs" -timeout=10 -max_len=4096 -print_final_stats=1 \
  -artifact_prefix="$build/" "$@" "$build/corpus" "$build/seeds" "$OVERLAP_ROOT/fuzz/corpus"
