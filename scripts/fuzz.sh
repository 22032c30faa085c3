#!/usr/bin/env bash
# Fuzzes the parsers of what Jet reads from outside (tests/fuzz): builds the libFuzzer targets
# with clang, ASan and UBSan in build-fuzz, runs each for FUZZ_SECONDS (default 30) from a copy
# of its committed corpus, and prints one summary line per target. Exits 1 when a target finds
# a crash, a leak, a slow input or a broken property; the input that did it is kept in
# build-fuzz/findings/ (rerun: build-fuzz/tests/fuzz/TARGET FILE). The library's other build
# dependencies are jet.sh's to install; JET_BUILD_LOCK names a file to flock while building.
set -euo pipefail
cd "$(dirname "$0")/.."

build_dir=${JET_FUZZ_BUILD_DIR:-build-fuzz}
seconds=${FUZZ_SECONDS:-30}
cuda_root=${CUDAToolkit_ROOT:-/usr/local/cuda}
# Each target with the longest input it is given: an entry holds a header, a kernel's source
# and machine code; a record is a few lines; a .npy header a few hundred bytes; the others are a
# few words.
targets=(fuzz_cache_entry:4096 fuzz_record:4096 fuzz_user_params:512 fuzz_cli_args:256
  fuzz_npy_header:1024)

case "$seconds" in
  '' | *[!0-9]* | 0)
    echo "fuzz.sh: FUZZ_SECONDS='$seconds' is not a positive number of seconds" >&2
    exit 2
    ;;
esac

if ! command -v clang++-14 >/dev/null || ! compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a" >/dev/null; then
  echo "fuzz.sh: installing clang-14 libclang-rt-14-dev"
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq clang-14 libclang-rt-14-dev
fi

build() {
  if [ -n "${JET_BUILD_LOCK:-}" ]; then flock "$JET_BUILD_LOCK" "$@"; else "$@"; fi
}
start=$SECONDS
mkdir -p "$build_dir"
cmake -S . -B "$build_dir" -G Ninja -DCMAKE_CXX_COMPILER=clang++-14 -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCUDAToolkit_ROOT="$cuda_root" -DJET_FUZZ=ON -DJET_BUILD_TESTS=OFF -DJET_BUILD_BENCH=OFF \
  -DJET_BUILD_EXAMPLES=OFF > "$build_dir/fuzz-configure.log" 2>&1 || { cat "$build_dir/fuzz-configure.log"; exit 1; }
build cmake --build "$build_dir" --target "${targets[@]%%:*}" > "$build_dir/fuzz-build.log" 2>&1 ||
  { tail -50 "$build_dir/fuzz-build.log"; exit 1; }
echo "fuzz: built ${#targets[@]} targets in $((SECONDS - start)) s"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
findings=$build_dir/findings
mkdir -p "$findings"
failed=0
for entry in "${targets[@]}"; do
  target=${entry%%:*}
  max_len=${entry#*:}
  # The committed corpus seeds a copy, which the run grows; the committed one stays as it is.
  cp -r "tests/fuzz/corpus/$target" "$work/$target"
  log=$work/$target.log
  result=ok
  "$build_dir/tests/fuzz/$target" "$work/$target" -max_total_time="$seconds" -max_len="$max_len" \
    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/$target-" \
    > "$log" 2>&1 || result=FAILED
  runs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  coverage=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' "$log" | tail -1 || true)
  echo "fuzz $target: $result, $runs runs in $seconds s, ${coverage:-no coverage reported}"
  if [ "$result" != ok ]; then
    failed=1
    tail -40 "$log"
  fi
done
[ "$failed" -eq 0 ] || { echo "fuzz: findings in $findings" >&2; exit 1; }
