#!/usr/bin/env bash
# Level W over the forms of a store to shared memory (inputs/shared_store_forms.cu): exactly
# forms_race's five races (a bit-field, a store through a pointer, a store over two chunks, a store
# made in pass 2 only), and the race-free kernels' output equal to native, in check mode and in
# deterministic mode.
# Usage: shared_store_forms.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
rc=$?
[ $rc -eq 0 ] || { echo "exit code $rc"; cat "$work/check.err"; fail=1; }
grep -q "warning" "$work/check.err" && { echo "ldcc warned"; cat "$work/check.err"; fail=1; }
cmp -s "$work/native.out" "$work/check.out" || { echo "check mode's output differs from native"; fail=1; }
expect_races "$work/report.json" \
  "forms_race write-write shared f f[0] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "forms_race read-write shared f f[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "forms_race read-write shared seen seen[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "forms_race read-write shared seen seen[3] warp 3 of block (0,0,0) read a value another warp wrote in the same region" \
  "forms_race read-write shared a a[100] warp 1 of block (0,0,0) read a value another warp wrote in the same region"
LDCC_MODE=deterministic "$checked" > "$work/det.out" 2> "$work/det.err" || { echo "deterministic run failed"; fail=1; }
cmp -s "$work/native.out" "$work/det.out" || { echo "deterministic output differs from native"; fail=1; }
[ $fail -eq 0 ] && echo "shared_store_forms: exactly the five races, and native's output in both modes"
exit $fail
