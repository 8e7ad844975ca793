#!/usr/bin/env bash
# A helper template's static __shared__ array (inputs/helper_template_shared.cu): every kernel checked
# (no warning), the race-free ones' output equal to native's in check and deterministic mode, and
# exactly stamped's races reported, on the helper's array by name.
# Usage: helper_template_shared.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
# slot[0..3]: both warps store (1..4 and 33..36 as floats); the bytes both store as zero show as warp
# 0's read of a value warp 1 stored, as with silent stores elsewhere (e2e cross_reads).
expect_races "$work/report.json" \
  "stamped write-write shared slot slot[0..3] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "stamped read-write shared slot slot[0..3] warp 0 of block (0,0,0) read a value another warp wrote in the same region"
matches_native deterministic
[ $fail -eq 0 ] && echo "helper_template_shared: exactly the races of stamped, and native's output in both modes"
exit $fail
