#!/usr/bin/env bash
# The test command: installs what is missing (as root), builds everything and runs every test.
# GPU tests skip, saying why, where no GPU is present.
#
# OVERLAP_SANITIZE_PASS=1 (CI sets it) then builds once more with AddressSanitizer and
# UndefinedBehaviorSanitizer in the host code (cmake/OverlapSanitize.cmake) and runs the
# host-side tests again under them: every test but the GPU ones (nothing to run without a GPU,
# and compute-sanitizer checks device code on the GPU), which that build leaves out, and the CMake
# build-step tests (nested builds of their own, not of this build's binaries).
set -euo pipefail
source "$(dirname "$0")/lib.sh"
overlap_ensure_packages
build=${OVERLAP_BUILD_DIR:-$OVERLAP_ROOT/build}
# Fault injection lets the tests reach every error path; in CI every warning is an error.
overlap_configure "$build" -DOVERLAP_FAULT_INJECTION=ON \
  -DOVERLAP_WARNINGS_AS_ERRORS="$([ "${CI:-}" = true ] && echo ON || echo OFF)"
cmake --build "$build" -j "$(overlap_jobs)"
(cd "$build" && ctest --output-on-failure -j "$(overlap_jobs)")

if [ "${OVERLAP_SANITIZE_PASS:-0}" = 1 ]; then
  echo "== the host-side tests again, under AddressSanitizer and UndefinedBehaviorSanitizer"
  sanitized=${OVERLAP_SANITIZE_BUILD_DIR:-$build-asan-ubsan}
  BUILD_TYPE=Debug overlap_configure "$sanitized" -DOVERLAP_SANITIZE=address,undefined \
    -DOVERLAP_FAULT_INJECTION=ON -DOVERLAP_HOST_TESTS_ONLY=ON
  cmake --build "$sanitized" -j "$(overlap_jobs)"
  # LeakSanitizer stays on (ASan's default): a leak fails the test that made it.
  ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1} \
    UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
    ctest --test-dir "$sanitized" --output-on-failure -j "$(overlap_jobs)" -LE 'gpu|cmake'
fi
