#!/usr/bin/env bash
# Lambdas that name __shared__ and written __device__ variables (inputs/lambda_captures.cu): every
# kernel checked (no warning); rotate and accessed race-free, peeked with exactly one read-write race.
# Its out[0] (thread 0's racy read) may differ from native's: the outputs are compared without their
# last line.
# Usage: lambda_captures.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check but_last_line
expect_races "$work/report.json" \
    "peeked read-write global out out[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region"
matches_native deterministic but_last_line
[ $fail -eq 0 ] && echo "lambda_captures: rotate and accessed as native in both modes, exactly peeked's race"
exit $fail
