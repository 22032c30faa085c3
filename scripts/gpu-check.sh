#!/usr/bin/env bash
# The one command for the GPU machine: Release build for the local GPU, every test, every
# benchmark, then a summary table. Logs go to $OUT when it is set (the device tool's folder).
set -uo pipefail
cd "$(dirname "$0")/.."
out=${OUT:-build-gpu-check}
mkdir -p "$out"
build=build-gpu-check
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
export PYTHONUNBUFFERED=1
# The tests fill the disk cache as a user's program would; keep it with the build.
export JET_CACHE_DIR=$PWD/$build/kernel-cache

cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release ${arch:+-DCMAKE_CUDA_ARCHITECTURES=$arch} \
  > "$out/configure.log" 2>&1 || { cat "$out/configure.log"; exit 1; }
cmake --build "$build" -j "$(nproc)" > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }

# GPU tests one process each is slow to start; run the executables whole, then ctest for the rest.
"$build/tests/jet_gpu_tests" --reporter compact > "$out/gpu-tests.log" 2>&1
gpu_rc=$?
"$build/tests/jet_host_tests" --reporter compact > "$out/host-tests.log" 2>&1
host_rc=$?
ctest --test-dir "$build" -L host -R install > "$out/ctest-install.log" 2>&1
install_rc=$?

for b in "$build"/bench/bench_*; do "$b"; done 2>&1 | tee "$out/bench.log"
python3 bench/compare.py 2>&1 | tee "$out/compare.log"

echo
echo "=== summary ==="
echo "gpu tests:  $(tail -3 "$out/gpu-tests.log" | grep -E 'Passed|Failed|passed|failed' | tail -1) (exit $gpu_rc)"
echo "host tests: $(tail -3 "$out/host-tests.log" | grep -E 'Passed|Failed|passed|failed' | tail -1) (exit $host_rc)"
echo "install consumer test: exit $install_rc"
echo "kernel cache after the tests: $("$build/src/cli/jet-cache" stats | tr '\n' ' ')"
grep -h '^RESULT' "$out/bench.log" "$out/compare.log" | sed 's/^RESULT //'
[ $gpu_rc -eq 0 ] && [ $host_rc -eq 0 ] && [ $install_rc -eq 0 ]
