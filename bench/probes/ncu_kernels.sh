#!/usr/bin/env bash
# Nsight Compute on the GPU machine: where the launches of evaluation programs spend their time
# (stall reasons, memory traffic, occupancy, the busiest SASS lines), one report per request.
# Usage (repository root, GPU machine): bench/probes/ncu_kernels.sh OUT "program:mode:kernel_regex:count[:skip] ..."
#   e.g. "btree_clean:check:findK:5" profiles the first 5 launches whose name matches findK in
#   LDCC_MODE=check (mode "native": the native build); ":3" after the count skips the first 3 such
#   launches. Writes OUT/<program>.<mode>.<regex>.txt and, with NCU_SOURCE=1, the per-instruction
#   counters of the SASS, gzipped (OUT/<...>.sass.csv.gz: the whole csv is too big to come back).
set -uo pipefail
out="$1" requests="$2"
root="$(cd "$(dirname "$0")/../.." && pwd)"
build=/tmp/ncu-build
mkdir -p "$out"
ncu="$(command -v ncu || ls /usr/local/cuda/bin/ncu 2>/dev/null || ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)"
[ -x "$ncu" ] || { echo "no ncu on this machine"; exit 1; }
targets=""
for r in $requests; do IFS=: read -r p m k c skip <<< "$r"; targets+=" eval_${p}_native eval_${p}_checked"; done
cmake -S "$root" -B "$build" -G Ninja -DLDCC_BUILD_TRANSLATOR=OFF -DCMAKE_CUDA_FLAGS=-lineinfo > "$out/build.log" 2>&1 &&
  cmake --build "$build" -j 16 --target $targets >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
for r in $requests; do
  IFS=: read -r p m k c skip <<< "$r"
  bin="$build/examples/eval/eval_${p}_checked"
  [ "$m" = native ] && bin="$build/examples/eval/eval_${p}_native"
  LDCC_MODE="$m" timeout 240 "$ncu" -k "regex:$k" --launch-count "$c" --launch-skip "${skip:-0}" --import-source no \
    --section LaunchStats --section Occupancy --section SpeedOfLight --section WarpStateStats \
    --section MemoryWorkloadAnalysis --section SourceCounters --section SchedulerStats \
    ${NCU_SOURCE:+-o /tmp/ncu-report -f} "$bin" > "$out/$p.$m.$k.txt" 2>&1
  echo "$p $m $k: exit $? ($(grep -c 'Duration' "$out/$p.$m.$k.txt") launches)"
  if [ -n "${NCU_SOURCE:-}" ]; then
    "$ncu" --import /tmp/ncu-report.ncu-rep --print-details all > "$out/$p.$m.$k.txt" 2>&1
    "$ncu" --import /tmp/ncu-report.ncu-rep --page source --csv --print-source sass > "$out/$p.$m.$k.sass.csv" 2>&1
    echo "  source page: exit $?, $(wc -l < "$out/$p.$m.$k.sass.csv") lines"
    gzip -f "$out/$p.$m.$k.sass.csv"
  fi
done
