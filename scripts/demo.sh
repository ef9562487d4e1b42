#!/usr/bin/env bash
# The main job on a bundled example: generates the four host-code variants of the annotated saxpy
# kernel (examples/saxpy/saxpy.cu), builds them, and runs and compares them when a GPU is present.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
overlap_ensure_packages
build=${OVERLAP_BUILD_DIR:-$OVERLAP_ROOT/build}
echo "== configuring $build"
overlap_configure "$build" >/dev/null
echo "== generating and building the variants of examples/saxpy/saxpy.cu"
cmake --build "$build" -j "$(overlap_jobs)" --target saxpy_example
generated="$build/examples/saxpy/overlap_generated/saxpy_example"
echo "== generated: $generated/saxpy.overlap.h (declarations) and saxpy.overlap.cu (host code)"
grep -E '^overlap::Status saxpy_' "$generated/saxpy.overlap.h" | sed 's/^/   /'
echo "== running $build/examples/saxpy/saxpy_example ${1:-}"
"$build/examples/saxpy/saxpy_example" "$@"
