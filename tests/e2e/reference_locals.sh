#!/usr/bin/env bash
# Reference locals, const class and const array locals across barriers (inputs/reference_locals.cu):
# every kernel checked (no warning); throughReferences, constClasses and constArraysAndMutables
# race-free, racyReference with exactly one read-write race. Its out[0] (thread 0's racy read) may differ from native's: the outputs are
# compared without their last line.
# Usage: reference_locals.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check but_last_line
expect_races "$work/report.json" \
    "racyReference read-write global out out[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region"
matches_native deterministic but_last_line
[ $fail -eq 0 ] && echo "reference_locals: throughReferences, constClasses and constArraysAndMutables as native in both modes, exactly racyReference's race"
exit $fail
