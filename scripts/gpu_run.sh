#!/usr/bin/env bash
# Runs on the GPU machine (no clang, no network): the runtime-only build, the whole GPU test suite
# and the benchmarks. Logs and CSV go to $OUT (the device tool brings them back), else to ./gpu-out.
# Usage: scripts/gpu_run.sh [tests] [corpus] [bench] [bench-quick] [bench-corpus] [bench-deterministic]
#                          [eval] [eval-quick] [examples] [probes]
#        (default: tests examples bench). The corpus needs scripts/translate_corpus.sh run first.
#        LDCC_GPU_TARGETS: build only these CMake targets (e.g. eval_programs) instead of everything;
#        LDCC_CTEST_JOBS: tests run at a time (default 4).
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${OUT:-$root/gpu-out}"
mkdir -p "$out"
build=/tmp/ldcc-gpu-build
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(tests examples bench)
gtest_args=()
if [ ! -f /usr/include/gtest/gtest.h ] && [ -d "$root/.gpu/googletest" ]; then
  gtest_args=(-DLDCC_GTEST_SOURCE="$root/.gpu/googletest")
fi
{
  nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader
  date -u +%Y-%m-%dT%H:%MZ
} > "$out/device.txt"
cmake -S "$root" -B "$build" -G Ninja -DLDCC_BUILD_TRANSLATOR=OFF "${gtest_args[@]}" > "$out/build.log" 2>&1 ||
  { tail -50 "$out/build.log"; exit 1; }
# Keeps going past a program that does not compile: the rest still runs, the failure shows in the log.
cmake --build "$build" -j 16 ${LDCC_GPU_TARGETS:+--target $LDCC_GPU_TARGETS} -- -k 0 >> "$out/build.log" 2>&1 || { grep -B2 -A8 "error" "$out/build.log" | head -60; echo "BUILD FAILED (see above)"; }
status=0
for step in "${steps[@]}"; do
  case "$step" in
    tests)
      ctest --test-dir "$build" --output-on-failure -j "${LDCC_CTEST_JOBS:-4}" 2>&1 | tee "$out/ctest.log" | tail -25
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
    corpus)
      ctest --test-dir "$build" -L corpus --output-on-failure -j 8 2>&1 | tee "$out/corpus.log" | tail -40
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1 ;;
    bench-corpus)
      bash "$root/bench/corpus_bench.sh" "$build" "$out/corpus" 5 2>&1 | tail -40 ;;
    eval)  # the raw files come back as one archive (the device tool returns a limited number of files)
      RACECHECK_TIMEOUT="${RACECHECK_TIMEOUT:-60}" bash "$root/bench/eval.sh" "$build" "$out/eval-raw" "${EVAL_REPEAT:-5}" \
        "${EVAL_FILTER:-}" "${EVAL_STEPS:-native,check,deterministic,profile,racecheck}" 2>&1 | tail -30
      tar czf "$out/eval-raw.tgz" -C "$out" eval-raw && rm -rf "$out/eval-raw" ;;
    eval-quick)
      bash "$root/bench/eval.sh" "$build" "$out/eval-raw" 1 "${EVAL_FILTER:-}" native,check,deterministic,profile 2>&1 | tail -30
      tar czf "$out/eval-raw.tgz" -C "$out" eval-raw && rm -rf "$out/eval-raw" ;;
    bench-deterministic)
      bash "$root/bench/determinism_bench.sh" "$build" "$out/determinism" 20 2>&1 | tail -70 ;;
    examples)
      (cd "$build" && ./examples/library_api/library_api_example 2>&1 && LDCC_MODE=off ./examples/library_api/library_api_example 2>&1) | tee "$out/examples.log" ;;
    bench)
      "$build/bench/bench_check_ops" --csv "$out/check_ops.csv" 2>&1 | tee "$out/bench_check_ops.log" | tail -60 ;;
    probes)  # one process per measurement: each first time happens once per process
      { "$build/bench/probe_first_launch" steps
        for bytes in 1600 3200 6400; do "$build/bench/probe_first_launch" stack "$bytes"; done
        for way in own-pool own-pool-64M default-pool malloc; do "$build/bench/probe_first_launch" alloc "$way"; done; } 2>&1 | tee "$out/first_launch.md" ;;
    bench-quick)
      "$build/bench/bench_check_ops" --quick --csv "$out/check_ops.csv" 2>&1 | tee "$out/bench_check_ops.log" | tail -60 ;;
    *) echo "gpu_run.sh: unknown step $step" >&2; status=2 ;;
  esac
done
exit $status
