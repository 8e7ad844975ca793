#!/usr/bin/env bash
# A class defined inside a kernel and a kernel parameter pack across a barrier
# (inputs/local_classes_and_packs.cu): every kernel checked (no warning), the race-free ones' output
# equal to native's in check and deterministic mode, and exactly racyWeighted's races on buf[0].
# Usage: local_classes_and_packs.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
# buf[0]: warps 0 and 1 store 6.0f and 198.0f; the low bytes both store as zero show as warp 0's read
# of a value warp 1 stored, as with silent stores elsewhere (e2e cross_reads, helper_template_shared).
expect_races "$work/report.json" \
  "racyWeighted write-write shared buf buf[0] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "racyWeighted read-write shared buf buf[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region"
matches_native deterministic
[ $fail -eq 0 ] && echo "local_classes_and_packs: exactly racyWeighted's races, and native's output in both modes"
exit $fail
