#!/usr/bin/env bash
# Blocks of one warp (inputs/one_warp_blocks.cu): the native run passes its self-check; check mode
# reports no race and deterministic mode runs both launches in unit order with no warning, each
# printing exactly the native output (in deterministic mode the plain loads after the warp's shared
# atomics see them, as natively), on every run.
# Usage: one_warp_blocks.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
grep -qx "PASS" "$work/native.out" || { echo "native run failed its self-check"; cat "$work/native.out"; fail=1; }
"$checked" > "$work/check.out" 2> "$work/check.err"
grep -q "^ldcc: no races in 2 checked launches" "$work/check.err" || { echo "check: no clean summary"; cat "$work/check.err"; fail=1; }
cmp -s "$work/native.out" "$work/check.out" || { echo "check output differs from native:"; diff "$work/native.out" "$work/check.out"; fail=1; }
for i in 1 2 3; do
  LDCC_MODE=deterministic "$checked" > "$work/det.out" 2> "$work/det.err"
  grep -qx "ldcc: deterministic: 2 launches in unit order" "$work/det.err" || { echo "deterministic run $i:"; cat "$work/det.err"; fail=1; }
  grep -q "warning" "$work/det.err" && { echo "ldcc warned"; fail=1; }
  cmp -s "$work/native.out" "$work/det.out" || { echo "deterministic run $i differs from native:"; diff "$work/native.out" "$work/det.out"; fail=1; }
done
[ $fail -eq 0 ] && echo "one_warp_blocks: check and deterministic outputs equal native, no race, both launches in unit order"
exit $fail
