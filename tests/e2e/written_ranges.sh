#!/usr/bin/env bash
# Level W's checks of global memory in regions that store to it, in either execution
# (inputs/written_ranges.cu): exactly the read-write races of warp 1 on out[100] (stored in pass 2
# only) and out[200] (pass 1 only), in block (0,0,0), and on out[150], stored in pass 2 of a region
# whose pass 1 stored nothing to global memory; out[0], out[63] (race-free) and out[64], out[255]
# (never stored) equal native.
# Usage: written_ranges.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "exit code $rc"; cat "$work/check.err"; fail=1; }
cmp -s "$work/native.out" "$work/check.out" || { echo "output differs from native"; fail=1; }
expect_races "$work/report.json" \
  "late_flag read-write global out out[100] warp 1 of block (0,0,0) read a value another warp wrote in the same region" \
  "late_flag read-write global out out[200] warp 1 of block (0,0,0) read a value another warp wrote in the same region" \
  "shared_flag read-write global out out[150] warp 1 of block (0,0,0) read a value another warp wrote in the same region"
[ $fail -eq 0 ] && echo "written_ranges: both executions' stores checked, exactly the three races of warp 1"
exit $fail
