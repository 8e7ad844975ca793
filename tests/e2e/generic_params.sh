#!/usr/bin/env bash
# Template-typed parameters and parameter packs that alias written memory (inputs/generic_params.cu):
# echoOwn's, echoConst's, echoPack's and echoConstPack's output equal to native's in check and
# deterministic mode, no warning; and exactly genericAliased's read-write race on out[4].
# Usage: generic_params.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
expect_races "$work/report.json" \
  "genericAliased read-write global out out[4] warp 1 of block (0,0,0) read a value another warp wrote in the same region"
matches_native deterministic
[ $fail -eq 0 ] && echo "generic_params: the aliases read the units' copies: native's output, and genericAliased's race"
exit $fail
