#!/usr/bin/env bash
# Locals hoisted across barriers (inputs/hoisted_locals.cu): structured bindings by value, of an array,
# by reference and of a tuple-like type, and a library load after a barrier; both kernels checked (no warning), no race,
# and the output equal to native's in check and deterministic mode.
# Usage: hoisted_locals.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
expect_races "$work/report.json"
matches_native deterministic
[ $fail -eq 0 ] && echo "hoisted_locals: no race, and native's output in both modes"
exit $fail
