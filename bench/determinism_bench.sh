#!/usr/bin/env bash
# Deterministic mode against native on every corpus program, on the GPU machine:
#   - distinct stdouts over RUNS native runs (the native binary) and RUNS deterministic runs
#     (LDCC_MODE=deterministic on the checked binary), for racy programs (race-free ones: 5 each);
#     these runs go 4 programs at a time (only their outputs count);
#   - whether a race-free program's deterministic stdout equals its native stdout, and the md5 of the
#     deterministic stdout (bench/determinism_compare.sh compares it between two GPUs);
#   - kernel time, one program at a time: LDCC_TIMING sums over the program's translated launches
#     (stream drained before and after each), 5 deterministic runs vs 5 LDCC_MODE=off runs of the same
#     binary (native code; fewer for a program with fewer output runs), medians.
# Usage: bench/determinism_bench.sh BUILD_DIR OUT_PREFIX [RUNS] [MANIFEST]  -> OUT_PREFIX.csv, .md
set -uo pipefail
build="$1" prefix="$2" runs="${3:-20}"
root="$(cd "$(dirname "$0")/.." && pwd)"
manifest="${4:-$root/examples/corpus/manifest.csv}"
programs="$(dirname "$manifest")"; programs="$build/examples/$(basename "$programs")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
export work programs manifest runs
export CUDA_MODULE_LOADING=EAGER  # module loading stays out of the first launch's time (most have one)

# One program's output runs: "$work/<name>.outputs" = verdict,runs,native_distinct,deterministic_distinct,
# deterministic_equals_native,deterministic_md5
output_runs() {
  local exe="$1" base name native_exe verdict n d
  base="$(basename "$exe" _checked)"; name="${base#*_}"
  native_exe="$programs/${base}_native"
  verdict="$(grep "^${name}.cu," "$manifest" | cut -d, -f2)"
  n=$runs; [ "$verdict" = clean ] && n=5
  [[ "$name" == *huge* ]] && n=2
  d="$work/$name"; mkdir -p "$d"
  for ((i = 0; i < n; i++)); do
    "$native_exe" > "$d/native.$i" 2> /dev/null
    LDCC_MODE=deterministic "$exe" > "$d/det.$i" 2> /dev/null
  done
  local nd dd same=no md5
  nd=$(md5sum "$d"/native.* | cut -d' ' -f1 | sort -u | wc -l)
  dd=$(md5sum "$d"/det.* | cut -d' ' -f1 | sort -u | wc -l)
  cmp -s "$d/native.0" "$d/det.0" && same=yes
  md5=$(md5sum < "$d/det.0" | cut -c1-12)
  echo "$verdict,$n,$nd,$dd,$same,$md5" > "$work/$name.outputs"
  rm -rf "$d"
}
export -f output_runs
ls "$programs"/*_checked | xargs -P 4 -I{} bash -c 'output_runs "$@"' _ {}

median() { sort -g | awk '{v[NR]=$1} END {print (NR%2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }
kernel_us() { awk -F, '{s += $3} END {printf "%.1f\n", s}' "$1"; }
echo "program,verdict,launches,native_kernel_us,deterministic_kernel_us,ratio,runs,native_distinct,deterministic_distinct,deterministic_equals_native,deterministic_md5" > "$prefix.csv"
for exe in "$programs"/*_checked; do
  base="$(basename "$exe" _checked)"; name="${base#*_}"
  IFS=, read -r verdict n nd dd same md5 < "$work/$name.outputs"
  : > "$work/off"; : > "$work/det"
  for ((i = 0; i < 5 && i < n; i++)); do
    rm -f "$work/t.csv"
    LDCC_MODE=off LDCC_TIMING="$work/t.csv" "$exe" > /dev/null 2>&1
    kernel_us "$work/t.csv" >> "$work/off"
    rm -f "$work/t.csv"
    LDCC_MODE=deterministic LDCC_TIMING="$work/t.csv" "$exe" > /dev/null 2>&1
    kernel_us "$work/t.csv" >> "$work/det"
    launches=$(wc -l < "$work/t.csv")
  done
  nk=$(median < "$work/off"); dk=$(median < "$work/det")
  ratio=$(awk -v a="$dk" -v b="$nk" 'BEGIN {printf "%.2f", (b > 0) ? a / b : 0}')
  echo "$name,$verdict,$launches,$nk,$dk,$ratio,$n,$nd,$dd,$same,$md5" >> "$prefix.csv"
done
{
  echo "| program | verdict | launches | native kernels (µs) | deterministic kernels (µs) | deterministic / native | runs | distinct native outputs | distinct deterministic outputs | deterministic = native |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---|"
  tail -n +2 "$prefix.csv" | awk -F, '{printf "| %s | %s | %s | %s | %s | %s× | %s | %s | %s | %s |\n", $1, $2, $3, $4, $5, $6, $7, $8, $9, $10}'
  tail -n +2 "$prefix.csv" | awk -F, '$2 == "clean" && $6 > 0 {l += log($6); n++} END {if (n) printf "\nGeometric mean of deterministic / native over the %d race-free programs: %.2f×\n", n, exp(l / n)}'
  tail -n +2 "$prefix.csv" | awk -F, '$2 == "race" && $6 > 0 {l += log($6); n++} END {if (n) printf "Geometric mean of deterministic / native over the %d racy programs: %.2f×\n", n, exp(l / n)}'
  tail -n +2 "$prefix.csv" | awk -F, '$2 == "race" && $8 > 1 {v++} $2 == "race" && $8 > 1 && $9 == 1 {o++} $2 == "race" {r++} END {printf "Racy programs whose native output varied: %d of %d; of those, one deterministic output: %d\n", v, r, o}'
  tail -n +2 "$prefix.csv" | awk -F, '$2 == "clean" && $10 == "yes" {e++} $2 == "clean" {c++} END {printf "Race-free programs whose deterministic output equals native: %d of %d\n", e, c}'
} > "$prefix.md"
cat "$prefix.md"
