# Shared by the scripts: the system packages Overlap builds with, and how a build is configured.
# Sourced, not run.

OVERLAP_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OVERLAP_PACKAGES=(cmake ninja-build g++ libgtest-dev nlohmann-json3-dev clang-19 libclang-19-dev llvm-19-dev
                  libclang-rt-19-dev)

# Installs what is missing when run as root; otherwise prints the exact apt line and fails.
overlap_ensure_packages() {
  local missing=()
  for package in "${OVERLAP_PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$package")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ]; then
      echo "== installing ${missing[*]}"
      apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null ||
        { echo "apt-get install failed" >&2; return 1; }
    else
      echo "Overlap needs these packages. Install them with:" >&2
      echo "  sudo apt-get install -y ${missing[*]}" >&2
      return 1
    fi
  fi
  if ! command -v nvcc >/dev/null && [ ! -x "${CUDA_PATH:-/usr/local/cuda}/bin/nvcc" ]; then
    echo "The CUDA Toolkit (nvcc) was not found in PATH or ${CUDA_PATH:-/usr/local/cuda}." >&2
    echo "Install it from https://developer.nvidia.com/cuda-downloads, or set CUDA_PATH." >&2
    return 1
  fi
}

# overlap_configure <build-dir> [cmake args...]
overlap_configure() {
  local build=$1
  shift
  local cuda=${CUDA_PATH:-/usr/local/cuda}
  cmake -S "$OVERLAP_ROOT" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-RelWithDebInfo} \
    -DCMAKE_CUDA_COMPILER="$(command -v nvcc || echo "$cuda/bin/nvcc")" "$@"
}

overlap_jobs() { nproc 2>/dev/null || echo 2; }
