#!/usr/bin/env bash
# The dynamic shared memory through accessors (inputs/dynamic_shared_accessors.cu): every kernel
# checked (no warning), the race-free ones' output equal to native's in check and deterministic mode,
# and exactly the races of racy and racyStores reported (racyStores' on the accessor's array, by name).
# Usage: dynamic_shared_accessors.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
# racy: the values the loads got show in out. racyStores: s[1..31] changed by both warps; s[0], where
# warp 0 stores the 0 already there, shows as warp 0's read of the value warp 1 stored (as with silent
# stores elsewhere, e2e cross_reads).
expect_races "$work/report.json" \
  "racy read-write global out out[0..31] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "racy read-write global out out[32..63] warp 1 of block (0,0,0) read a value another warp wrote in the same region" \
  "racyStores write-write shared __smem __smem[1..31] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "racyStores read-write shared __smem __smem[0..31] warp 0 of block (0,0,0) read a value another warp wrote in the same region"
matches_native deterministic
[ $fail -eq 0 ] && echo "dynamic_shared_accessors: exactly the races of racy and racyStores, and native's output in both modes"
exit $fail
