#!/usr/bin/env bash
# Level B without re-execution for write-only targets (inputs/write_only_outputs.cu): scatter and
# next_input (its input starts where its output ends) run once per block, on two copies level B does
# not replicate (their blocks read none of the memory they write), and their outputs equal native;
# same_value (footprints overlap), shift (a read pointer into the written allocation) and tail_reads
# (one just past its end) are re-executed, and their races reported.
# Usage: write_only_outputs.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
# These kernels would be proven race-free at launch (LDCC_PROOFS): the test is of the checker itself.
export LDCC_PROOFS=0
LDCC_VERBOSE=1 LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err"
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "exit code $rc"; cat "$work/check.err"; fail=1; }
cmp -s "$work/native.out" "$work/check.out" || { echo "output differs from native"; cat "$work/native.out" "$work/check.out"; fail=1; }
# Deterministic mode runs the clone whose results stay: fill_range's loop must cover [begin, end).
LDCC_MODE=deterministic "$checked" > "$work/det.out" 2> "$work/det.err" || { echo "deterministic run failed"; cat "$work/det.err"; fail=1; }
cmp -s "$work/native.out" "$work/det.out" || { echo "deterministic output differs from native"; cat "$work/native.out" "$work/det.out"; fail=1; }
# The plan lines of level B, one per launch: scatter's and next_input's run without re-execution
# (fill_range's begin is used in arithmetic, not only stored through).
plans="$(grep "level B over" "$work/check.err")"
echo "$plans"
# Both on two copies never replicated (the write-only probe: their blocks read nothing of them).
[ "$(echo "$plans" | grep -c "no re-execution")" -eq 2 ] &&
  echo "$plans" | grep -q "^ldcc: scatter: .*2 copies, 1 rounds, no re-execution (.*), copies not replicated$" &&
  echo "$plans" | grep -q "^ldcc: next_input: .*2 copies, 1 rounds, no re-execution (.*), copies not replicated$" ||
  { echo "expected exactly scatter's and next_input's level B without re-execution, on copies not replicated"; fail=1; }
# same_value: block 0's store of the value out[5] held, re-executed over block 7's. shift: every
# element blocks 1 .. 7 write, read by the next block (block b writes dst[32 b .. 32 b + 31]), one
# race per block (its elements' records differ only in low bytes, one element after the other).
reads="(blocks do not synchronize within a launch)"
shifted=()
for b in $(seq 1 7); do
  shifted+=("shift read-write global dst dst[$((32 * b))..$((32 * b + 31))] block ($b,0,0) read a value another block wrote $reads")
done
# tail_reads: every element, each read from another block's; one race per block.
tail=()
for b in $(seq 0 7); do
  tail+=("tail_reads read-write global out out[$((32 * b))..$((32 * b + 31))] block ($b,0,0) read a value another block wrote $reads")
done
expect_races "$work/report.json" \
  "same_value read-write global out out[5] block (0,0,0) read a value another block wrote $reads" \
  "${shifted[@]}" "${tail[@]}"
[ $fail -eq 0 ] && echo "write_only_outputs: scatter and next_input run once per block, same_value, shift and tail_reads re-executed, fill_range's end moved with begin, next_input's input left in place, output equals native in both modes"
exit $fail
