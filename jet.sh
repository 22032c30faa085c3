#!/usr/bin/env bash
# The two commands of the README:
#   ./jet.sh demo   installs what is missing, builds, runs examples/tour
#   ./jet.sh test   installs what is missing, builds, runs every test (GPU tests skip without a GPU)
set -euo pipefail
cd "$(dirname "$0")"

build_dir=${JET_BUILD_DIR:-build}
cuda_root=${CUDAToolkit_ROOT:-/usr/local/cuda}

install_missing() {
  local missing=()
  command -v cmake >/dev/null || missing+=(cmake)
  command -v ninja >/dev/null || missing+=(ninja-build)
  command -v g++ >/dev/null || missing+=(g++)
  [ -e /usr/include/fmt/format.h ] || missing+=(libfmt-dev)
  [ -e /usr/include/openssl/evp.h ] || missing+=(libssl-dev)
  [ -e /usr/include/nlohmann/json.hpp ] || missing+=(nlohmann-json3-dev)
  [ -e /usr/include/zip.h ] || missing+=(libzip-dev)
  [ -e /usr/include/catch2/catch.hpp ] || [ -e /usr/include/catch2/catch_test_macros.hpp ] ||
    [ -e /usr/local/include/catch2/catch_test_macros.hpp ] || missing+=(catch2)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "jet.sh: installing ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
  fi
  if [ ! -e "$cuda_root/include/nvrtc.h" ]; then
    echo "jet.sh: no CUDA toolkit at $cuda_root; set CUDAToolkit_ROOT to its folder" >&2
    exit 1
  fi
}

configure_and_build() {
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${CMAKE_BUILD_TYPE:-Release}" \
    -DCUDAToolkit_ROOT="$cuda_root" -DJET_WERROR="${JET_WERROR:-OFF}" "$@" >/dev/null
  cmake --build "$build_dir" --target "${targets[@]}"
}

case "${1:-}" in
  demo)
    install_missing
    targets=(tour)
    configure_and_build
    "$build_dir/examples/tour"
    ;;
  test)
    install_missing
    targets=(all)
    configure_and_build
    ctest --test-dir "$build_dir" --output-on-failure -j "$(nproc)"
    ;;
  *)
    echo "usage: $0 demo|test" >&2
    exit 2
    ;;
esac
