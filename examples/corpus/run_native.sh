#!/usr/bin/env bash
# Compiles every corpus program with nvcc and runs it natively (no ldcc).
#   clean programs: exit 0, last line PASS, and two runs print byte-identical output;
#   racy programs:  exit 0 and a "hash" line.
# RACECHECK=1 also runs compute-sanitizer's racecheck, which sees shared memory only: clean programs
# and racy programs whose race is on global memory must show no shared-memory hazards, the other
# racy ones must show some. A program that exits 77 with "skipped" on stderr (24 without 4.5 GiB of
# device memory) is skipped. Exit status: 0 when all checks hold, 77 without a GPU.
# Usage: examples/corpus/run_native.sh [program.cu ...]    (NVCC, NVCC_FLAGS, OUT_DIR override)
set -u
here="$(cd "$(dirname "$0")" && pwd)"
nvcc="${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
sanitizer="${COMPUTE_SANITIZER:-$(command -v compute-sanitizer || echo /usr/local/cuda/bin/compute-sanitizer)}"
flags="${NVCC_FLAGS:--std=c++17 -arch=sm_90 -O2}"
out="${OUT_DIR:-$(mktemp -d)}"
mkdir -p "$out"
cd "$here"
progs=("$@")
[ ${#progs[@]} -eq 0 ] && progs=(*.cu)
fail=0
for src in "${progs[@]}"; do
  name="$(basename "$src" .cu)"
  verdict="$(awk -F, -v p="$name.cu" '$1 == p { print $2 }' manifest.csv)"
  space="$(awk -F, -v p="$name.cu" '$1 == p { print $4 }' manifest.csv)"
  if ! "$nvcc" $flags "$src" -o "$out/$name" 2> "$out/$name.build"; then
    echo "FAIL $name: does not compile"; cat "$out/$name.build"; fail=1; continue
  fi
  if [ -s "$out/$name.build" ]; then echo "FAIL $name: compiler warnings"; cat "$out/$name.build"; fail=1; fi
  "$out/$name" > "$out/$name.out1" 2> "$out/$name.err"; rc=$?
  if [ $rc -eq 77 ] && grep -q '^skipped' "$out/$name.err"; then
    echo "skip $name: $(head -n 1 "$out/$name.err")"; continue
  fi
  if [ $rc -eq 77 ]; then echo "no CUDA device"; exit 77; fi
  status=ok
  if [ "$verdict" = clean ]; then
    "$out/$name" > "$out/$name.out2" 2>> "$out/$name.err"
    [ $rc -eq 0 ] && [ "$(tail -n 1 "$out/$name.out1")" = PASS ] || status="rc=$rc, no PASS"
    cmp -s "$out/$name.out1" "$out/$name.out2" || status="$status; output differs between runs"
  else
    [ $rc -eq 0 ] && grep -q '^hash ' "$out/$name.out1" || status="rc=$rc, no hash line"
  fi
  note=""
  if [ "${RACECHECK:-0}" = 1 ]; then
    "$sanitizer" --tool racecheck --racecheck-report hazard "$out/$name" > "$out/$name.rc" 2>&1
    summary="$(grep -o 'RACECHECK SUMMARY: [0-9]* hazard.*' "$out/$name.rc" | head -n 1)"
    hazards="$(echo "$summary" | awk '{ print $3 + 0 }')"
    note="  racecheck: ${summary:-no summary}"
    shared_race=$([ "$verdict" = race ] && [ "$space" != global ] && echo 1 || echo 0)
    if [ $shared_race = 0 ] && [ "$hazards" -ne 0 ]; then status="$status; racecheck hazards"; fi
    if [ $shared_race = 1 ] && [ "$hazards" -eq 0 ]; then status="$status; racecheck found nothing"; fi
  fi
  if [ "$status" = ok ]; then echo "ok   $name ($verdict)$note"; else echo "FAIL $name: $status$note"; fail=1; fi
  sed 's/^/       /' "$out/$name.out1"
done
exit $fail
