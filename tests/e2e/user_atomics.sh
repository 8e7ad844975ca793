#!/usr/bin/env bash
# Helpers named like CUDA's atomics, `::atomicCAS`, and cuda_fp16.h's atomicAdd (inputs/user_atomics.cu):
# all five kernels checked (no warning), no race, and the output equal to native's in check and deterministic mode.
# Usage: user_atomics.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
expect_races "$work/report.json"
matches_native deterministic
[ $fail -eq 0 ] && echo "user_atomics: no race, and native's output in both modes"
exit $fail
