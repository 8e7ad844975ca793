#!/usr/bin/env bash
# Level W's global checks in footprints that share 16-byte chunks (inputs/neighbour_footprints.cu):
# block_sums' output equals native and it has no race; both_warps has exactly the write-write race of
# warps 0 and 1 on sums[b] in each of its 4 blocks, and with it warp 0's read-write record there (as
# with shared memory: U holds warp 1's value, and warp 0's re-execution stores its own again).
# Usage: neighbour_footprints.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "exit code $rc"; cat "$work/check.err"; fail=1; }
cmp -s "$work/native.out" "$work/check.out" || { echo "output differs from native"; cat "$work/native.out" "$work/check.out"; fail=1; }
expect_races "$work/report.json" \
  "both_warps write-write global sums sums[0] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "both_warps write-write global sums sums[1] warp 0 and warp 1 of block (1,0,0) both wrote it" \
  "both_warps write-write global sums sums[2] warp 0 and warp 1 of block (2,0,0) both wrote it" \
  "both_warps write-write global sums sums[3] warp 0 and warp 1 of block (3,0,0) both wrote it" \
  "both_warps read-write global sums sums[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "both_warps read-write global sums sums[1] warp 0 of block (1,0,0) read a value another warp wrote in the same region" \
  "both_warps read-write global sums sums[2] warp 0 of block (2,0,0) read a value another warp wrote in the same region" \
  "both_warps read-write global sums sums[3] warp 0 of block (3,0,0) read a value another warp wrote in the same region"
[ $fail -eq 0 ] && echo "neighbour_footprints: sums checked between warps in every block, output equals native"
exit $fail
