#!/usr/bin/env bash
# Checked vs native time and peak extra device memory of every corpus program, on the GPU machine.
# Each checked binary runs with LDCC_MODE=off (its original kernels: native code) and with
# LDCC_MODE=check; LDCC_TIMING records every translated launch, stream drained before and after.
# Per program: the sum over its launches, median of REPEAT runs. Also whole-process wall times.
# Usage: bench/corpus_bench.sh BUILD_DIR OUT_PREFIX [REPEAT]   -> OUT_PREFIX.csv, OUT_PREFIX.md
set -uo pipefail
build="$1" prefix="$2" repeat="${3:-5}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
echo "program,launches,native_kernel_us,checked_kernel_us,kernel_ratio,native_process_ms,checked_process_ms,peak_extra_device_mib" > "$prefix.csv"
for exe in "$build"/examples/corpus/corpus_*_checked; do
  name="$(basename "$exe" _checked)"; name="${name#corpus_}"
  native_exe="$build/examples/corpus/corpus_${name}_native"
  for mode in off check; do
    : > "$work/$mode.kernel"; : > "$work/$mode.process"
    for ((i = 0; i < repeat; i++)); do
      rm -f "$work/t.csv"
      start=$(date +%s%N)
      LDCC_MODE=$mode LDCC_TIMING="$work/t.csv" "$exe" > /dev/null 2>&1
      end=$(date +%s%N)
      awk -F, '{s += $3} END {printf "%.1f\n", s}' "$work/t.csv" >> "$work/$mode.kernel"
      launches=$(wc -l < "$work/t.csv")
      [ "$mode" = check ] && echo "$(( (end - start) / 1000000 ))" >> "$work/$mode.process"
      [ "$mode" = check ] && extra=$(awk -F, '$4 > m {m = $4} END {printf "%.2f", m / 1048576}' "$work/t.csv")
    done
  done
  : > "$work/native.process"
  for ((i = 0; i < repeat; i++)); do
    start=$(date +%s%N); "$native_exe" > /dev/null 2>&1; end=$(date +%s%N)
    echo "$(( (end - start) / 1000000 ))" >> "$work/native.process"
  done
  nk=$(median < "$work/off.kernel"); ck=$(median < "$work/check.kernel")
  np=$(median < "$work/native.process"); cp=$(median < "$work/check.process")
  ratio=$(awk -v a="$ck" -v b="$nk" 'BEGIN {printf "%.1f", (b > 0) ? a / b : 0}')
  echo "$name,$launches,$nk,$ck,$ratio,$np,$cp,$extra" >> "$prefix.csv"
done
{
  echo "| program | launches | native kernels (µs) | checked kernels (µs) | checked / native | native process (ms) | checked process (ms) | peak extra device memory (MiB) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  tail -n +2 "$prefix.csv" | awk -F, '{printf "| %s | %s | %s | %s | %s× | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8}'
  tail -n +2 "$prefix.csv" | awk -F, '$1 ~ /_clean$/ {l += log($5); n++} END {if (n) printf "\nGeometric mean over the %d race-free programs: %.1f×\n", n, exp(l / n)}'
} > "$prefix.md"
cat "$prefix.md"
