#!/usr/bin/env bash
# Runs overlap-gen for every overlap_add_kernels() of this tree and collects the generated sources
# in <dest>/<target>/<file>.overlap.{h,cu}: a machine without Clang (the GPU node) then builds
# with -DOVERLAP_PREGENERATED_DIR=<dest>.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
dest=${1:?usage: pregenerate.sh <destination-dir>}
build=${OVERLAP_BUILD_DIR:-$OVERLAP_ROOT/build}
[ -f "$build/build.ninja" ] || overlap_configure "$build" >/dev/null
# Ninja lists each output once relative to the build dir; CMake may add absolute aliases.
mapfile -t outputs < <(ninja -C "$build" -t targets all |
  sed -n 's/^\(.*overlap_generated\/[^/]*\/[^/]*\.overlap\.\(cu\|h\)\): .*/\1/p' | grep -v '^/' | sort -u)
[ ${#outputs[@]} -gt 0 ] || { echo "no generated sources in $build" >&2; exit 1; }
ninja -C "$build" "${outputs[@]}" >/dev/null
rm -rf "$dest"
for output in "${outputs[@]}"; do
  target=$(basename "$(dirname "$output")")
  mkdir -p "$dest/$target"
  cp "$build/$output" "$dest/$target/"
done
echo "pregenerated ${#outputs[@]} files into $dest"
