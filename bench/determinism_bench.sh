#!/usr/bin/env bash
# Deterministic mode against native on every corpus program, on the GPU machine:
#   - distinct stdouts over RUNS native runs (the native binary) and RUNS deterministic runs
#     (LDCC_MODE=deterministic on the checked binary), for racy programs (race-free ones: 5 each);
#   - whether a race-free program's deterministic stdout equals its native stdout;
#   - kernel time: LDCC_TIMING sums over the program's translated launches (stream drained before and
#     after each), deterministic runs vs LDCC_MODE=off runs of the same binary (native code), medians.
# Usage: bench/determinism_bench.sh BUILD_DIR OUT_PREFIX [RUNS] [MANIFEST]  -> OUT_PREFIX.csv, .md
set -uo pipefail
build="$1" prefix="$2" runs="${3:-20}"
root="$(cd "$(dirname "$0")/.." && pwd)"
manifest="${4:-$root/examples/corpus/manifest.csv}"
programs="$(dirname "$manifest")"; programs="$build/examples/$(basename "$programs")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
kernel_us() { awk -F, '{s += $3} END {printf "%.1f\n", s}' "$1"; }
echo "program,verdict,launches,native_kernel_us,deterministic_kernel_us,ratio,runs,native_distinct,deterministic_distinct,deterministic_equals_native" > "$prefix.csv"
for exe in "$programs"/*_checked; do
  base="$(basename "$exe" _checked)"; name="${base#*_}"
  native_exe="$programs/${base}_native"
  verdict="$(grep "^${name}.cu," "$manifest" | cut -d, -f2)"
  n=$runs; [ "$verdict" = clean ] && n=5
  [[ "$name" == *huge* ]] && n=2
  : > "$work/off"; : > "$work/det"
  for ((i = 0; i < n; i++)); do
    "$native_exe" > "$work/native.$i" 2> /dev/null
    rm -f "$work/t.csv"
    LDCC_MODE=deterministic LDCC_TIMING="$work/t.csv" "$exe" > "$work/det.$i" 2> /dev/null
    kernel_us "$work/t.csv" >> "$work/det"
    launches=$(wc -l < "$work/t.csv")
  done
  for ((i = 0; i < 5 && i < n; i++)); do
    rm -f "$work/t.csv"
    LDCC_MODE=off LDCC_TIMING="$work/t.csv" "$exe" > /dev/null 2>&1
    kernel_us "$work/t.csv" >> "$work/off"
  done
  nd=$(md5sum "$work"/native.* | cut -d' ' -f1 | sort -u | wc -l)
  dd=$(md5sum "$work"/det.[0-9]* | cut -d' ' -f1 | sort -u | wc -l)
  same=no; cmp -s "$work/native.0" "$work/det.0" && same=yes
  nk=$(median < "$work/off"); dk=$(median < "$work/det")
  ratio=$(awk -v a="$dk" -v b="$nk" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}')
  echo "$name,$verdict,$launches,$nk,$dk,$ratio,$n,$nd,$dd,$same" >> "$prefix.csv"
  rm -f "$work"/native.* "$work"/det.*
done
{
  echo "| program | verdict | launches | native kernels (µs) | deterministic kernels (µs) | deterministic / native | runs | distinct native outputs | distinct deterministic outputs | deterministic = native |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
  tail -n +2 "$prefix.csv" | awk -F, '{printf "| %s | %s | %s | %s | %s | %s× | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10}'
  tail -n +2 "$prefix.csv" | awk -F, '$2 == "clean" && $6 > 0 {l += log($6); n++} END {if (n) printf "\nGeometric mean of deterministic / native over the %d race-free programs: %.2f×\n", n, exp(l / n)}'
  tail -n +2 "$prefix.csv" | awk -F, '$2 == "race" && $8 > 1 {v++} $2 == "race" {r++} END {printf "Racy programs whose native output varied: %d of %d\n", v, r}'
} > "$prefix.md"
cat "$prefix.md"
