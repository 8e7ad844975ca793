#!/usr/bin/env bash
# Stores through pointers and references helpers return, and through a struct parameter's array of
# pointers, and struct parameters passed to helpers by reference and by pointer (inputs/traced_pointers.cu):
# every kernel checked (no warning); throughHelpers, pointerArrays and particles race-free, with native's output in both modes; racyCopy with exactly its write-write race
# between blocks through memcpy; racyCount with
# exactly its write-write race on the __device__ variable g_count (and the read-write record value-based
# checking adds where two warps wrote different values: pass 2 finds warp 0's copy unlike the union,
# as interleaved_footprints.sh's races show). Its value (the last line) depends on the warps' order:
# the outputs are compared without it.
# Usage: traced_pointers.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check but_last_line
expect_races "$work/report.json" \
    "racyCopy write-write global dst dst[0..15] block (0,0,0) and block (1,0,0) both wrote it" \
    "racyCount write-write global g_count g_count[0] warp 0 and warp 1 of block (0,0,0) both wrote it" \
    "racyCount read-write global g_count g_count[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region"
matches_native deterministic but_last_line
[ $fail -eq 0 ] && echo "traced_pointers: throughHelpers, pointerArrays and particles as native in both modes, exactly racyCount's race on g_count"
exit $fail
