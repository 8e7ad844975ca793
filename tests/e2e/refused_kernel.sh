#!/usr/bin/env bash
# A kernel the translator refused: check mode runs it unchecked, deterministic mode natively, each
# with a warning that says so; the output equals native in both modes.
# Usage: refused_kernel.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
# The accepted kernel's launch is proven race-free at launch (LDCC_PROOFS=1).
export LDCC_PROOFS=1
"$checked" > "$work/check.out" 2> "$work/check.err"
LDCC_MODE=deterministic "$checked" > "$work/det.out" 2> "$work/det.err"
cat "$work/check.err" "$work/det.err"
fail=0
grep -q "warning: kernel 'stepped' runs unchecked: a barrier in the header of a for loop" "$work/check.err" || { echo "no check-mode warning"; fail=1; }
grep -q "warning: kernel 'stepped' runs natively, its determinism is not guaranteed: a barrier in the header of a for loop" \
  "$work/det.err" || { echo "no deterministic-mode warning"; fail=1; }
grep -q "^ldcc: deterministic: 0 launches in unit order, 1 launch proven race-free (the original kernel ran), 1 launch native (determinism not guaranteed)$" "$work/det.err" \
  || { echo "wrong deterministic summary"; fail=1; }
cmp -s "$work/native.out" "$work/check.out" || { echo "check output differs"; fail=1; }
cmp -s "$work/native.out" "$work/det.out" || { echo "deterministic output differs"; fail=1; }
exit $fail
