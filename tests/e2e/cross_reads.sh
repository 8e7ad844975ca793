#!/usr/bin/env bash
# Regions committed after pass 1 when no warp loaded what the block stored (inputs/cross_reads.cu):
# relay's 9 regions are 1 written by no warp and 8 that read nothing written, none re-executed, its
# output equal to native; exactly warp 1's read-write races on out[4] (aliased: a read through `in`,
# which points into out's allocation) and out[2] (escaped: a read through a copy of `out`); and the
# write-write races no byte of the copies shows (silent: warp 0 on cell[5]; split: warps 0 and 1 on
# cell[1]), found because overlapping store ranges make their regions re-execute.
# Usage: cross_reads.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
# These kernels would be proven race-free at launch (LDCC_PROOFS): the test is of the checker itself.
export LDCC_PROOFS=0
LDCC_VERBOSE=1 LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "exit code $rc"; cat "$work/check.err"; fail=1; }
cmp -s "$work/native.out" "$work/check.out" || { echo "output differs from native"; fail=1; }
# expect_regions KERNEL COUNTS: the kernel's level W line says exactly COUNTS.
expect_regions() {
  local line
  line="$(grep -o "$1<<<.*regions checked.*written" "$work/check.err" | sed 's/.* \([0-9]* regions checked\)/\1/')"
  [ "$line" = "$2" ] || { echo "$1: '$line', expected '$2'"; fail=1; }
}
expect_regions relay "9 regions checked, 0 without re-execution (a full log), 1 written by no warp, 8 that read nothing written"
expect_regions aliased "2 regions checked, 0 without re-execution (a full log), 1 written by no warp, 0 that read nothing written"
expect_regions escaped "2 regions checked, 0 without re-execution (a full log), 1 written by no warp, 0 that read nothing written"
expect_regions silent "2 regions checked, 0 without re-execution (a full log), 1 written by no warp, 0 that read nothing written"
expect_regions split "2 regions checked, 0 without re-execution (a full log), 1 written by no warp, 0 that read nothing written"
expect_races "$work/report.json" \
  "aliased read-write global out out[4] warp 1 of block (0,0,0) read a value another warp wrote in the same region" \
  "escaped read-write global out out[2] warp 1 of block (0,0,0) read a value another warp wrote in the same region" \
  "silent read-write global cell cell[5] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "split read-write global cell cell[1] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "split read-write global cell cell[1] warp 1 of block (0,0,0) read a value another warp wrote in the same region"
[ $fail -eq 0 ] && echo "cross_reads: 8 regions committed after pass 1, exactly the races of aliased, escaped, silent and split"
exit $fail
