#!/usr/bin/env bash
# Deterministic mode's warp copies of global memory (inputs/warp_globals.cu): pass_along and streamed
# equal native; pass_along and racy_warps give each warp a copy, streamed (a store no hook sees) and
# claim_slots (an atomicAdd's value used) make their warps take turns; racy_warps gives exactly flag
# 4, seen 0 0 0 0 with warp copies, and flag 4, seen 0 1 2 3 with LDCC_WARP_COPIES=0 (turns);
# claim_slots gives order 0 1 2 3; each the same on every run.
# Usage: warp_globals.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
LDCC_MODE=deterministic LDCC_VERBOSE=1 "$checked" > "$work/det.out" 2> "$work/det.err"
LDCC_MODE=deterministic LDCC_VERBOSE=1 LDCC_WARP_COPIES=0 "$checked" > "$work/turns.out" 2> "$work/turns.err"
grep "deterministic over" "$work/det.err" "$work/turns.err"
fail=0
grep -q "warning" "$work/det.err" "$work/turns.err" && { echo "ldcc warned"; cat "$work/det.err"; fail=1; }
# The verbose lines come in launch order: pass_along, racy_warps, streamed (claim_slots, one block
# whose warps take turns, runs on the targets themselves: no copies, no line).
plans="$(grep -o "blocks in [0-9]* batches of [0-9]*, [a-z ]*" "$work/det.err" | sed 's/.*, //')"
expected_plans="$(printf 'a copy per warp\na copy per warp\nwarps in turn')"
[ "$plans" = "$expected_plans" ] || { echo "plans: got"; echo "$plans"; echo "expected"; echo "$expected_plans"; fail=1; }
grep -c "a copy per warp" "$work/turns.err" | grep -q "^0$" || { echo "LDCC_WARP_COPIES=0 still gave warps copies"; fail=1; }
for mode in det turns; do
  for kernel in pass_along streamed; do
    cmp -s <(grep "^$kernel:" "$work/native.out") <(grep "^$kernel:" "$work/$mode.out") ||
      { echo "$kernel differs from native ($mode)"; fail=1; }
  done
done
expect() {  # file line
  grep -qx "$2" "$work/$1" || { echo "$1: expected '$2', got '$(grep "^${2%%:*}:" "$work/$1")'"; fail=1; }
}
expect det.out "racy_warps flag: 4"
expect det.out "racy_warps seen: 0 0 0 0"
expect turns.out "racy_warps flag: 4"
expect turns.out "racy_warps seen: 0 1 2 3"
expect det.out "claim_slots order: 0 1 2 3"
expect turns.out "claim_slots order: 0 1 2 3"
for i in 1 2 3 4 5; do
  LDCC_MODE=deterministic "$checked" 2> /dev/null | cmp -s - "$work/det.out" || { echo "deterministic run $i differs"; fail=1; }
done
[ $fail -eq 0 ] && echo "warp_globals: warp copies merged at every site, equal to native; racy_warps as specified with copies and with turns, claim_slots in warp order"
exit $fail
