#!/usr/bin/env bash
# Host costs of this tree beside an older one, on one GPU machine in one run: builds the two
# benchmark programs that report them (bench_elementwise: the 7-op expression; bench_kernels:
# the Black-Scholes call and the raw_kernel launch) of both trees, runs each pair twice,
# alternating, and prints their RESULT lines. The older tree is a folder made here with
#   mkdir -p .ab/old && git archive REV | tar -x -C .ab/old
# and carried to the GPU machine (`.ab` in the device tool's carry; git ignores it).
# ROUNDS=N alternates N times (default 2); PIN=CPU runs every benchmark on that one core.
set -uo pipefail
cd "$(dirname "$0")/.."
old=${1:-.ab/old}
out=${OUT:-build-ab}
mkdir -p "$out"
arch=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | head -1 | tr -d .)
deps=""
[ -d .deps/root/usr ] && deps="-DCMAKE_PREFIX_PATH=$PWD/.deps/root/usr"
build() {  # source folder, build folder
  cmake -S "$1" -B "$2" -G Ninja -DCMAKE_BUILD_TYPE=Release -DJET_BUILD_TESTS=OFF \
    -DJET_BUILD_EXAMPLES=OFF ${arch:+-DCMAKE_CUDA_ARCHITECTURES=$arch} $deps >"$out/configure.log" 2>&1 &&
    cmake --build "$2" -j "$(nproc)" --target bench_elementwise bench_kernels >"$out/build.log" 2>&1 ||
    { tail -30 "$out/build.log"; exit 1; }
}
build "$old" build-ab-old
build . build-ab-new
pin=${PIN:+taskset -c $PIN}
for round in $(seq "${ROUNDS:-2}"); do
  for tree in old new; do
    for b in bench_elementwise bench_kernels; do
      JET_CACHE_DIR=$PWD/build-ab-$tree/kernel-cache $pin "build-ab-$tree/bench/$b" 2>&1 |
        grep -E '^RESULT .*(host cost|raw_kernel launch|black-scholes call: plain|copy bandwidth \(GB/s\))' |
        sed "s/^RESULT/$tree round $round:/"
    done
  done
done | tee "$out/ab.log"
