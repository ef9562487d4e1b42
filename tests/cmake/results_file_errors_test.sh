#!/usr/bin/env bash
# A corrupt or foreign tuning-results file given to overlap_add_kernels(TUNING_RESULTS) stops the
# configure with an error naming the file and the field, instead of a compile error in the baked
# table or a silently ignored entry; a good file (streams and order left out, as the tuner's reader
# allows) configures.
set -euo pipefail
source=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/project"
cat >"$work/project/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.24)
project(results_file_errors LANGUAGES CXX)
include($source/cmake/OverlapKernels.cmake)
add_executable(app main.cpp)
_overlap_bake_tuning_results(app "\${CMAKE_BINARY_DIR}/baked" "\${CMAKE_SOURCE_DIR}/results.json")
CMAKE
echo "int main() { return 0; }" >"$work/project/main.cpp"

entry='"kernel": "saxpy", "device": "GPU", "variant": "Streams", "streams": 4, "order": "depth-first"'
# expect <name> <expected message fragment> <results.json text>; an empty fragment means success.
expect() {
  printf '%s\n' "$3" >"$work/project/results.json"
  rm -rf "$work/b"
  if cmake -S "$work/project" -B "$work/b" >"$work/log" 2>&1; then
    [ -z "$2" ] || { cat "$work/log"; fail "$1: configured, expected '$2'"; }
  else
    [ -n "$2" ] || { cat "$work/log"; fail "$1: configure failed"; }
    # CMake wraps messages: compare with the line breaks and indentation folded away.
    message=$(tr -s ' \n' ' ' <"$work/log")
    [[ $message == *results.json* ]] || { cat "$work/log"; fail "$1: the file is not named"; }
    [[ $message == *"$2"* ]] || { cat "$work/log"; fail "$1: no '$2' in the error"; }
  fi
  echo "ok: $1"
}

expect good "" "{\"schema\": \"overlap-tuning-results\", \"entries\": [{$entry}]}"
expect defaults "" '{"schema": "overlap-tuning-results", "entries": [{"kernel": "k", "device": "d", "variant": "Mapped"}]}'
expect foreign "not a tuning-results file" '{"name": "h100-pcie5", "link": {}}'
expect truncated "not a tuning-results file" '{"schema": "overlap-tuning-results", "entries": [{'
expect no-entries "entries:" '{"schema": "overlap-tuning-results"}'
expect no-kernel "entries[0].kernel" '{"schema": "overlap-tuning-results", "entries": [{"device": "d", "variant": "Mapped"}]}'
expect bad-variant "entries[0].variant" "{\"schema\": \"overlap-tuning-results\", \"entries\": [{${entry/Streams/Fastest}}]}"
expect bad-streams "entries[0].streams" "{\"schema\": \"overlap-tuning-results\", \"entries\": [{${entry/\"streams\": 4/\"streams\": \"four\"}}]}"
expect zero-streams "entries[0].streams" "{\"schema\": \"overlap-tuning-results\", \"entries\": [{${entry/\"streams\": 4/\"streams\": 0}}]}"
expect bad-order "entries[0].order" "{\"schema\": \"overlap-tuning-results\", \"entries\": [{${entry/depth-first/sideways}}]}"
