#!/usr/bin/env bash
# Runs overlap-gen for every overlap_add_kernels() of a CMake + Ninja build tree and collects the
# generated sources in <dest>/<target>/<file>.overlap.{h,cu}: a machine without Clang (a GPU
# node) then builds the same project with -DOVERLAP_PREGENERATED_DIR=<dest>.
#
#   pregenerate.sh <dest> [<build-dir>]
#
# <build-dir> is any project's build tree configured with Ninja where overlap-gen exists (a
# user's project, or this repository's); without it, this repository's own build
# (OVERLAP_BUILD_DIR, default build/), configured if needed. Installed as overlap-pregenerate.
set -euo pipefail
dest=${1:?usage: pregenerate.sh <destination-dir> [<build-dir>]}
build=${2:-}
if [ -z "$build" ]; then
  source "$(dirname "$0")/lib.sh"
  build=${OVERLAP_BUILD_DIR:-$OVERLAP_ROOT/build}
  [ -f "$build/build.ninja" ] || overlap_configure "$build" >/dev/null
fi
[ -f "$build/build.ninja" ] || { echo "$build is not a Ninja build tree" >&2; exit 1; }
# Re-configured first where a CMakeLists changed: `ninja -t targets` lists the old targets.
ninja -C "$build" build.ninja >/dev/null
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
