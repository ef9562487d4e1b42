#!/usr/bin/env bash
# A corrupt, foreign or old tuning-results file given to overlap_add_kernels(TUNING_RESULTS) fails
# the build at its overlap-bake step with an error naming the file and the field, instead of a
# compile error in the baked table or a silently ignored entry; a good file (streams and order left
# out, as the reader allows) builds, and so does a file that does not exist yet, whose creation
# and every later change re-bake the table.
#
#   results_file_errors_test.sh SOURCE_DIR OVERLAP_BAKE CUDA_INCLUDE_DIR
set -euo pipefail
source=$1 bake=$2 cuda_include=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/project"
cat >"$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.24)
project(results_file_errors LANGUAGES CXX)
include($source/cmake/OverlapKernels.cmake)
add_executable(Overlap::overlap-bake IMPORTED)
set_target_properties(Overlap::overlap-bake PROPERTIES IMPORTED_LOCATION "$bake")
# Compiled, not linked: the table must compile against overlap/Dispatch.h.
add_library(app OBJECT main.cpp)
target_include_directories(app PRIVATE "$source/runtime/include" "$cuda_include")
_overlap_bake_tuning_results(app "\${CMAKE_BINARY_DIR}/baked" "\${CMAKE_SOURCE_DIR}/results.json")
CMAKE
echo "int main() { return 0; }" >"$work/project/main.cpp"
table=$work/b/baked/overlap_tuning_results.cpp

cmake -S "$work/project" -B "$work/b" -G Ninja >"$work/log" 2>&1 || { cat "$work/log"; fail "configure"; }
build() { cmake --build "$work/b" >"$work/log" 2>&1; }
baked() { grep -q "baking the tuning results of app" "$work/log"; }

echo "== no results file yet: an empty table"
build || { cat "$work/log"; fail "build without a results file"; }
grep -q "choices = nullptr" "$table" || fail "no empty table"

entry='"kernel": "saxpy", "device": "GPU", "memory": "pinned", "sizes": [{"extent": 4096, "variant": "Streams", "streams": 4, "order": "depth-first"}]'
file() { printf '{"schema": "overlap-tuning-results", "schema_version": 3, "entries": [%s]}\n' "$1"; }

echo "== the first tuning creates it: re-baked"
file "{$entry}" >"$work/project/results.json"
build || { cat "$work/log"; fail "build after the results file appeared"; }
baked || { cat "$work/log"; fail "the new results file was not baked"; }
grep -q '{4096LL, overlap::Variant::Streams, 4, overlap::IssueOrder::DepthFirst' "$table" ||
  { cat "$table"; fail "the table lacks the tuned size"; }

echo "== nothing changed: not re-baked"
build
baked && fail "an unchanged results file was baked again"

# expect <name> <expected message fragment> <results.json text>; an empty fragment means success.
expect() {
  printf '%s\n' "$3" >"$work/project/results.json"
  if build; then
    [ -z "$2" ] || { cat "$work/log"; fail "$1: built, expected '$2'"; }
    baked || { cat "$work/log"; fail "$1: a changed results file was not baked"; }
  else
    [ -n "$2" ] || { cat "$work/log"; fail "$1: the build failed"; }
    message=$(tr -s ' \n' ' ' <"$work/log")
    [[ $message == *"overlap-bake: $work/project/results.json: $2"* ]] ||
      { cat "$work/log"; fail "$1: no '<file>: $2' in the error"; }
  fi
  echo "ok: $1"
}

expect good "" "$(file "{$entry}")"
expect defaults "" "$(file '{"kernel": "k", "device": "d", "memory": "pinned", "sizes": [{"extent": 1, "variant": "Mapped"}]}')"
expect escaped "" "$(file '{"kernel": "k", "device": "GPU \"x\" \\ y", "memory": "pinned", "sizes": [{"extent": 1, "variant": "Mapped"}]}')"
expect foreign "not a tuning-results file" '{"name": "h100-pcie5", "link": {}}'
expect truncated "not JSON" '{"schema": "overlap-tuning-results", "entries": [{'
expect old-schema "schema_version: 1, this build reads versions 3 and 4" \
  '{"schema": "overlap-tuning-results", "schema_version": 1, "entries": [{"kernel": "k", "device": "d", "variant": "Mapped"}]}'
expect no-entries "entries: missing" '{"schema": "overlap-tuning-results", "schema_version": 3}'
expect no-kernel "entries[0].kernel: missing" "$(file '{"device": "d", "memory": "pinned", "sizes": [{"extent": 1, "variant": "Mapped"}]}')"
expect bad-variant "entries[0].sizes[0].variant: unknown variant" "$(file "{${entry/Streams/Fastest}}")"
expect bad-streams "entries[0].sizes[0].streams: has the wrong type" "$(file "{${entry/\"streams\": 4/\"streams\": \"four\"}}")"
expect zero-streams "entries[0].sizes[0].streams: Streams needs streams >= 1" "$(file "{${entry/\"streams\": 4/\"streams\": 0}}")"
expect bad-order "entries[0].sizes[0].order: unknown order" "$(file "{${entry/depth-first/sideways}}")"
expect bad-memory "entries[0].memory: \"shared\" is not \"pinned\", \"registered\", \"pageable\" or \"managed\"" "$(file "{${entry/\"pinned\"/\"shared\"}}")"
expect old-2 "schema_version: 2, this build reads versions 3 and 4" \
  '{"schema": "overlap-tuning-results", "schema_version": 2, "entries": []}'

