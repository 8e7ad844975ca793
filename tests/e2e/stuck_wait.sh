#!/usr/bin/env bash
# The watchdog (inputs/stuck_wait.cu): natively handoff's wait ends ("out 42 43"); checked and
# deterministic, each block waits on its own copy of the flag, and the runtime stops the program within
# LDCC_WATCHDOG=3 seconds (well before this script's 60 s limit) with exit code 124 and an error naming
# the kernel and the mode.
# Usage: stuck_wait.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
[ "$(cat "$work/native.out")" = "out 42 43" ] || { echo "native printed:"; cat "$work/native.out"; fail=1; }
for mode in check deterministic; do
  start=$SECONDS
  LDCC_MODE=$mode LDCC_WATCHDOG=3 timeout 60 "$checked" > "$work/$mode.out" 2> "$work/$mode.err"
  rc=$?
  echo "$mode: exit code $rc after $((SECONDS - start)) s"
  cat "$work/$mode.err"
  [ $rc -eq 124 ] && [ $((SECONDS - start)) -lt 30 ] || { echo "$mode: expected exit code 124 from the watchdog"; fail=1; }
  label=checked
  [ $mode = deterministic ] && label=deterministic
  grep -q "^ldcc: error: the $label launch of 'handoff' has not finished after 3 s\." "$work/$mode.err" ||
    { echo "$mode: no watchdog error naming handoff"; fail=1; }
done
[ $fail -eq 0 ] && echo "stuck_wait: natively 42 43; checked and deterministic runs stopped by the watchdog with its error"
exit $fail
