#!/usr/bin/env bash
# A user's project that adds Overlap's source tree with add_subdirectory() and no options:
# it configures without GoogleTest being asked for, defines none of Overlap's tests, examples or
# benchmarks, and gets overlap_add_kernels for its own target.
set -euo pipefail
source=$1 nvcc=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

mkdir -p "$work/app"
cp "$source/examples/saxpy/saxpy.cu" "$source/examples/saxpy/main.cpp" "$work/app/"
cp -r "$source/examples/common" "$work/"
cat >"$work/app/CMakeLists.txt" <<CMAKE
cmake_minimum_required(VERSION 3.24)
project(user_app LANGUAGES CXX CUDA)
add_subdirectory("$source" overlap)
add_executable(app main.cpp)
target_include_directories(app PRIVATE "$work/common")
overlap_add_kernels(app SOURCES saxpy.cu)
CMAKE
# With GTest unfindable, a find_package(GTest REQUIRED) would fail the configure.
cmake -S "$work/app" -B "$work/b" -G Ninja -DCMAKE_CUDA_COMPILER="$nvcc" \
  -DCMAKE_CUDA_ARCHITECTURES=75 -DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "configure with add_subdirectory"; }
targets=$(ninja -C "$work/b" -t targets all 2>/dev/null | cut -d: -f1)
grep -qx "app" <<<"$targets" || fail "the user's target is missing"
for own in overlap_annotation_tests overlap_frontend_tests saxpy_example bench_reference_tests; do
  grep -qx "$own" <<<"$targets" && fail "Overlap's own target $own was defined"
done
grep -q "saxpy.overlap.cu" <<<"$targets" || fail "no generation step for saxpy.cu"
echo "add_subdirectory: ok"
