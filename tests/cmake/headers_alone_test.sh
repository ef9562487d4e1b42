#!/usr/bin/env bash
# Every generated header of this build compiles on its own in a host C++ file, with the host
# compiler and only Overlap's and CUDA's include directories: the promise that host code needs
# nothing but the header to call the generated functions.
set -euo pipefail
build=$1 source=$2 cxx=$3 cuda_include=$4
mapfile -t headers < <(find "$build" -path '*overlap_generated/*' -name '*.overlap.h' | sort)
[ ${#headers[@]} -gt 0 ] || { echo "FAIL: no generated headers under $build" >&2; exit 1; }
failed=0
for header in "${headers[@]}"; do
  if ! echo "#include \"$header\"" |
      "$cxx" -std=c++17 -fsyntax-only -Wall -Wextra -Werror -x c++ - \
        -I"$source/runtime/include" -I"$cuda_include" 2>"$build/header-check.log"; then
    echo "FAIL: $header does not compile alone:" >&2
    cat "$build/header-check.log" >&2
    failed=1
  fi
done
[ $failed = 0 ] && echo "${#headers[@]} generated headers compile alone"
exit $failed
