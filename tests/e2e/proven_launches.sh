#!/usr/bin/env bash
# Launch-time proofs (inputs/proven_launches.cu): with LDCC_PROOFS=1 the four race-free
# launches of axpy, spread, block_sum and rows_sum are proven at launch and the other three checked,
# exactly the two racy ones' races reported (the aliased read of y[32], the stores of every thread to
# out[0]): 4 of 7 launches proven. With LDCC_PROOFS=0 the same races and no launch proven;
# deterministic mode runs the proven launches natively and the others in unit order. The output
# equals native in every run.
# Usage: proven_launches.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
races=("axpy read-write global y y[32] warp 0 of block (0,0,0) read a value another warp wrote in the same region"
       "spread write-write global out out[0] warp 0 and warp 1 of block (0,0,0) both wrote it")
proven_launches() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["proven_launches"])' "$1"; }
for proofs in 1 0; do
  LDCC_PROOFS=$proofs LDCC_REPORT="$work/report.$proofs.json" "$checked" > "$work/check.$proofs.out" 2> "$work/check.$proofs.err"
  echo "--- LDCC_PROOFS=$proofs"; cat "$work/check.$proofs.err"
  cmp -s "$work/native.out" "$work/check.$proofs.out" || { echo "output differs from native"; fail=1; }
  grep -qx "ldcc: 2 races (1 write-write, 1 read-write) in 7 checked launches" "$work/check.$proofs.err" || { echo "wrong summary"; fail=1; }
  expect_races "$work/report.$proofs.json" "${races[@]}"
done
grep -qx "ldcc: proven race-free at launch from their affine accesses (the original kernel ran): 4 of 7 checked launches" \
  "$work/check.1.err" || { echo "LDCC_PROOFS=1: wrong proven line"; fail=1; }
[ "$(proven_launches "$work/report.1.json")" = 4 ] || { echo "LDCC_PROOFS=1: the report's proven_launches is not 4"; fail=1; }
grep -q "proven" "$work/check.0.err" && { echo "LDCC_PROOFS=0: a launch was proven"; fail=1; }
[ "$(proven_launches "$work/report.0.json")" = 0 ] || { echo "LDCC_PROOFS=0: the report's proven_launches is not 0"; fail=1; }
LDCC_PROOFS=1 LDCC_MODE=deterministic "$checked" > "$work/det.out" 2> "$work/det.err"
echo "--- deterministic"; cat "$work/det.err"
cmp -s "$work/native.out" "$work/det.out" || { echo "deterministic output differs from native"; fail=1; }
grep -qx "ldcc: deterministic: 3 launches in unit order, 4 launches proven race-free (the original kernel ran)" "$work/det.err" ||
  { echo "wrong deterministic summary"; fail=1; }
grep -q "warning" "$work/det.err" "$work/check.1.err" && { echo "ldcc warned"; fail=1; }
[ $fail -eq 0 ] && echo "proven_launches: 4 of 7 launches proven, the others checked and the racy ones' races reported"
exit $fail
