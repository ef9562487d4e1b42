#!/usr/bin/env bash
# The test command: installs what is missing (as root), builds everything and runs every test.
# GPU tests skip, saying why, where no GPU is present.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
overlap_ensure_packages
build=${OVERLAP_BUILD_DIR:-$OVERLAP_ROOT/build}
overlap_configure "$build"
cmake --build "$build" -j "$(overlap_jobs)"
cd "$build"
ctest --output-on-failure -j "$(overlap_jobs)"
