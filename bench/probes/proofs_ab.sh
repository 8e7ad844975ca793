#!/usr/bin/env bash
# On the GPU machine: A/B of launch-time proofs (LDCC_PROOFS=0 vs 1) on evaluation programs, same run.
# Usage: bench/probes/proofs_ab.sh <out dir> <repeats> <program>...   (builds only their targets)
# Prints, per program and mode, the median gpu_ms and whether stdout equals native, and the summary lines.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
out="$1"; repeat="$2"; shift 2
build=/tmp/ldcc-proofs-build
mkdir -p "$out"
targets=()
for p in "$@"; do targets+=("eval_${p}_native" "eval_${p}_checked"); done
cmake -S "$root" -B "$build" -G Ninja -DLDCC_BUILD_TRANSLATOR=OFF > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
cmake --build "$build" -j 16 --target "${targets[@]}" >> "$out/build.log" 2>&1 || { grep -B2 -A8 error "$out/build.log" | head -40; exit 1; }
export CUDA_MODULE_LOADING=EAGER
median() { sort -n | awk '{a[NR]=$1} END {print (NR ? a[int((NR + 1) / 2)] : "-")}'; }
gpu_ms() { grep -o 'gpu_ms[ =:]*[0-9.]*' "$1" | grep -o '[0-9.]*$' | tail -1; }
printf '| program | mode | LDCC_PROOFS | median gpu ms | stdout == native | summary |\n|---|---|---|---:|---|---|\n'
for p in "$@"; do
  dir="$build/examples/eval"
  for ((i = 1; i <= repeat; i++)); do "$dir/eval_${p}_native" > "$out/$p.native.$i.out" 2> "$out/$p.native.$i.err"; done
  printf '| %s | native | - | %s | - | - |\n' "$p" "$(for ((i = 1; i <= repeat; i++)); do gpu_ms "$out/$p.native.$i.err"; done | median)"
  for mode in check deterministic; do
    for proofs in 0 1; do
      tag="$p.$mode.$proofs"
      for ((i = 1; i <= repeat; i++)); do
        LDCC_MODE=$mode LDCC_PROOFS=$proofs "$dir/eval_${p}_checked" > "$out/$tag.$i.out" 2> "$out/$tag.$i.err"
      done
      same=$(cmp -s "$out/$p.native.1.out" "$out/$tag.1.out" && echo yes || echo no)
      summary=$(grep '^ldcc: \(no races\|[0-9]* race\|deterministic\|[0-9]* launch\)' "$out/$tag.1.err" | tr '\n' ' ')
      printf '| %s | %s | %s | %s | %s | %s |\n' "$p" "$mode" "$proofs" \
        "$(for ((i = 1; i <= repeat; i++)); do gpu_ms "$out/$tag.$i.err"; done | median)" "$same" "$summary"
    done
  done
done
