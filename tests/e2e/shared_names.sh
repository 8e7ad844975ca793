#!/usr/bin/env bash
# __shared__ variables named like a local, a parameter or a sibling scope's (inputs/shared_names.cu): all three
# kernels checked (no warning), no race, and the output equal to native's in check and deterministic mode.
# Usage: shared_names.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
expect_races "$work/report.json"
matches_native deterministic
[ $fail -eq 0 ] && echo "shared_names: no race, and native's output in both modes"
exit $fail
