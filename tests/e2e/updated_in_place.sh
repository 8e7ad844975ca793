#!/usr/bin/env bash
# Targets updated in place (inputs/updated_in_place.cu): add_rows, race-free, is checked by level B in
# one execution on two copies and runs in place in deterministic mode (its 4 warps side by side: their
# stores mark words none other stores), its output equal to native in both modes; so is relabel in
# check mode (it loads each label before storing it, and bumps a shared counter with atomics), its
# output equal to native in both modes; warp_tally's warps race on *tally (level W reports it;
# deterministic mode finds two warps' stores in one word, undoes the in-place run and runs block
# copies with the warps in turns: 10, the warps' updates in warp order); block_tally's blocks race on
# *total in each of its 6 launches (level B reports it; deterministic mode undoes the in-place run and
# merges block copies: 8 a launch, 48; after the undo it skips the in-place run for 4 launches and
# tries it again on the 6th);
# warp_digits' warps race on an update whose result depends on their order (deterministic mode: 1234
# on block copies, the warps in turns, in one block and in two); bump_loaded loads each element and
# stores it (checked in one execution on two copies, run in place after warp_digits' marks were
# cleared, equal to native); carry_total's blocks race through a load and its store (level B
# reports the writes; deterministic mode: 8, on block copies); add_next reads through a second
# pointer into the allocation it updates (neither path for it; level B reports the read across the
# block boundary; deterministic mode sums every element with its start-state neighbour).
# Usage: updated_in_place.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
# These kernels would be proven race-free at launch (LDCC_PROOFS): the test is of the checker itself.
export LDCC_PROOFS=0
fail=0
grep -q "^add_rows: PASS" "$work/native.out" || { echo "native run failed its self-check"; cat "$work/native.out"; fail=1; }
echo "native:"; cat "$work/native.out"
LDCC_VERBOSE=1 LDCC_REPORT="$work/report.json" "$checked" > "$work/check.out" 2> "$work/check.err" || { echo "check run failed"; cat "$work/check.err"; fail=1; }
[ "$(grep "^add_rows:" "$work/check.out")" = "$(grep "^add_rows:" "$work/native.out")" ] || { echo "add_rows differs from native in check mode"; fail=1; }
plans="$(grep "level B over" "$work/check.err")"
echo "$plans"
echo "$plans" | grep -q "^ldcc: add_rows: .*8 blocks, 2 copies, 1 rounds, no re-execution (targets read only where stored, disjoint stores), on two copies$" ||
  { echo "expected add_rows' level B in one execution on two copies"; fail=1; }
echo "$plans" | grep "^ldcc: block_tally: " | grep -q "no re-execution" && { echo "block_tally's overlapping updates were not re-executed"; fail=1; }
echo "$plans" | grep -q "^ldcc: relabel: .*8 blocks, 2 copies, 1 rounds, no re-execution (targets read only where stored, disjoint stores), on two copies$" ||
  { echo "expected relabel's level B in one execution on two copies (a load followed by its store, atomics on shared memory)"; fail=1; }
grep -q "^relabel: PASS" "$work/native.out" || { echo "relabel's native run failed its self-check"; fail=1; }
[ "$(grep "^relabel:" "$work/check.out")" = "$(grep "^relabel:" "$work/native.out")" ] || { echo "relabel differs from native in check mode"; fail=1; }
echo "$plans" | grep -q "^ldcc: bump_loaded: .*8 blocks, 2 copies, 1 rounds, no re-execution (targets read only where stored, disjoint stores), on two copies$" ||
  { echo "expected bump_loaded's level B in one execution on two copies (a load followed by its store)"; fail=1; }
grep -q "^bump_loaded: PASS" "$work/native.out" || { echo "bump_loaded's native run failed its self-check"; fail=1; }
[ "$(grep "^bump_loaded:" "$work/check.out")" = "$(grep "^bump_loaded:" "$work/native.out")" ] || { echo "bump_loaded differs from native in check mode"; fail=1; }
echo "$plans" | grep "^ldcc: carry_total: " | grep -q "no re-execution" && { echo "carry_total's overlapping stores were not re-executed"; fail=1; }
echo "$plans" | grep -q "^ldcc: add_next: " || { echo "no level B plan for add_next"; fail=1; }
echo "$plans" | grep "^ldcc: add_next: " | grep -q "no re-execution" && { echo "add_next, which reads through another pointer, was not re-executed"; fail=1; }
# warp_tally: every pair of neighbouring warps wrote *tally, the lower warps read what a higher one
# wrote; block_tally: every pair of neighbouring blocks.
expect_races "$work/report.json" \
  "warp_tally write-write global tally tally[0] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "warp_tally write-write global tally tally[0] warp 1 and warp 2 of block (0,0,0) both wrote it" \
  "warp_tally write-write global tally tally[0] warp 2 and warp 3 of block (0,0,0) both wrote it" \
  "warp_tally read-write global tally tally[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "warp_tally read-write global tally tally[0] warp 1 of block (0,0,0) read a value another warp wrote in the same region" \
  "warp_tally read-write global tally tally[0] warp 2 of block (0,0,0) read a value another warp wrote in the same region" \
  "block_tally write-write global total total[0] block (0,0,0) and block (1,0,0) both wrote it" \
  "block_tally write-write global total total[0] block (1,0,0) and block (2,0,0) both wrote it" \
  "block_tally write-write global total total[0] block (2,0,0) and block (3,0,0) both wrote it" \
  "block_tally write-write global total total[0] block (3,0,0) and block (4,0,0) both wrote it" \
  "block_tally write-write global total total[0] block (4,0,0) and block (5,0,0) both wrote it" \
  "block_tally write-write global total total[0] block (5,0,0) and block (6,0,0) both wrote it" \
  "block_tally write-write global total total[0] block (6,0,0) and block (7,0,0) both wrote it" \
  "warp_digits write-write global digits digits[0] warp 0 and warp 1 of block (0,0,0) both wrote it" \
  "warp_digits write-write global digits digits[0] warp 1 and warp 2 of block (0,0,0) both wrote it" \
  "warp_digits write-write global digits digits[0] warp 2 and warp 3 of block (0,0,0) both wrote it" \
  "warp_digits read-write global digits digits[0] warp 0 of block (0,0,0) read a value another warp wrote in the same region" \
  "warp_digits read-write global digits digits[0] warp 1 of block (0,0,0) read a value another warp wrote in the same region" \
  "warp_digits read-write global digits digits[0] warp 2 of block (0,0,0) read a value another warp wrote in the same region" \
  "warp_digits write-write global digits digits[0] block (0,0,0) and block (1,0,0) both wrote it" \
  "carry_total write-write global carry carry[0] block (0,0,0) and block (1,0,0) both wrote it" \
  "carry_total write-write global carry carry[0] block (1,0,0) and block (2,0,0) both wrote it" \
  "carry_total write-write global carry carry[0] block (2,0,0) and block (3,0,0) both wrote it" \
  "carry_total write-write global carry carry[0] block (3,0,0) and block (4,0,0) both wrote it" \
  "carry_total write-write global carry carry[0] block (4,0,0) and block (5,0,0) both wrote it" \
  "carry_total write-write global carry carry[0] block (5,0,0) and block (6,0,0) both wrote it" \
  "carry_total write-write global carry carry[0] block (6,0,0) and block (7,0,0) both wrote it" \
  "add_next read-write global data data[63] block (0,0,0) read a value another block wrote (blocks do not synchronize within a launch)"
deterministic_runs "ldcc: add_rows: deterministic on the program's memory (targets read only where stored): the blocks' footprints are disjoint
ldcc: warp_tally: deterministic on the program's memory (targets read only where stored): two warps of a block stored to one word, again on block copies
ldcc: block_tally: deterministic on the program's memory (targets read only where stored): two blocks' footprints overlap, again on block copies
ldcc: block_tally: deterministic on the program's memory (targets read only where stored): two blocks' footprints overlap, again on block copies
ldcc: warp_digits: deterministic on the program's memory (targets read only where stored): two warps of a block stored to one word, again on block copies
ldcc: warp_digits: deterministic on the program's memory (targets read only where stored): two blocks' footprints overlap, again on block copies
ldcc: bump_loaded: deterministic on the program's memory (targets read only where stored): the blocks' footprints are disjoint
ldcc: carry_total: deterministic on the program's memory (targets read only where stored): two blocks' footprints overlap, again on block copies"
for i in 1 2 3; do
  [ "$(grep "^add_rows:" "$work/det.$i")" = "$(grep "^add_rows:" "$work/native.out")" ] || { echo "add_rows differs from native"; fail=1; }
  grep -qx "warp_tally: 10" "$work/det.$i" || { echo "run $i: the warps' updates did not land in warp order"; fail=1; }
  grep -qx "block_tally: 48" "$work/det.$i" || { echo "run $i: *total is not block 7's updates of each launch's start state"; fail=1; }
  grep -qx "warp_digits: 1234 1234" "$work/det.$i" || { echo "run $i: the warps' digits are not in warp order on both paths"; fail=1; }
  grep -qx "add_next: start-state sums" "$work/det.$i" || { echo "run $i: add_next saw another thread's update"; fail=1; }
  grep -qx "bump_loaded: PASS" "$work/det.$i" || { echo "run $i: bump_loaded failed its self-check"; fail=1; }
  grep -qx "carry_total: 8" "$work/det.$i" || { echo "run $i: *carry is not block 7's update of 0"; fail=1; }
  [ "$(grep "^relabel:" "$work/det.$i")" = "$(grep "^relabel:" "$work/native.out")" ] || { echo "run $i: relabel differs from native"; fail=1; }
done
[ $fail -eq 0 ] && echo "updated_in_place: add_rows and relabel checked in one execution, equal to native, add_rows run in place; warp_tally 10, block_tally 48, warp_digits 1234 on both paths, carry_total 8, bump_loaded in place and add_next's start-state sums on every run, their races reported"
exit $fail
