#!/usr/bin/env bash
# Level W over the forms of a store to shared memory (inputs/shared_store_forms.cu): exactly
# forms_race's five races (a bit-field, a store through a pointer, a store over two chunks, a store
# made in pass 2 only), and the race-free kernels' output equal to native, in check mode and in
# deterministic mode.
# Usage: shared_store_forms.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
matches_native check
expect_races "$work/report.json" \
  "forms_race write-write shared f f[0] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "forms_race read-write shared f f[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "forms_race read-write shared seen seen[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "forms_race read-write shared seen seen[3] warp 3 of block (0,0,0) read a value another warp wrote in the same region" \
  "forms_race read-write shared a a[100] warp 1 of block (0,0,0) read a value another warp wrote in the same region"
matches_native deterministic
[ $fail -eq 0 ] && echo "shared_store_forms: exactly the five races, and native's output in both modes"
exit $fail
