#!/usr/bin/env bash
# cudaDeviceReset() after the last launch (inputs/reset_at_exit.cu): exit code 0, the native output and
# a clean summary in check mode, and the native output in deterministic mode.
# Usage: reset_at_exit.sh <native> <checked>. Exits 77 without a GPU.
source "$(dirname "$0")/input_test_start.sh"
fail=0
"$checked" > "$work/check.out" 2> "$work/check.err" || { echo "check mode: exit code $?"; fail=1; }
cat "$work/check.err"
cmp -s "$work/native.out" "$work/check.out" || { echo "check mode's output differs from native"; fail=1; }
grep -q "^ldcc: no races in 1 checked launch$" "$work/check.err" || { echo "no clean summary"; fail=1; }
grep -qi "error\|warning" "$work/check.err" && { echo "ldcc reported an error or a warning"; fail=1; }
LDCC_MODE=deterministic "$checked" > "$work/det.out" 2> "$work/det.err" || { echo "deterministic mode: exit code $?"; fail=1; }
cat "$work/det.err"
cmp -s "$work/native.out" "$work/det.out" || { echo "deterministic output differs from native"; fail=1; }
grep -qi "error\|warning" "$work/det.err" && { echo "ldcc reported an error or a warning"; fail=1; }
[ $fail -eq 0 ] && echo "reset_at_exit: clean exit after cudaDeviceReset in both modes"
exit $fail
