#!/usr/bin/env bash
# Calls of a synchronizing helper inside larger expressions and statements (inputs/helper_call_forms.cu):
# both kernels checked (no warning), no race, and the output equal to native's in check and
# deterministic mode.
# Usage: helper_call_forms.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
expect_races "$work/report.json"
matches_native deterministic
[ $fail -eq 0 ] && echo "helper_call_forms: no race, and native's output in both modes"
exit $fail
