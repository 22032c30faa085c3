#!/usr/bin/env bash
# The one command for the GPU machine: Release build for the local GPU, every test, every
# benchmark, then a summary table. Logs go to $OUT when it is set (the device tool's folder).
# `gpu-check.sh tests`, `sync` (the GPU suite again, JET_ASYNC=0), `sanitize` or `bench` runs
# one part (the build is kept between them; sync and sanitize want the kernels the tests leave
# in the disk cache).
set -uo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
out=${OUT:-build-gpu-check}
mkdir -p "$out"
build=build-gpu-check
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
export PYTHONUNBUFFERED=1
# The tests fill the disk cache as a user's program would; keep it with the build.
export JET_CACHE_DIR=$PWD/$build/kernel-cache

# Packages the machine's image lacks, carried in .deps by scripts/device-deps.sh.
deps=""
[ -d .deps/root/usr ] && deps="-DCMAKE_PREFIX_PATH=$PWD/.deps/root/usr"
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${arch:+-DCMAKE_CUDA_ARCHITECTURES=$arch} $deps \
  > "$out/configure.log" 2>&1 || { cat "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }

# `sanitize TOOL CASE...`: each GPU test case under compute-sanitizer's TOOL, in 90 s at most;
# one line per case in sanitize-summary.log, with the sanitizer's error summary.
sanitize() {
  local tool=$1 failed=0 start status
  shift
  for name in "$@"; do
    start=$SECONDS
    timeout 90 compute-sanitizer --tool "$tool" --error-exitcode 3 \
      "$build/tests/jet_gpu_tests" "$name" > "$out/$tool.log" 2>&1
    status=$?
    [ $status -eq 0 ] || failed=1
    echo "$tool ($((SECONDS - start)) s, exit $status): $name:" \
      "$(grep -hoE '(ERROR|RACECHECK) SUMMARY: .*' "$out/$tool.log" | tail -1)" \
      >> "$out/sanitize-summary.log"
    cat "$out/$tool.log" >> "$out/$tool-all.log"
  done
  return $failed
}
export PATH=$PATH:/usr/local/cuda/bin

rc=0
: > "$out/sanitize-summary.log"
echo "=== summary ===" > "$out/summary.log"
if [ "$what" = all ] || [ "$what" = tests ]; then
  # One process per GPU test case, as many at once as there are cores: most of their time is
  # NVRTC compiling thousands of distinct kernels, which the shared disk cache then keeps.
  ctest --test-dir "$build" -L gpu -E numpy_diff -j "$(nproc)" --output-on-failure \
    > "$out/gpu-tests.log" 2>&1 || rc=1
  # The differential test against NumPy, run alone: it keeps every core busy by itself.
  python3 tests/diff/numpy_diff.py --jet "$build/tests/jet_numpy_diff" --cases 10000 \
    --work "$build/numpy-diff" > "$out/numpy-diff.log" 2>&1 || rc=1
  "$build/tests/jet_host_tests" --reporter compact > "$out/host-tests.log" 2>&1 || rc=1
  ctest --test-dir "$build" -L host -R install > "$out/ctest-install.log" 2>&1 || rc=1
  {
    echo "gpu tests:  $(grep -E 'tests passed' "$out/gpu-tests.log") $(grep -c 'Skipped' "$out/gpu-tests.log") skipped"
    grep -E 'Failed' "$out/gpu-tests.log" | sed 's/^/  /'
    echo "numpy diff: $(tail -1 "$out/numpy-diff.log")"
    echo "host tests: $(grep -E 'Passed|Failed|passed|failed' "$out/host-tests.log" | tail -1)"
    echo "install consumer test: $(grep -E 'tests passed' "$out/ctest-install.log")"
    echo "kernel cache after the tests: $("$build/tools/jet-cache/jet-cache" stats | tr '\n' ' ')"
  } >> "$out/summary.log"
fi
if [ "$what" = all ] || [ "$what" = sync ]; then
  # The suite again with synchronous evaluation (each kernel compiles before its call returns),
  # over the disk cache the first run filled: the results must not depend on the mode.
  JET_ASYNC=0 ctest --test-dir "$build" -L gpu -E numpy_diff -j "$(nproc)" --output-on-failure \
    > "$out/gpu-tests-sync.log" 2>&1 || rc=1
  {
    echo "gpu tests, JET_ASYNC=0: $(grep -E 'tests passed' "$out/gpu-tests-sync.log") $(grep -c 'Skipped' "$out/gpu-tests-sync.log") skipped"
    grep -E 'Failed' "$out/gpu-tests-sync.log" | sed 's/^/  /'
  } >> "$out/summary.log"
fi
if [ "$what" = all ] || [ "$what" = sanitize ]; then
  # compute-sanitizer over a reduced suite (the whole one would take hours under it): memcheck
  # on one case of each kernel kind, racecheck on the reduction and transposed-tile kernels.
  # The kernels come from the disk cache the suite just filled.
  sanitize memcheck "[smoke]" "elementwise expressions fuse into reductions" \
    "a reduction assigned into a view leaves the other elements alone" \
    "assignment into a view broadcasts*" \
    "reduction_kernel on large inputs: chunks*" \
    "scans of every dtype along each axis and flattened, and through views" \
    "a destroyed stream releases its reduction scratch and its default generator" || rc=1
  sanitize racecheck "argmin and argmax return the first of tied extremes" \
    "scans of sizes 0, 1, 2 and 2^20 + 3, of short and long rows and columns" \
    "elementwise expressions fuse into reductions" \
    "fused expressions over many operands*" || rc=1
  cat "$out/sanitize-summary.log" >> "$out/summary.log"
fi
if [ "$what" = all ] || [ "$what" = tests ]; then
  # The examples check their own results (from_cupy: each printed result against NumPy's).
  for e in tour sgemm_raw black_scholes monte_carlo option_prices kmeans monte_carlo_multigpu from_cupy; do
    "$build/examples/$e" > "$out/example-$e.log" 2>&1 && r=ok || { r=FAILED; rc=1; }
    echo "example $e: $r" >> "$out/summary.log"
  done
fi
if [ "$what" = all ] || [ "$what" = bench ]; then
  (fail=0; for b in "$build"/bench/bench_*; do "$b" || fail=1; done; exit $fail) 2>&1 |
    tee "$out/bench.log" || rc=1
  python3 bench/compare.py 2>&1 | tee "$out/compare.log"
  grep -h '^RESULT' "$out/bench.log" "$out/compare.log" | sed 's/^RESULT //' >> "$out/summary.log"
fi
echo
cat "$out/summary.log"
exit $rc
